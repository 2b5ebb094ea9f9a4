package app

import (
	"context"
	"os"
	"testing"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/search"
)

// BenchmarkSearchRepo measures warm search latency on a real repository:
// GRIT_BENCH_REPO names its root (indexed first), GRIT_BENCH_QUERY the task
// (a default otherwise). Skipped when GRIT_BENCH_REPO is unset.
func BenchmarkSearchRepo(b *testing.B) {
	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		b.Skip("GRIT_BENCH_REPO not set")
	}
	text := os.Getenv("GRIT_BENCH_QUERY")
	if text == "" {
		text = "latex() prints Mul with the wrong brackets: `_print_Mul` ignores the order of the factors"
	}
	ctx := context.Background()
	ix, _, err := UpdateIndex(ctx, root, index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := search.Prepare(ctx, ix); err != nil {
		b.Fatal(err)
	}
	q := search.Query{Text: text, K: 50}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := search.Run(ctx, ix, q); err != nil {
			b.Fatal(err)
		}
	}
}
