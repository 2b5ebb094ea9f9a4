package bench

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// sharedBench locates ../shared/bench relative to the repository root, or
// $GRIT_BENCH_DIR; it skips the test when neither exists.
func sharedBench(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GRIT_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "bench")
	}
	if _, err := os.Stat(filepath.Join(dir, "dev.jsonl")); err != nil {
		t.Skipf("bench data not found at %s (set GRIT_BENCH_DIR): %v", dir, err)
	}
	return dir
}

func TestHitAt(t *testing.T) {
	tests := []struct {
		name       string
		pred, gold []string
		k          int
		want       bool
	}{
		{"first", []string{"a", "b"}, []string{"a"}, 1, true},
		{"second at 1", []string{"b", "a"}, []string{"a"}, 1, false},
		{"second at 3", []string{"b", "a"}, []string{"a"}, 3, true},
		{"all gold needed", []string{"a", "x", "y"}, []string{"a", "b"}, 3, false},
		{"more gold than k", []string{"a", "b"}, []string{"a", "b", "c"}, 2, true},
		{"colon forms", []string{"p.py:C.m"}, []string{"p.py::C.m"}, 1, true},
		{"no prediction", nil, []string{"a"}, 5, false},
		{"repeats count", []string{"a", "a"}, []string{"a", "b"}, 2, true},
	}
	for _, tt := range tests {
		if got := HitAt(tt.pred, tt.gold, tt.k); got != tt.want {
			t.Errorf("%s: HitAt(%q, %q, %d) = %v, want %v", tt.name, tt.pred, tt.gold, tt.k, got, tt.want)
		}
	}
}

// TestLocAgentReference checks the evaluator against the numbers in
// bench/README.md, computed from LocAgent's published output.
func TestLocAgentReference(t *testing.T) {
	dir := sharedBench(t)
	recs, err := LoadRecords(filepath.Join(dir, "dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "reference_runs", "locagent_claude35_loc_outputs.jsonl"))
	if err != nil {
		t.Skipf("reference run missing: %v", err)
	}
	defer f.Close()
	preds := map[string]Prediction{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var p Prediction
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		preds[p.InstanceID] = p
	}
	lite := Filter(recs, Record.Lite274)
	if len(lite) != 91 {
		t.Fatalf("Lite-274 records = %d, want 91", len(lite))
	}
	got := Evaluate(lite, preds)
	want := map[string]float64{
		"file@1": 73.63, "file@3": 87.91, "file@5": 91.21,
		"module@5": 80.22, "module@10": 80.22, "function@5": 68.13, "function@10": 71.43,
	}
	have := map[string]float64{
		"file@1": got.File.At[1], "file@3": got.File.At[3], "file@5": got.File.At[5],
		"module@5": got.Module.At[5], "module@10": got.Module.At[10],
		"function@5": got.Function.At[5], "function@10": got.Function.At[10],
	}
	for k, w := range want {
		if math.Abs(have[k]-w) > 0.005 {
			t.Errorf("LocAgent %s = %.2f, want %.2f", k, have[k], w)
		}
	}
	perRepo := map[string][3]float64{
		"sympy/sympy":       {69.70, 84.85, 89.39},
		"pytest-dev/pytest": {81.25, 93.75, 93.75},
		"psf/requests":      {83.33, 100, 100},
		"pallets/flask":     {100, 100, 100},
	}
	for repo, w := range perRepo {
		tb := Evaluate(Filter(lite, func(r Record) bool { return r.Repo == repo }), preds)
		for i, k := range FileK {
			if math.Abs(tb.File.At[k]-w[i]) > 0.005 {
				t.Errorf("LocAgent %s file@%d = %.2f, want %.2f", repo, k, tb.File.At[k], w[i])
			}
		}
	}
}

// TestMacro: each repository weighs the same, whatever its size, and a
// level a repository does not score is left out of that level's mean.
func TestMacro(t *testing.T) {
	small := Table{Instances: 1, File: Acc{N: 1, At: map[int]float64{1: 100}, MRR: 1}, Function: Acc{N: 1, At: map[int]float64{10: 100}, MRR: 1}}
	big := Table{Instances: 3, File: Acc{N: 3, At: map[int]float64{1: 0}, MRR: 0.5}}
	m := Macro([]Table{small, big})
	if m.Instances != 4 || m.File.N != 2 || m.File.At[1] != 50 || m.File.MRR != 0.75 {
		t.Errorf("Macro file = %d instances, %+v; want 4 instances, 2 repos, @1 50, MRR 0.75", m.Instances, m.File)
	}
	if m.Function.N != 1 || m.Function.At[10] != 100 {
		t.Errorf("Macro function = %+v; want the one repository that scores it (@10 100)", m.Function)
	}
}
