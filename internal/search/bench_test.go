package search

import (
	"context"
	"os"
	"testing"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// BenchmarkPrepare builds the search corpus of $GRIT_BENCH_REPO (a checkout
// such as sympy, indexed first) from scratch, as a fresh 'grit search'
// process does.
func BenchmarkPrepare(b *testing.B) {
	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		b.Skip("GRIT_BENCH_REPO is not set")
	}
	ctx := context.Background()
	ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		cache.mu.Lock()
		delete(cache.corpora, root)
		delete(cache.docs, root)
		cache.mu.Unlock()
		if _, err := Prepare(ctx, ix); err != nil {
			b.Fatal(err)
		}
	}
}
