package app

import (
	"context"
	"os"
	"testing"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/search"
)

// BenchmarkSearchRepo measures a warm search of the repository named by
// GRIT_SEARCH_REPO with the task in GRIT_SEARCH_TASK (skipped without them).
func BenchmarkSearchRepo(b *testing.B) {
	root, task := os.Getenv("GRIT_SEARCH_REPO"), os.Getenv("GRIT_SEARCH_TASK")
	if root == "" || task == "" {
		b.Skip("set GRIT_SEARCH_REPO and GRIT_SEARCH_TASK")
	}
	ctx := context.Background()
	ix, _, err := UpdateIndex(ctx, root, index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	q := search.Query{Text: task, K: 50}
	if _, err := search.Run(ctx, ix, q); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := search.Run(ctx, ix, q); err != nil {
			b.Fatal(err)
		}
	}
}
