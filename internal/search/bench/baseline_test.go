package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pyOnly names .py files only, the README's BM25 documents.
func pyOnly(p string) string {
	if strings.HasSuffix(p, ".py") {
		return "python"
	}
	return ""
}

// TestBM25BaselineReference runs the plain BM25 file ranker over the
// Lite-274 records and compares it with bench/README.md's BM25 row. It needs
// the mirrors: set GRIT_BENCH_MIRRORS to the directory holding them (slow,
// a few minutes; skipped otherwise).
func TestBM25BaselineReference(t *testing.T) {
	dir := sharedBench(t)
	mirrors := os.Getenv("GRIT_BENCH_MIRRORS")
	if mirrors == "" {
		t.Skip("set GRIT_BENCH_MIRRORS to the mirrors' directory to run")
	}
	recs, err := LoadRecords(filepath.Join(dir, "dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lite := Filter(recs, Record.Lite274)
	work := t.TempDir()
	b := newBM25Baseline()
	preds := map[string]Prediction{}
	ctx := context.Background()
	for _, r := range lite {
		m, err := FindMirror(mirrors, r.Repo)
		if err != nil {
			t.Fatal(err)
		}
		tree := NewTree(m, filepath.Join(work, filepath.Base(filepath.Dir(m))))
		if err := tree.Sync(ctx, r.BaseCommit); err != nil {
			t.Fatal(err)
		}
		files, err := b.rank(tree.Dir, r.ProblemStatement, pyOnly)
		if err != nil {
			t.Fatal(err)
		}
		preds[r.InstanceID] = Prediction{Files: files}
	}
	got := Evaluate(lite, preds)
	t.Logf("BM25 file@1/3/5 = %.2f / %.2f / %.2f (README: 36.26 / 58.24 / 60.44)", got.File.At[1], got.File.At[3], got.File.At[5])
}
