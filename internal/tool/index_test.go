package tool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/search"
)

// pyParser is a small line-based Python parser for tests: def and class
// lines, each definition running until the next line indented no deeper.
// The real tree-sitter parser lives in index/treesitter, which tool may not
// import.
type pyParser struct{}

var pyDef = regexp.MustCompile(`^([ \t]*)(def|class)[ \t]+(\w+)`)

func (pyParser) Lang(p string) string {
	if strings.HasSuffix(p, ".py") {
		return "python"
	}
	return ""
}

func (pyParser) Parse(ctx context.Context, p string, src []byte) (*index.Parsed, error) {
	type open struct {
		def    index.Def
		indent int
	}
	var out index.Parsed
	out.Lang = "python"
	var stack []open
	lines := strings.SplitAfter(string(src), "\n")
	off := 0
	lastEnd := 0 // end of the last non-blank line
	closeTo := func(indent int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			o.def.End = lastEnd
			o.def.EndLine = strings.Count(string(src[:lastEnd]), "\n") + 1
			out.Defs = append(out.Defs, o.def)
		}
	}
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		if strings.TrimSpace(body) != "" {
			indent := len(body) - len(strings.TrimLeft(body, " \t"))
			closeTo(indent)
			if m := pyDef.FindStringSubmatchIndex(body); m != nil {
				name := body[m[6]:m[7]]
				kind := index.KindFunction
				if body[m[4]:m[5]] == "class" {
					kind = index.KindClass
				}
				qname, parent := name, ""
				if len(stack) > 0 {
					parent = stack[len(stack)-1].def.QName
					qname = parent + "." + name
					if kind == index.KindFunction {
						kind = index.KindMethod
					}
				}
				stack = append(stack, open{indent: indent, def: index.Def{
					Name: name, QName: qname, Kind: kind, Parent: parent,
					Start: off + indent, NameStart: off + m[6], NameEnd: off + m[7],
					StartLine: i + 1, StartCol: indent, Signature: strings.TrimSpace(body),
				}})
			}
			lastEnd = off + len(body)
		}
		off += len(l)
	}
	closeTo(0)
	return &out, nil
}

func indexedEnv(t *testing.T, files map[string]string) (*Env, *index.Index) {
	t.Helper()
	env, _ := testEnv(t, files)
	ix, err := index.Open(t.Context(), env.Root, pyParser{}, index.Options{})
	if err != nil {
		t.Skipf("index not available: %v", err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(t.Context()); err != nil {
		t.Fatalf("index update: %v", err)
	}
	env.Index = func(ctx context.Context) (*index.Index, error) { return ix, nil }
	return env, ix
}

const sessionsPy = `import os


class Session:
    def get(self, url):
        return self.request("GET", url)

    def resolve_redirects(self, resp):
        # follow the Location header
        return resp.headers["Location"]


def get(url):
    return Session().get(url)
`

func TestEditFunction(t *testing.T) {
	env, ix := indexedEnv(t, map[string]string{"sessions.py": sessionsPy, "other.py": "def helper():\n    return 1\n"})
	call(t, Read{}, env, map[string]any{"file_path": "sessions.py"})

	// Ambiguous name: the model is told the choices.
	res := call(t, EditFunction{}, env, map[string]any{"name": "get", "new_source": "def get(url):\n    return None"})
	if !res.IsError || !strings.Contains(res.Content, "sessions.py::Session.get") || !strings.Contains(res.Content, "sessions.py::get") {
		t.Fatalf("EditFunction(get) = %+v, want the candidates listed", res)
	}
	// Unknown name.
	if _, err := runErr(t, EditFunction{}.run, env, map[string]any{"name": "nope", "new_source": "x"}); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("EditFunction(nope): err = %v, want index.ErrNotFound", err)
	}
	// A method given dedented (as a model writes it) is re-indented in place.
	res = call(t, EditFunction{}, env, map[string]any{
		"name":       "Session.resolve_redirects",
		"new_source": "def resolve_redirects(self, resp):\n    loc = resp.headers.get(\"Location\")\n    return loc\n",
	})
	if res.IsError {
		t.Fatalf("EditFunction(Session.resolve_redirects) = %+v", res)
	}
	want := strings.Replace(sessionsPy, "    def resolve_redirects(self, resp):\n        # follow the Location header\n        return resp.headers[\"Location\"]",
		"    def resolve_redirects(self, resp):\n        loc = resp.headers.get(\"Location\")\n        return loc", 1)
	if got := readWS(t, env, "sessions.py"); got != want {
		t.Errorf("after EditFunction:\n%s\nwant:\n%s", got, want)
	}
	// The index followed the edit, and a sliced-form source is kept as is.
	res = call(t, EditFunction{}, env, map[string]any{
		"name":       "sessions.py::Session.get",
		"new_source": "def get(self, url):\n        return self.request(\"GET\", url, timeout=5)",
	})
	if res.IsError {
		t.Fatalf("EditFunction(Session.get) = %+v", res)
	}
	if got := readWS(t, env, "sessions.py"); !strings.Contains(got, "    def get(self, url):\n        return self.request(\"GET\", url, timeout=5)\n\n    def resolve_redirects") {
		t.Errorf("after the second EditFunction:\n%s", got)
	}
	// Changed on disk since the read: refused.
	os.WriteFile(filepath.Join(env.Root, "sessions.py"), []byte(readWS(t, env, "sessions.py")+"\n# more\n"), 0o644)
	if _, err := runErr(t, EditFunction{}.run, env, map[string]any{"name": "sessions.py::get", "new_source": "def get(url):\n    return 2"}); !errors.Is(err, ErrStale) {
		t.Errorf("EditFunction after an outside change: err = %v, want ErrStale", err)
	}
	// Read again: the index is stale now, EditFunction re-indexes and succeeds.
	call(t, Read{}, env, map[string]any{"file_path": "sessions.py"})
	if res := call(t, EditFunction{}, env, map[string]any{"name": "sessions.py::get", "new_source": "def get(url):\n    return 2"}); res.IsError {
		t.Errorf("EditFunction after re-read = %+v", res)
	}
	if got := readWS(t, env, "sessions.py"); !strings.HasSuffix(got, "def get(url):\n    return 2\n\n# more\n") {
		t.Errorf("file end = %q", got[len(got)-40:])
	}
	defs, err := ix.Lookup(t.Context(), "sessions.py::get")
	if err != nil || len(defs) != 1 || defs[0].EndLine != defs[0].StartLine+1 {
		t.Errorf("index after the edits: %+v, %v", defs, err)
	}
	// Not read yet: refused.
	if _, err := runErr(t, EditFunction{}.run, env, map[string]any{"name": "helper", "new_source": "def helper():\n    return 2"}); !errors.Is(err, ErrNotRead) {
		t.Errorf("EditFunction before Read: err = %v, want ErrNotRead", err)
	}
}

func TestLocate(t *testing.T) {
	env, _ := indexedEnv(t, map[string]string{"sessions.py": sessionsPy, "other.py": "def helper():\n    return 1\n"})
	res := call(t, Locate{}, env, map[string]any{"task": "redirects follow the Location header in resolve_redirects", "k": 3})
	if res.IsError || !strings.HasPrefix(res.Content, "1. sessions.py:8-10 Session.resolve_redirects method ") {
		t.Errorf("Locate = %q (error %v), want Session.resolve_redirects first", res.Content, res.IsError)
	}
	if res := call(t, Locate{}, &Env{Root: env.Root}, map[string]any{"task": "x"}); !res.IsError || !strings.Contains(res.Content, "index") {
		t.Errorf("Locate without an index = %+v, want advice", res)
	}
}

// TestLocateBudget: a budget lists the best candidates that fit and says
// how many it left out; without one, every candidate asked for is listed.
func TestLocateBudget(t *testing.T) {
	env, _ := indexedEnv(t, map[string]string{"sessions.py": sessionsPy, "other.py": "def helper():\n    return 1\n"})
	task := "redirects follow the Location header in resolve_redirects"
	all := call(t, Locate{}, env, map[string]any{"task": task, "k": 5})
	if all.IsError || strings.Contains(all.Content, "cut to fit") || !strings.Contains(all.Content, "\n2. ") {
		t.Fatalf("Locate without a budget = %q, want two candidates or more, none cut", all.Content)
	}
	first, _, _ := strings.Cut(all.Content, "\n")
	budget := locate.Tokens(first + "\n")
	res := call(t, Locate{}, env, map[string]any{"task": task, "k": 5, "budget": budget})
	lines := strings.Split(res.Content, "\n")
	if res.IsError || lines[0] != first || !strings.HasPrefix(lines[1], "(") || !strings.Contains(lines[1], fmt.Sprintf("more cut to fit the budget of %d tokens", budget)) {
		t.Errorf("Locate with a budget of one line (%d tokens) = %q, want the first candidate and a line saying the rest were cut", budget, res.Content)
	}
	schema := string(Locate{}.Schema())
	if !strings.Contains(schema, `"budget"`) || !strings.Contains(schema, "Token budget") {
		t.Errorf("Locate schema lacks the budget property: %s", schema)
	}
}

func TestRenderLocate(t *testing.T) {
	res := &search.Result{
		Hits: []search.Hit{
			{Def: index.Def{Path: "a.py", QName: "A.f", Kind: "method", StartLine: 3, EndLine: 9}, Score: 1.234,
				Signals: search.Signals{Symbol: 0.5, Traceback: 0.6, Content: 0.1, Lexical: 0.05, TestPenalty: -0.2}},
			{Def: index.Def{Path: "b.py", QName: "g", Kind: "function", StartLine: 1, EndLine: 2}, Score: 0.5,
				Signals: search.Signals{Path: 0.5}},
			{Def: index.Def{Path: "c.py", QName: "h", Kind: "function", StartLine: 1, EndLine: 2}, Score: 0.1},
		},
		Files: []search.FileHit{{Path: "a.py", Score: 1.5}, {Path: "b.py", Score: 0.5}},
		Note:  "query cut to 32 terms",
	}
	want := "1. a.py:3-9 A.f method 1.23 (traceback 0.60, symbol 0.50, test_penalty -0.20)\n" +
		"2. b.py:1-2 g function 0.50 (path 0.50)\n" +
		"Files: a.py 1.50, b.py 0.50\n" +
		"Note: query cut to 32 terms"
	if got := renderLocate(res, 2); got != want {
		t.Errorf("renderLocate =\n%s\nwant\n%s", got, want)
	}
	if got := renderLocate(&search.Result{Note: "only stop words"}, 10); got != "No definitions found. only stop words" {
		t.Errorf("renderLocate(empty) = %q", got)
	}
}

func TestFitSource(t *testing.T) {
	src := []byte("class A:\r\n    def f(self):\r\n        return 1\r\n")
	r := struct{ s, e int }{strings.Index(string(src), "def"), strings.Index(string(src), "return 1") + len("return 1")}
	tests := []struct{ in, want string }{
		{"def f(self):\n    return 2", "def f(self):\r\n        return 2"},
		{"    def f(self):\n        return 2\n", "def f(self):\r\n        return 2"},
		{"def f(self):\n        return 2", "def f(self):\r\n        return 2"},
		{"def f(self): return 2", "def f(self): return 2"},
	}
	for _, tt := range tests {
		got := string(fitSource(src, spanRange(r.s, r.e), tt.in))
		if got != tt.want {
			t.Errorf("fitSource(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
