package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

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

// benchPrepared is benchIndex with its corpus prepared (and persisted),
// allocations reported.
func benchPrepared(b *testing.B) (*index.Index, *Corpus) {
	ix := benchIndex(b)
	forget(ix.Root())
	c, err := Prepare(context.Background(), ix)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	return ix, c
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
	ix, _ := benchPrepared(b)
	ctx := context.Background()
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
	ix, _ := benchPrepared(b)
	ctx := context.Background()
	for b.Loop() {
		if loadCorpus(ctx, ix) == nil {
			b.Fatal("no corpus on disk")
		}
	}
}

// benchQueries are issue texts of the shape the locate benchmark searches
// with: a title, prose, a snippet, an error message.
var benchQueries = []string{
	"Sum of the elements of an identity matrix is zero\nI created a matrix by M.T * M under an assumption that M is orthogonal.\n```\nn = Symbol('n', integer=True, positive=True)\nM = MatrixSymbol('M', n, n)\ne = refine((M.T * M).doit())\nprint(Sum(Sum(e[i, j], (i, 0, n-1)), (j, 0, n-1)).doit())\n```\n",
	"vectors break pretty printing\n```py\nIn [1]: from sympy.vector import *\nIn [2]: e = CoordSysCartesian('e')\nIn [3]: (x/y)**t*e.j\n```\nAlso, when it does print correctly, the baseline is wrong (it should be centered).\n",
	"Behavior of Matrix hstack and vstack changed in sympy 1.1\n```\nimport sympy as sy\nM1 = sy.Matrix.zeros(0, 0)\nsy.Matrix.hstack(M1, M2, M3, M4).shape\n```\nreturns `(0, 3)`\nTypeError: cannot determine truth value of Relational\n",
}

// searchAll runs benchQueries on c.
func searchAll(b *testing.B, c *Corpus, ix *index.Index) {
	for _, q := range benchQueries {
		if _, err := c.Search(context.Background(), ix, Query{Text: q, K: 50}, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch ranks $GRIT_BENCH_REPO for a few issue texts on a
// prepared corpus: the warm-index query latency the locate benchmark
// reports.
func BenchmarkSearch(b *testing.B) {
	ix, c := benchPrepared(b)
	for b.Loop() {
		searchAll(b, c, ix)
	}
}

// BenchmarkSearchLoaded is BenchmarkSearch on a corpus just loaded from
// disk, as a fresh process's first query runs: the pages of the corpus
// file it reads are touched for the first time.
func BenchmarkSearchLoaded(b *testing.B) {
	ix, _ := benchPrepared(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		forget(ix.Root())
		c, err := Prepare(ctx, ix)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		searchAll(b, c, ix)
	}
}

// BenchmarkPreparePatch prepares the corpus of $GRIT_BENCH_REPO as a fresh
// process does after one file changed: the corpus on disk is patched with
// that file and written back. The file (sympy/matrices/common.py when it
// exists, else the first indexed file) gets a comment appended, and is
// restored at the end.
func BenchmarkPreparePatch(b *testing.B) {
	ix, _ := benchPrepared(b)
	ctx := context.Background()
	files, err := ix.Files(ctx)
	if err != nil || len(files) == 0 {
		b.Fatal("no indexed files", err)
	}
	rel := files[0].Path
	for _, f := range files {
		if f.Path == "sympy/matrices/common.py" {
			rel = f.Path
		}
	}
	path := filepath.Join(ix.Root(), filepath.FromSlash(rel))
	orig, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		os.WriteFile(path, orig, 0o644)
		ix.Update(ctx)
	})
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		if err := os.WriteFile(path, fmt.Appendf(slices.Clone(orig), "# edit %d\n", n), 0o644); err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Update(ctx); err != nil {
			b.Fatal(err)
		}
		forget(ix.Root())
		b.StartTimer()
		if _, err := Prepare(ctx, ix); err != nil {
			b.Fatal(err)
		}
	}
}
