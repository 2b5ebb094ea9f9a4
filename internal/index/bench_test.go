package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// benchRepo is the repository the index benchmarks run on: $GRIT_BENCH_REPO
// (a checkout such as sympy); they skip without it.
func benchRepo(b *testing.B) string {
	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		b.Skip("GRIT_BENCH_REPO is not set")
	}
	return root
}

// BenchmarkColdIndex indexes $GRIT_BENCH_REPO from scratch.
func BenchmarkColdIndex(b *testing.B) {
	root := benchRepo(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(filepath.Join(root, ".grit"))
		b.StartTimer()
		ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Update(ctx); err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkWarmIndex re-indexes $GRIT_BENCH_REPO with nothing changed.
func BenchmarkWarmIndex(b *testing.B) {
	root := benchRepo(b)
	ctx := context.Background()
	ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ix.Update(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
