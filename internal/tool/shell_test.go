package tool

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBash(t *testing.T) {
	env, outside := testEnv(t, map[string]string{"sub/f.txt": "x"})
	steps := []struct {
		cmd     string
		want    string
		isError bool
		cwd     string // relative to the root
	}{
		{"echo hello", "hello", false, "."},
		{"cd sub && pwd -P", env.Root + "/sub", false, "sub"},
		{"ls", "f.txt", false, "sub"},
		{"exit 3", "(no output)\n[exit code 3]", true, "sub"},
		{"echo -n partial", "partial", false, "sub"},
		{"cd " + outside, "(no output)\n[The shell left the workspace (" + outside + "); its working directory was reset to " + env.Root + ".]", false, "."},
		{"pwd -P", env.Root, false, "."},
		{"true", "(no output)", false, "."},
	}
	for _, s := range steps {
		res := call(t, Bash{}, env, map[string]any{"command": s.cmd, "description": "test"})
		if res.Content != s.want || res.IsError != s.isError {
			t.Errorf("Bash(%q) = %q (error %v), want %q (error %v)", s.cmd, res.Content, res.IsError, s.want, s.isError)
		}
		if got := env.Cwd(); got != filepath.Join(env.Root, s.cwd) {
			t.Errorf("after Bash(%q): cwd = %s, want %s", s.cmd, got, filepath.Join(env.Root, s.cwd))
		}
	}
}

func TestBashTimeoutAndCancel(t *testing.T) {
	env, _ := testEnv(t, nil)
	res := call(t, Bash{}, env, map[string]any{"command": "echo start; sleep 30", "timeout": 200})
	if !res.IsError || !strings.Contains(res.Content, "start") || !strings.Contains(res.Content, "timed out after 200ms") {
		t.Errorf("Bash timeout = %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err := Bash{}.Run(ctx, env, mustJSON(map[string]any{"command": "sleep 30"}))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Bash after cancel: err = %v, want context.Canceled (the turn ends)", err)
	}
	if res := call(t, Bash{}, env, map[string]any{"command": " "}); !res.IsError {
		t.Errorf("Bash(empty) = %+v, want an error", res)
	}
}

func TestBashOutputCapped(t *testing.T) {
	env, _ := testEnv(t, nil)
	res := call(t, Bash{}, env, map[string]any{"command": "seq 1 200000"})
	if len(res.Content) > bashMaxOutput+200 || !strings.HasPrefix(res.Content, "1\n2\n") || !strings.HasSuffix(res.Content, "199999\n200000") {
		t.Errorf("Bash(seq) = %d bytes, head %q tail %q", len(res.Content), res.Content[:10], res.Content[len(res.Content)-20:])
	}
	if env.Cwd() != env.Root {
		t.Errorf("cwd = %s after a cut output, want the root", env.Cwd())
	}
}

func TestGrep(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("rg not installed")
	}
	env, outside := testEnv(t, map[string]string{
		"a.py":         "def foo():\n    return 1\n",
		"b.py":         "def bar():\n    foo()\n",
		"src/c.go":     "func Foo() {}\n",
		"ignored.py":   "def foo(): pass\n",
		".gitignore":   "ignored.py\n",
		".git/config":  "foo\n",
		".hidden/h.py": "foo = 1\n",
	})
	os.WriteFile(filepath.Join(outside, "o.py"), []byte("foo\n"), 0o644)
	os.Symlink(outside, filepath.Join(env.Root, "esc"))
	base := time.Now().Add(-time.Hour)
	for i, p := range []string{"a.py", "b.py", ".hidden/h.py"} {
		mt := base.Add(time.Duration(i) * time.Minute)
		os.Chtimes(filepath.Join(env.Root, p), mt, mt)
	}
	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"files newest first", map[string]any{"pattern": "foo"}, ".hidden/h.py\nb.py\na.py"},
		{"content", map[string]any{"pattern": "foo", "output_mode": "content", "glob": "*.py", "path": "a.py"}, "a.py:1:def foo():"},
		{"content no numbers", map[string]any{"pattern": "return", "output_mode": "content", "-n": false}, "a.py:    return 1"},
		{"context", map[string]any{"pattern": "return", "output_mode": "content", "-B": 1}, "a.py-1-def foo():\na.py:2:    return 1"},
		{"count", map[string]any{"pattern": "o", "output_mode": "count", "path": "a.py"}, "a.py:1"},
		{"ignore case", map[string]any{"pattern": "FOO", "-i": true, "type": "go"}, "src/c.go"},
		{"multiline", map[string]any{"pattern": `bar\(\):\n\s+foo`, "multiline": true}, "b.py"},
		{"head limit", map[string]any{"pattern": "foo", "head_limit": 1}, ".hidden/h.py\n[1 of 3 lines shown; narrow the search or set head_limit]"},
		{"no match", map[string]any{"pattern": "zzz"}, "No matches found."},
	}
	for _, tt := range tests {
		res := call(t, Grep{}, env, tt.in)
		if res.IsError || res.Content != tt.want {
			t.Errorf("Grep(%v) = %q (error %v), want %q", tt.in, res.Content, res.IsError, tt.want)
		}
	}
	for _, in := range []map[string]any{
		{"pattern": "foo", "path": "esc"},
		{"pattern": "foo", "path": "../outside"},
		{"pattern": "(", "output_mode": "content"},
		{"pattern": "foo", "output_mode": "lines"},
	} {
		if res := call(t, Grep{}, env, in); !res.IsError {
			t.Errorf("Grep(%v) = %+v, want an error", in, res)
		}
	}
}

func TestGlob(t *testing.T) {
	env, outside := testEnv(t, map[string]string{
		"a.go": "", "b.ts": "", "src/c.ts": "", "src/deep/d.tsx": "", "src/deep/e.go": "",
		"node_modules/x.ts": "", ".gitignore": "node_modules/\n",
	})
	os.WriteFile(filepath.Join(outside, "o.go"), nil, 0o644)
	os.Symlink(outside, filepath.Join(env.Root, "esc"))
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(env.Root, "a.go"), old, old)
	for i, p := range []string{"src/deep/d.tsx", "src/c.ts", "src/deep/e.go"} {
		mt := time.Now().Add(time.Duration(i+1) * time.Minute)
		os.Chtimes(filepath.Join(env.Root, p), mt, mt)
	}
	tests := []struct {
		in   map[string]any
		want string
	}{
		{map[string]any{"pattern": "*.go"}, "src/deep/e.go\na.go"},
		{map[string]any{"pattern": "**/*.go"}, "src/deep/e.go\na.go"},
		{map[string]any{"pattern": "src/**/*.{ts,tsx}"}, "src/c.ts\nsrc/deep/d.tsx"},
		{map[string]any{"pattern": "*.ts", "path": "src"}, "src/c.ts"},
		{map[string]any{"pattern": "deep/*", "path": "src"}, "src/deep/e.go\nsrc/deep/d.tsx"},
		{map[string]any{"pattern": "*.rs"}, "No files found."},
	}
	for _, tt := range tests {
		res := call(t, Glob{}, env, tt.in)
		if res.IsError || res.Content != tt.want {
			t.Errorf("Glob(%v) = %q (error %v), want %q", tt.in, res.Content, res.IsError, tt.want)
		}
	}
	for _, in := range []map[string]any{{"pattern": "*", "path": "esc"}, {"pattern": "*", "path": ".."}, {"pattern": "[", "path": "."}} {
		if res := call(t, Glob{}, env, in); !res.IsError {
			t.Errorf("Glob(%v) = %+v, want an error", in, res)
		}
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*.go", "a.go", true},
		{"*.go", "x/y/a.go", true},
		{"**/*.go", "a.go", true},
		{"**/*.go", "x/y/a.go", true},
		{"src/**", "src/a/b", true},
		{"src/**/x.py", "src/x.py", true},
		{"src/**/x.py", "src/a/b/x.py", true},
		{"src/*.py", "src/a/x.py", false},
		{"a/**/b/**/c", "a/1/b/2/3/c", true},
		{"a/**/b", "a/c", false},
		{"?.go", "ab.go", false},
	}
	for _, tt := range tests {
		if got := matchGlob(tt.pattern, tt.name); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
	if got := strings.Join(expandBraces("a.{b,c{d,e}}"), " "); got != "a.b a.cd a.ce" {
		t.Errorf("expandBraces(a.{b,c{d,e}}) = %q, want %q", got, "a.b a.cd a.ce")
	}
}
