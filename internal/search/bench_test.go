package search

import (
	"context"
	"os"
	"testing"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// benchIndex opens and updates the index of $GRIT_BENCH_REPO (a checkout
// such as sympy).
func benchIndex(b *testing.B) *index.Index {
	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		b.Skip("GRIT_BENCH_REPO is not set")
	}
	ctx := context.Background()
	ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(ctx); err != nil {
		b.Fatal(err)
	}
	return ix
}

// forget drops the corpus of root from the process's cache, as a fresh
// process starts.
func forget(root string) {
	cache.mu.Lock()
	delete(cache.corpora, root)
	cache.mu.Unlock()
}

// BenchmarkPrepare builds the search corpus of $GRIT_BENCH_REPO from
// scratch, as a fresh 'grit search' process does with no corpus on disk
// (and writes it there, as that process does).
func BenchmarkPrepare(b *testing.B) {
	ix := benchIndex(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		forget(ix.Root())
		os.Remove(corpusPath(ix.Root()))
		if _, err := Prepare(ctx, ix); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepareLoad prepares the corpus of $GRIT_BENCH_REPO as a fresh
// process does when nothing changed since the last search: from the
// corpus on disk.
func BenchmarkPrepareLoad(b *testing.B) {
	ix := benchIndex(b)
	ctx := context.Background()
	forget(ix.Root())
	if _, err := Prepare(ctx, ix); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		forget(ix.Root())
		c, err := Prepare(ctx, ix)
		if err != nil {
			b.Fatal(err)
		}
		if len(c.mapped) == 0 {
			b.Fatal("the corpus was not read from disk")
		}
	}
}

// BenchmarkDecode is the decoding part of BenchmarkPrepareLoad alone.
func BenchmarkDecode(b *testing.B) {
	ix := benchIndex(b)
	ctx := context.Background()
	forget(ix.Root())
	if _, err := Prepare(ctx, ix); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if loadCorpus(ctx, ix) == nil {
			b.Fatal("no corpus on disk")
		}
	}
}
