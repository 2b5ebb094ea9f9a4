package app

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/search"
)

var update = flag.Bool("update", false, "rewrite golden files")

// rankFixture is one fixture repository with its queries.
type rankFixture struct {
	name    string
	root    string
	queries []rankQuery
}

type rankQuery struct {
	text, target string // target: "path::qname" or "path"
}

// loadRankFixture writes a txtar fixture's files to a temporary directory.
// The "queries" section holds "task => target" lines; "\n" in a task is a newline.
func loadRankFixture(t *testing.T, file string) rankFixture {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fx := rankFixture{name: strings.TrimSuffix(filepath.Base(file), ".txtar"), root: t.TempDir()}
	for _, f := range ar.Files {
		if f.Name == "queries" {
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				text, target, ok := strings.Cut(line, " => ")
				if !ok {
					t.Fatalf("%s: query line without ' => target': %q", file, line)
				}
				fx.queries = append(fx.queries, rankQuery{strings.ReplaceAll(text, `\n`, "\n"), strings.TrimSpace(target)})
			}
			continue
		}
		p := filepath.Join(fx.root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

func searchFixture(t *testing.T, fx rankFixture, q locate.Request) *search.Result {
	t.Helper()
	res, _, err := Search(context.Background(), fx.root, q, index.Options{})
	if err != nil {
		t.Fatalf("Search(%q): %v", q.Task, err)
	}
	return res
}

// rankOf is the 1-based rank of target in res (definitions for
// "path::qname", files for "path"), 0 when absent.
func rankOf(res *search.Result, target string) int {
	if p, qn, ok := strings.Cut(target, "::"); ok {
		for i, h := range res.Hits {
			if h.Def.Path == p && h.Def.QName == qn {
				return i + 1
			}
		}
		return 0
	}
	for i, f := range res.Files {
		if f.Path == target {
			return i + 1
		}
	}
	return 0
}

// TestRankStats is the ranking regression suite: recall@1, recall@5 and MRR
// of every fixture in ../search/testdata/rank, against
// ../search/testdata/rank_stats.golden (go test -update rewrites it).
func TestRankStats(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "search", "testdata", "rank", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rank fixtures: %v", err)
	}
	sort.Strings(files)
	var b strings.Builder
	fmt.Fprintf(&b, "# fixture  queries  recall@1  recall@5  mrr\n")
	var misses []string
	for _, file := range files {
		fx := loadRankFixture(t, file)
		var r1, r5, rr float64
		for _, q := range fx.queries {
			res := searchFixture(t, fx, locate.Request{Task: q.text, K: 20})
			r := rankOf(res, q.target)
			if r == 1 {
				r1++
			}
			if r >= 1 && r <= 5 {
				r5++
			}
			if r > 0 {
				rr += 1 / float64(r)
			}
			fmt.Fprintf(&b, "%s: %-50.50q rank %d\n", fx.name, q.text, r)
			if r != 1 {
				misses = append(misses, fmt.Sprintf("%s: %q: %s at rank %d", fx.name, q.text, q.target, r))
			}
		}
		n := float64(len(fx.queries))
		fmt.Fprintf(&b, "%s  %d  %.3f  %.3f  %.3f\n", fx.name, len(fx.queries), r1/n, r5/n, rr/n)
	}
	golden := filepath.Join("..", "search", "testdata", "rank_stats.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run go test -update to create it): %v", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("ranking quality changed; review and run go test ./internal/app -run TestRankStats -update\n--- want\n%s--- got\n%s\nmisses:\n  %s",
			want, got, strings.Join(misses, "\n  "))
	}
}

const eps = 1e-9

func hitOf(t *testing.T, res *search.Result, path, qname string) search.Hit {
	t.Helper()
	for _, h := range res.Hits {
		if h.Def.Path == path && h.Def.QName == qname {
			return h
		}
	}
	t.Fatalf("no hit %s::%s in %d hits", path, qname, len(res.Hits))
	return search.Hit{}
}

// TestSearchScores states expected contributions as arithmetic of the weights.
func TestSearchScores(t *testing.T) {
	fx := loadRankFixture(t, filepath.Join("..", "search", "testdata", "rank", "shop.txtar"))

	t.Run("traceback frames", func(t *testing.T) {
		res := searchFixture(t, fx, locate.Request{Task: "it crashes", K: 50, Traceback: fx.queries[4].text})
		inner := hitOf(t, res, "shop/money.py", "format_total")
		outer := hitOf(t, res, "shop/cli.py", "main")
		if got, want := inner.Signals.Traceback, search.WeightTraceback*1.0; math.Abs(got-want) > eps {
			t.Errorf("innermost frame: Traceback = %v, want WeightTraceback = %v", got, want)
		}
		if got, want := outer.Signals.Traceback, search.WeightTraceback*search.TracebackDecay; math.Abs(got-want) > eps {
			t.Errorf("outer frame: Traceback = %v, want WeightTraceback×TracebackDecay = %v", got, want)
		}
		if len(res.Frames) != 2 || res.Frames[0].Rel != "shop/money.py" {
			t.Errorf("Frames = %+v, want 2 with the innermost resolved to shop/money.py", res.Frames)
		}
	})

	t.Run("error message", func(t *testing.T) {
		res := searchFixture(t, fx, locate.Request{Task: "checkout crashes:\nValueError: negative total", K: 50})
		h := hitOf(t, res, "shop/money.py", "format_total")
		if got, want := h.Signals.Traceback, search.WeightTraceback*search.ErrorMessageScore; math.Abs(got-want) > eps {
			t.Errorf("raise site: Traceback = %v, want WeightTraceback×ErrorMessageScore = %v", got, want)
		}
		if res.Hits[0].Def.QName != "format_total" {
			t.Errorf("top hit = %s, want format_total, which raises the quoted message", res.Hits[0].Def.QName)
		}
	})

	t.Run("snippet names get no definition boost", func(t *testing.T) {
		res := searchFixture(t, fx, locate.Request{Task: "the total is wrong\n```python\n>>> apply_coupon(100, 'TEN')\n```", K: 50})
		h := hitOf(t, res, "shop/pricing.py", "apply_coupon")
		if h.Signals.Symbol <= 0 || h.Signals.DefBoost != 0 {
			t.Errorf("apply_coupon named only in example code: Symbol = %v, DefBoost = %v; want > 0 and 0", h.Signals.Symbol, h.Signals.DefBoost)
		}
	})

	t.Run("definition boost", func(t *testing.T) {
		res := searchFixture(t, fx, locate.Request{Task: "apply_coupon() raises KeyError", K: 50})
		h := hitOf(t, res, "shop/pricing.py", "apply_coupon")
		if h.Signals.Symbol <= 0 {
			t.Fatalf("apply_coupon: Symbol = %v, want > 0", h.Signals.Symbol)
		}
		if got, want := h.Signals.DefBoost, (search.DefinitionBoost-1)*h.Signals.Symbol; math.Abs(got-want) > eps {
			t.Errorf("apply_coupon: DefBoost = %v, want (DefinitionBoost−1)×Symbol = %v", got, want)
		}
		if res.Hits[0].Def.QName != "apply_coupon" {
			t.Errorf("top hit = %s, want the definition apply_coupon above its callers", res.Hits[0].Def.QName)
		}
	})

	t.Run("test demotion", func(t *testing.T) {
		res := searchFixture(t, fx, locate.Request{Task: "remove_item leaves a stale subtotal", K: 50})
		h := hitOf(t, res, "tests/test_cart.py", "test_remove_item")
		s := h.Signals
		others := s.Symbol + s.Path + s.Content + s.Lexical + s.Spread + s.Recency + s.Traceback + s.File + s.Package + s.Size + s.DefBoost
		if got, want := s.TestPenalty, -(1-search.TestDemotion)*others; math.Abs(got-want) > eps {
			t.Errorf("test file: TestPenalty = %v, want −(1−TestDemotion)×(sum of the others) = %v", got, want)
		}
		if math.Abs(h.Score-search.TestDemotion*others) > eps {
			t.Errorf("test file: Score = %v, want TestDemotion×%v", h.Score, others)
		}
	})

	t.Run("file signal", func(t *testing.T) {
		res := searchFixture(t, fx, locate.Request{Task: "apply_coupon() raises KeyError", K: 50})
		top := res.Files[0]
		for _, h := range res.Hits {
			if h.Def.Path != top.Path {
				continue
			}
			if got, want := h.Signals.File, search.WeightFile; math.Abs(got-want) > eps {
				t.Errorf("%s in the best file: File = %v, want WeightFile = %v", h.Def.QName, got, want)
			}
		}
		for _, h := range res.Hits {
			if h.Def.Path == top.Path {
				continue
			}
			var fs float64
			for _, f := range res.Files {
				if f.Path == h.Def.Path {
					fs = f.Score
				}
			}
			if fs == 0 {
				continue // its file ranks below the files listed
			}
			if got, want := h.Signals.File, search.WeightFile*fs/top.Score; math.Abs(got-want) > eps {
				t.Errorf("%s: File = %v, want WeightFile×file score/best file score = %v", h.Def.QName, got, want)
			}
		}
	})

	t.Run("deterministic", func(t *testing.T) {
		q := locate.Request{Task: fx.queries[0].text, K: 30, Explain: true}
		a := searchFixture(t, fx, q)
		for i := 0; i < 3; i++ {
			b := searchFixture(t, fx, q)
			for j := range a.Hits {
				if a.Hits[j].Def.ID != b.Hits[j].Def.ID || a.Hits[j].Score != b.Hits[j].Score {
					t.Fatalf("run %d: hit %d = %s %v, want %s %v", i, j, b.Hits[j].Def.QName, b.Hits[j].Score, a.Hits[j].Def.QName, a.Hits[j].Score)
				}
			}
		}
		if len(a.Hits[0].Explain) == 0 {
			t.Errorf("Explain is empty with Query.Explain set")
		}
	})
}

// TestSearchBadInput: each bad input gets an empty result with a reason, never a crash.
func TestSearchBadInput(t *testing.T) {
	fx := loadRankFixture(t, filepath.Join("..", "search", "testdata", "rank", "shop.txtar"))
	tests := []struct {
		name string
		q    locate.Request
		note string // substring of Note when the result must be empty
	}{
		{"empty", locate.Request{Task: "   "}, "empty query"},
		{"stop words", locate.Request{Task: "the and of it is"}, "no searchable words"},
		{"binary", locate.Request{Task: "\x00\x01\x02\xff\xfe"}, "no searchable words"},
		{"huge", locate.Request{Task: strings.Repeat("checkout coupon ", 70000)}, ""},
		{"traceback without frames", locate.Request{Task: "coupon", Traceback: "no frames in here"}, ""},
	}
	for _, tt := range tests {
		res := searchFixture(t, fx, tt.q)
		if tt.note != "" {
			if len(res.Hits) != 0 || !strings.Contains(res.Note, tt.note) {
				t.Errorf("%s: %d hits, Note %q; want none and a note with %q", tt.name, len(res.Hits), res.Note, tt.note)
			}
			continue
		}
		if len(res.Hits) == 0 {
			t.Errorf("%s: no hits (note %q)", tt.name, res.Note)
		}
	}
	if _, _, err := Search(context.Background(), filepath.Join(t.TempDir(), "missing"), locate.Request{Task: "x"}, index.Options{}); err == nil {
		t.Errorf("Search(missing repo) = nil error, want one naming it")
	}
}

// TestSearchDispatch: a printer method named after a class the task names
// gets DispatchShare of the class's own symbol score, plus
// DispatchFileShare of its file's standing.
func TestSearchDispatch(t *testing.T) {
	fx := loadRankFixture(t, filepath.Join("..", "search", "testdata", "rank", "algebra.txtar"))
	res := searchFixture(t, fx, locate.Request{Task: "`Seq` renders with escaped brackets", K: 50})
	cls := hitOf(t, res, "algebra/seq.py", "Seq")
	for _, path := range []string{"algebra/printing/latex.py", "algebra/printing/str.py"} {
		cn := "LatexPrinter"
		if strings.HasSuffix(path, "str.py") {
			cn = "StrPrinter"
		}
		h := hitOf(t, res, path, cn+"._print_Seq")
		standing := h.Signals.File / search.WeightFile
		want := math.Min(search.WeightSymbol, search.DispatchShare*cls.Signals.Symbol+search.WeightSymbol*search.DispatchFileShare*standing)
		if got := h.Signals.Symbol; math.Abs(got-want) > eps {
			t.Errorf("%s._print_Seq: Symbol = %v, want DispatchShare×Symbol of Seq + WeightSymbol×DispatchFileShare×standing (%v) = %v", cn, got, standing, want)
		}
		if h.Signals.DefBoost != 0 {
			t.Errorf("%s._print_Seq: DefBoost = %v, want 0 (it does not define Seq)", cn, h.Signals.DefBoost)
		}
	}
	other := hitOf(t, res, "algebra/printing/latex.py", "LatexPrinter._print_Interval")
	if other.Signals.Symbol != 0 {
		t.Errorf("_print_Interval: Symbol = %v, want 0 (Interval is not named)", other.Signals.Symbol)
	}
}

// TestSearchOperations: a special method gets OperationShare of its file's
// standing on its symbol signal when the task performs the operation it
// implements (here instantiation, which runs __init__), and nothing when
// the task does not.
func TestSearchOperations(t *testing.T) {
	fx := loadRankFixture(t, filepath.Join("..", "search", "testdata", "rank", "algebra.txtar"))
	plain := hitOf(t, searchFixture(t, fx, locate.Request{Task: "Interval loses left_open", K: 50}), "algebra/sets.py", "Interval.__init__")
	res := searchFixture(t, fx, locate.Request{Task: "Interval loses left_open on instantiation", K: 50})
	init := hitOf(t, res, "algebra/sets.py", "Interval.__init__")
	standing := init.Signals.File / search.WeightFile
	if standing <= 0 {
		t.Fatalf("Interval.__init__: File = %v, want > 0 (sets.py holds the named class)", init.Signals.File)
	}
	want := math.Min(search.WeightSymbol, plain.Signals.Symbol+search.WeightSymbol*search.OperationShare*standing)
	if got := init.Signals.Symbol; math.Abs(got-want) > eps {
		t.Errorf("Interval.__init__: Symbol = %v, want Symbol without the operation (%v) + WeightSymbol×OperationShare×standing (%v) = %v", got, plain.Signals.Symbol, standing, want)
	}
	if other := hitOf(t, res, "algebra/sets.py", "Interval.contains"); other.Signals.Symbol != 0 {
		t.Errorf("Interval.contains: Symbol = %v, want 0 (it implements no operation the task performs)", other.Signals.Symbol)
	}
}
