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

func TestExtractIdents(t *testing.T) {
	text := "Calling `Session.resolve_redirects` drops the fragment.\n" +
		"```python\n>>> s.send(req)\n```\n" +
		"See requests/sessions.py; make_request() breaks and the cookie jar too."
	ex := ExtractIdents(text)
	weights := map[string]float64{}
	for _, id := range ex.Idents {
		weights[id.Name] = id.Weight
	}
	for name, want := range map[string]float64{
		"Session": 1, "resolve_redirects": 1, "send": 1, "make_request": 1, "fragment": ProseWeight, "cookie": ProseWeight,
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
