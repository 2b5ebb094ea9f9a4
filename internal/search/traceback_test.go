package search

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTraceback(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Frame
	}{
		{"python", `Traceback (most recent call last):
  File "/home/u/proj/app/main.py", line 10, in <module>
    run()
  File "/home/u/proj/app/core.py", line 42, in run
    x = parse(s)
ValueError: bad`, []Frame{
			{Path: "/home/u/proj/app/core.py", Line: 42, Func: "run", Depth: 0},
			{Path: "/home/u/proj/app/main.py", Line: 10, Func: "<module>", Depth: 1},
		}},
		{"pytest long", `    def test_x():
>       assert f() == 2
testing/test_x.py:5: in test_x
    assert f() == 2
src/pkg/mod.py:12: in f
    return g()
src/pkg/mod.py:20: AssertionError`, []Frame{
			{Path: "src/pkg/mod.py", Line: 20, Depth: 0},
			{Path: "src/pkg/mod.py", Line: 12, Func: "f", Depth: 1},
			{Path: "testing/test_x.py", Line: 5, Func: "test_x", Depth: 2},
		}},
		{"go panic", `panic: runtime error: index out of range

goroutine 1 [running]:
example.com/m/pkg.(*T).Get(...)
	/home/u/m/pkg/t.go:17 +0x1d
main.main()
	/home/u/m/main.go:9 +0x25
exit status 2`, []Frame{
			{Path: "/home/u/m/pkg/t.go", Line: 17, Func: "Get", Depth: 0},
			{Path: "/home/u/m/main.go", Line: 9, Func: "main", Depth: 1},
		}},
		{"go test", `--- FAIL: TestParse (0.00s)
    parse_test.go:31: Parse("x") = 1, want 2
FAIL`, []Frame{{Path: "parse_test.go", Line: 31, Depth: 0}}},
		{"js", `TypeError: x is undefined
    at parse (src/lib/parse.js:10:5)
    at Object.run (/home/u/app/src/run.js:3:1)
    at node:internal/main:1:1`, []Frame{
			{Path: "src/lib/parse.js", Line: 10, Func: "parse", Depth: 0},
			{Path: "/home/u/app/src/run.js", Line: 3, Func: "run", Depth: 1},
		}},
		{"not a traceback", "just some words\nand a line: 12", nil},
	}
	for _, tt := range tests {
		got := ParseTraceback(tt.in)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: ParseTraceback (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestResolveFrames(t *testing.T) {
	files := map[string]bool{"app/core.py": true, "decoder.py": true, "src/run.js": true}
	in := []Frame{
		{Path: "/home/u/proj/app/core.py"},
		{Path: "/usr/lib/python3/json/decoder.py"}, // outside: one matching component is not enough
		{Path: "decoder.py"},
		{Path: "/home/u/app/src/run.js"},
		{Path: "/usr/lib/python3/threading.py"},
	}
	want := []string{"app/core.py", "", "decoder.py", "src/run.js", ""}
	for i, f := range ResolveFrames(in, files) {
		if f.Rel != want[i] {
			t.Errorf("ResolveFrames(%q).Rel = %q, want %q", in[i].Path, f.Rel, want[i])
		}
	}
}

func TestGrepBytes(t *testing.T) {
	src := []byte("x = foo_bar(1)\nraise ValueError(\"negative total here\")\nfoo = 2\n")
	tests := []struct {
		name  string
		terms []string
		words bool
		want  []int // offsets
	}{
		{"whole words only", []string{"foo"}, true, []int{55}},
		{"substrings too", []string{"foo"}, false, []int{4, 55}},
		{"fixed string with spaces", []string{"negative total"}, false, []int{33}},
	}
	for _, tt := range tests {
		var got []int
		for _, m := range grepBytes("a.py", src, tt.terms, tt.words) {
			got = append(got, m.Offset)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: grepBytes(%q, words=%v) offsets = %v, want %v", tt.name, tt.terms, tt.words, got, tt.want)
		}
	}
}
