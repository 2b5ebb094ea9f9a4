package oracle

import "testing"

func TestApplyPatch(t *testing.T) {
	base := "a\nb\nc\nd\ne\n"
	tests := []struct {
		name, patch, src, want string
	}{
		{"one hunk", "diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n", base, "a\nb\nC\nd\ne\n"},
		{"hunk placed by content when its line is off", "diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -1,3 +1,4 @@\n c\n d\n+x\n e\n", base, "a\nb\nc\nd\nx\ne\n"},
		{"new side without a final newline", "diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -4,2 +4,2 @@\n d\n-e\n+E\n\\ No newline at end of file\n", base, "a\nb\nc\nd\nE"},
		{"a new file", "diff --git a/g.py b/g.py\nnew file mode 100644\n--- /dev/null\n+++ b/g.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n", "", "x = 1\ny = 2\n"},
	}
	for _, tt := range tests {
		fps, err := ParsePatch(tt.patch)
		if err != nil || len(fps) != 1 {
			t.Fatalf("%s: ParsePatch = %v, %v", tt.name, fps, err)
		}
		var src []byte
		if fps[0].Old != "" {
			src = []byte(tt.src)
		}
		got, err := fps[0].Apply(src)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: Apply = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	fps, _ := ParsePatch("diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -2,1 +2,1 @@\n-zzz\n+y\n")
	if _, err := fps[0].Apply([]byte(base)); err == nil {
		t.Error("a hunk whose old lines are nowhere applied")
	}
}

func TestEquivalent(t *testing.T) {
	tests := []struct {
		lang, a, b string
		want       bool
	}{
		{"python", "x = 1  # one\n\ny = 2\n", "x = 1\ny  =  2\n", true},
		{"python", "s = '# not a comment'\n", "s = ''\n", false},
		{"python", "x = 1\n", "x = 2\n", false},
		{"cpp", "int f() { /* why */\n  return 1; // one\n}\n", "int f() {\n  return 1;\n}\n", true},
		{"go", "s := \"// kept\"\n", "s := \"\"\n", false},
		{"rust", "fn f<'a>(x: &'a str) {} // c\n", "fn f<'a>(x: &'a str) {}\n", true},
	}
	for _, tt := range tests {
		if got := Equivalent(tt.lang, []byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("Equivalent(%s, %q, %q) = %v, want %v", tt.lang, tt.a, tt.b, got, tt.want)
		}
	}
}
