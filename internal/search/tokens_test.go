package search

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitIdent(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"resolve_redirects", []string{"resolve", "redirects"}},
		{"HTTPAdapter", []string{"HTTP", "Adapter"}},
		{"getURLFor", []string{"get", "URL", "For"}},
		{"Session.resolve_redirects", []string{"Session", "resolve", "redirects"}},
		{"__init__", []string{"init"}},
		{"utf8Decode", []string{"utf", "8", "Decode"}},
	}
	for _, tt := range tests {
		if got := SplitIdent(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitIdent(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"snake whole and parts", "resolve_redirects", []string{"resolve_redirects", "resolve", "redirects"}},
		{"camel", "HTTPAdapter", []string{"httpadapter", "http", "adapter"}},
		{"stop words and short tokens dropped", "the x of a Matrix", []string{"matrix"}},
		{"numbers dropped", "version 3 and 42", []string{"version"}},
		{"dotted", "Session.get()", []string{"session"}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Tokenize(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// identWeights is each extracted identifier's weight by name.
func identWeights(ex Extracted) map[string]float64 {
	w := map[string]float64{}
	for _, id := range ex.Idents {
		w[id.Name] = id.Weight
	}
	return w
}

func TestExtractIdents(t *testing.T) {
	text := "Calling `Session.resolve_redirects` drops the fragment.\n" +
		"```python\n>>> from requests import Session\n>>> s.send(req)\n```\n" +
		"See requests/sessions.py; make_request() breaks and the cookie jar too.\n" +
		"ValueError: Invalid header_name 'X-Foo' for prepare"
	ex := ExtractIdents(text)
	weights := identWeights(ex)
	for name, want := range map[string]float64{
		"Session": 1, "resolve_redirects": 1, "send": SnippetWeight, "make_request": 1, "fragment": ProseWeight, "cookie": ProseWeight,
		"requests":    ProseWeight,                   // only in an import line and a path
		"header_name": 1, "Invalid": 1, "prepare": 1, // from the error message
	} {
		if weights[name] != want {
			t.Errorf("ExtractIdents: weight of %q = %v, want %v", name, weights[name], want)
		}
	}
	for _, stop := range []string{"the", "and", "too"} {
		if _, ok := weights[stop]; ok {
			t.Errorf("ExtractIdents kept stop word %q", stop)
		}
	}
	if diff := cmp.Diff([]string{"Invalid header_name 'X-Foo' for prepare"}, ex.Errors); diff != "" {
		t.Errorf("ExtractIdents error messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Session.resolve_redirects", "s.send", "sessions.py"}, ex.Dotted); diff != "" {
		t.Errorf("ExtractIdents dotted names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"requests/sessions.py"}, ex.Paths); diff != "" {
		t.Errorf("ExtractIdents paths (-want +got):\n%s", diff)
	}
}

func TestIsTestPath(t *testing.T) {
	tests := map[string]bool{
		"sympy/core/tests/test_basic.py": true,
		"testing/test_main.py":           true,
		"pkg/foo_test.go":                true,
		"conftest.py":                    true,
		"src/app.spec.ts":                true,
		"src/_pytest/main.py":            false,
		"sympy/testing/runtests.py":      true,
		"requests/models.py":             false,
		"src/contest.py":                 false,
	}
	for p, want := range tests {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestBM25(t *testing.T) {
	m := NewBM25()
	m.Add([]string{"apple", "banana"})
	m.Add([]string{"apple", "apple", "cherry", "date"})
	m.Add([]string{"elder"})
	s := m.Score([]string{"cherry", "cherry"}) // a repeated query term counts once
	if !(s[1] > 0 && s[0] == 0 && s[2] == 0) {
		t.Errorf("Score(cherry) = %v, want only document 1 > 0", s)
	}
	if m.IDF("apple") >= m.IDF("cherry") {
		t.Errorf("IDF(apple) = %v, want < IDF(cherry) = %v", m.IDF("apple"), m.IDF("cherry"))
	}
}

func TestErrorFragments(t *testing.T) {
	tests := []struct {
		name string
		msgs []string
		want []string
	}{
		{"quoted values split out", []string{"Invalid comparison of non-real 'I' with 3"}, []string{"Invalid comparison of non-real"}},
		{"short fragments dropped", []string{"can't do it: x"}, nil},
		{"longest first", []string{"unsupported operand type(s) for +: 'int' and 'NoneType'"}, []string{"unsupported operand type"}},
	}
	for _, tt := range tests {
		if got := errorFragments(tt.msgs); !slices.Equal(got, tt.want) {
			t.Errorf("%s: errorFragments(%q) = %q, want %q", tt.name, tt.msgs, got, tt.want)
		}
	}
}

func TestIsAuxPath(t *testing.T) {
	tests := map[string]bool{
		"docs/conf.py":                   true,
		"doc/src/conf.py":                true,
		"setup.py":                       true,
		"examples/advanced/fem.py":       true,
		"scripts/release.py":             true,
		"sympy/printing/latex.py":        false,
		"src/_pytest/config/__init__.py": false,
		"requests/models.py":             false,
	}
	for p, want := range tests {
		if got := IsAuxPath(p); got != want {
			t.Errorf("IsAuxPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestExtractCallsAndChains(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		wantChained []string
		wantCalls   []Ident
	}{
		{
			name:        "method on a fresh instance",
			in:          "distance wrong\n```\n>>> Point(2,0).distance(Point(1,0,2))\n```",
			wantChained: []string{"Point.distance"},
			wantCalls:   []Ident{{"Point", SnippetWeight}, {"distance", SnippetWeight}},
		},
		{
			name:        "nested arguments",
			in:          "`Permutation([[0,1],[0,1]]).order()` fails",
			wantChained: []string{"Permutation.order"},
			wantCalls:   []Ident{{"Permutation", 1}, {"order", 1}},
		},
		{
			name:        "prose call beats snippet call",
			in:          "ccode(sinc(x)) fails\n```\nccode(x)\n```",
			wantChained: nil,
			wantCalls:   []Ident{{"ccode", 1}, {"sinc", 1}},
		},
		{
			name:        "lower-case receiver is not a class",
			in:          "`sympy.zeros(4, 2).is_upper()`",
			wantChained: nil,
			wantCalls:   []Ident{{"zeros", 1}, {"is_upper", 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := ExtractIdents(tt.in)
			if diff := cmp.Diff(tt.wantChained, ex.Chained); diff != "" {
				t.Errorf("ExtractIdents(%q).Chained: (-want +got)\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.wantCalls, ex.Calls); diff != "" {
				t.Errorf("ExtractIdents(%q).Calls: (-want +got)\n%s", tt.in, diff)
			}
		})
	}
}

func TestExtractOptions(t *testing.T) {
	has := func(ex Extracted, name string) bool {
		for _, id := range ex.Idents {
			if id.Name == name && id.Weight == 1 {
				return true
			}
		}
		return false
	}
	tests := []struct {
		name, in string
		want     []string // identifiers written in full
		not      []string
	}{
		{"option with dashes", "Running with --collect-only lists nothing", []string{"collect_only", "collectonly"}, nil},
		{"option with a value", "Module imported twice under import-mode=importlib", []string{"import_mode", "importmode"}, nil},
		{"a pinned version is not an option", "importlib-metadata==1.3.0\nmore-itertools==8.0.2", nil, []string{"importlib_metadata", "more_itertools"}},
		{"a hyphenated word is not an option", "a well-known built-in behaviour", nil, []string{"well_known", "built_in", "builtin"}},
	}
	for _, tt := range tests {
		ex := ExtractIdents(tt.in)
		for _, w := range tt.want {
			if !has(ex, w) {
				t.Errorf("%s: %q not extracted from %q (got %v)", tt.name, w, tt.in, ex.Idents)
			}
		}
		for _, w := range tt.not {
			if has(ex, w) {
				t.Errorf("%s: %q extracted from %q", tt.name, w, tt.in)
			}
		}
	}
}

func TestSplitComment(t *testing.T) {
	tests := []struct {
		in, code, comment string
	}{
		{"x = f(y)  # so far so good", "x = f(y)  ", " so far so good"},
		{"# the answer is 0", "", " the answer is 0"},
		{`s = "a # b"  # quoted`, `s = "a # b"  `, " quoted"},
		{`s = 'it\'s # here'`, `s = 'it\'s # here'`, ""},
		{"color = x#fff", "color = x#fff", ""},
		{">>> e[0, 0]", ">>> e[0, 0]", ""},
	}
	for _, tt := range tests {
		if code, comment := splitComment(tt.in); code != tt.code || comment != tt.comment {
			t.Errorf("splitComment(%q) = %q, %q, want %q, %q", tt.in, code, comment, tt.code, tt.comment)
		}
	}
}

// A comment in example code is the reporter's prose: its plain words count
// ProseWeight (so they pick no content search) and its code-shaped words
// SnippetWeight, while the code around it keeps SnippetWeight.
func TestExtractIdentsSnippetComments(t *testing.T) {
	text := "Summing fails.\n```python\n" +
		"e = refine(M)  # so far so good, the answer is n\n" +
		"# total_sum is expected to be 'n'\n" +
		"print(Sum(e[i, j]).doit())\n```\n"
	ex := ExtractIdents(text)
	weights := identWeights(ex)
	for name, want := range map[string]float64{
		"refine": SnippetWeight, "Sum": SnippetWeight, "doit": SnippetWeight,
		"far": ProseWeight, "good": ProseWeight, "answer": ProseWeight,
		"total_sum": SnippetWeight, // code-shaped, written in a snippet's comment
	} {
		if weights[name] != want {
			t.Errorf("ExtractIdents: weight of %q = %v, want %v", name, weights[name], want)
		}
	}
	if slices.Contains(ex.CodeToks, "answer") {
		t.Errorf("ExtractIdents: CodeToks = %q, want no word of a comment but its code-shaped names", ex.CodeToks)
	}
	if !slices.Contains(ex.CodeToks, "total_sum") {
		t.Errorf("ExtractIdents: CodeToks = %q, want total_sum (code-shaped, in a comment)", ex.CodeToks)
	}
}
