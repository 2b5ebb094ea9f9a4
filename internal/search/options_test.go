package search

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// searchRepo indexes files (path → source) in a temporary repository and
// runs q on it with explanations.
func searchRepo(t *testing.T, files map[string]string, q string) *Result {
	t.Helper()
	root := t.TempDir()
	for p, src := range files {
		writeFile(t, filepath.Join(root, p), src)
	}
	ix := openIndex(t, root)
	c := prepareFresh(t, ix, true)
	res, err := c.Search(context.Background(), ix, Query{Text: q, K: 10, Explain: true}, time.Now())
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return res
}

// TestSearchOptionNamesAnyCase: an option written in the task names the
// code's ImportMode in full, as it names import_mode: the symbol signal at
// the option's full weight (1, so the definition boost applies), not the
// half an identifier written in another case gets.
func TestSearchOptionNamesAnyCase(t *testing.T) {
	files := map[string]string{
		"src/tool/paths.py": "import enum\n\n\nclass ImportMode(enum.Enum):\n    prepend = 'prepend'\n    importlib = 'importlib'\n",
		"src/tool/other.py": "def importmode_help():\n    return 'how modules are imported'\n",
	}
	q := "Module imported twice under import-mode=importlib\nThe module is loaded again."
	res := searchRepo(t, files, q)
	var got *Hit
	for i := range res.Hits {
		if res.Hits[i].Def.QName == "ImportMode" {
			got = &res.Hits[i]
		}
	}
	if got == nil {
		t.Fatalf("ImportMode not ranked for %q (hits: %v)", q, qnames(res.Hits))
	}
	if want := (DefinitionBoost - 1) * got.Signals.Symbol; got.Signals.Symbol == 0 || got.Signals.DefBoost != want {
		t.Errorf("ImportMode symbol, boost = %.3f, %.3f, want a symbol score and a boost of (DefinitionBoost-1)×symbol = %.3f: an option names it in full whatever its case (explain: %q)", got.Signals.Symbol, got.Signals.DefBoost, want, got.Explain)
	}
	if res.Hits[0].Def.QName != "ImportMode" {
		t.Errorf("top hit = %s, want ImportMode", res.Hits[0].Def.QName)
	}
}

func qnames(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Def.QName
	}
	return out
}

func TestExtractOptionNames(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Module imported twice under import-mode=importlib", []string{"import_mode", "importmode"}},
		{"pytest --collect-only -q and --collect-only again", []string{"collect_only", "collectonly"}},
		{"importlib-metadata==1.3.0 and a well-known bug", nil},
	}
	for _, tt := range tests {
		if got := ExtractIdents(tt.in).Options; !slices.Equal(got, tt.want) {
			t.Errorf("ExtractIdents(%q).Options = %q, want %q", tt.in, got, tt.want)
		}
	}
}
