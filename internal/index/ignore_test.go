package index

import "testing"

// TestIgnoreMatch covers the string fast paths of ignore rules against the
// regexp every pattern used to be.
func TestIgnoreMatch(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		dir     string // the ignore file's directory
		path    string
		isDir   bool
		want    bool
	}{
		{"exact name at the root", "MANIFEST", "", "MANIFEST", false, true},
		{"exact name deep", "tags", "", "a/b/tags", false, true},
		{"exact name is not a suffix", "tags", "", "a/xtags", false, false},
		{"suffix", "*.pyc", "", "a/b.pyc", false, true},
		{"suffix not in a directory name", "*.pyc", "", "a.pyc/b.py", false, false},
		{"prefix", "tmp*", "", "x/tmpfile.py", false, true},
		{"prefix needs the start", "tmp*", "", "x/atmp.py", false, false},
		{"class", "*.sw[op]", "", "a/.x.swp", false, true},
		{"class miss", "*.sw[op]", "", "a/.x.swx", false, false},
		{"directory only skips files", "build/", "", "build", false, false},
		{"directory only", "build/", "", "a/build", true, true},
		{"anchored", "/sympy/polys/*.c", "", "sympy/polys/x.c", false, true},
		{"anchored elsewhere", "/sympy/polys/*.c", "", "other/sympy/polys/x.c", false, false},
		{"double star", "**/gen/*.py", "", "a/b/gen/x.py", false, true},
		{"double star without slash", "a**", "", "x/ab/c.py", false, true},
		{"nested file", "*.py", "sub", "sub/x.py", false, true},
		{"nested file elsewhere", "*.py", "sub", "other/x.py", false, false},
		{"escaped star is literal", `\*.py`, "", "*.py", false, true},
		{"escaped star does not glob", `\*.py`, "", "a.py", false, false},
		{"question mark", "?.py", "", "d/a.py", false, true},
		{"literal after a class", "[ab]cache*x", "", "d/bcachex", false, true},
		{"literal after a class missing", "[ab]cache*x", "", "d/bcachx", false, false},
		{"anchored literal prefix missing", "doc/src/*.pdf", "", "doc/srx/a.pdf", false, false},
		{"dot star", ".*cache", "", "a/.mypycache", true, true},
		{"anchored name", "/bin/", "", "bin", true, true},
		{"anchored name deeper", "/bin/", "", "a/bin", true, false},
		{"anchored name is a directory", "/bin/", "", "bin", false, false},
		{"literal path", "event-sourcing/Journal.json", "", "event-sourcing/Journal.json", false, true},
		{"literal path elsewhere", "event-sourcing/Journal.json", "", "x/event-sourcing/Journal.json", false, false},
		{"literal path with spaces", "etc/A B.puml", "", "etc/A B.puml", false, true},
		{"anchored name in a nested file", "/target/", "sub", "sub/target", true, true},
		{"anchored name in a nested file deeper", "/target/", "sub", "sub/x/target", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ig := &ignorer{files: []*ignoreFile{parseIgnore([]byte(tt.pattern+"\n"), tt.dir)}}
			if got := ig.match(tt.path, tt.isDir); got != tt.want {
				t.Errorf("pattern %q in %q: match(%q, dir=%v) = %v, want %v", tt.pattern, tt.dir, tt.path, tt.isDir, got, tt.want)
			}
		})
	}
}

// TestIgnoreNegation: a later ! rule re-includes what an earlier one excluded.
func TestIgnoreNegation(t *testing.T) {
	ig := &ignorer{files: []*ignoreFile{parseIgnore([]byte("*.py\n!keep.py\n"), "")}}
	for path, want := range map[string]bool{"a.py": true, "d/keep.py": false, "x.go": false} {
		if got := ig.match(path, false); got != want {
			t.Errorf("match(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestLongestLiteral(t *testing.T) {
	tests := map[string]string{
		"*.sw[op]":        ".sw",
		"sympy/polys/*.c": "sympy/polys/",
		".*cache":         "cache",
		`\*.py`:           ".py",
		"[ab]cache*x":     "cache",
		"**":              "",
		"a[":              "a", // an unclosed [ is literal: shorter is still safe
	}
	for g, want := range tests {
		if got := longestLiteral(g); got != want {
			t.Errorf("longestLiteral(%q) = %q, want %q", g, got, want)
		}
	}
}
