package treesitter

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/grit-dev/grit/internal/span"
)

// BareParse reads and parses the files (paths relative to root) with
// tree-sitter alone, on workers goroutines, and returns the wall time: the
// baseline `grit bench index` compares indexing with.
func BareParse(ctx context.Context, root string, paths []string, workers int) (time.Duration, error) {
	p := New()
	return parseAll(ctx, root, paths, workers, p.ParseOnly)
}

// ParseExtract is BareParse plus the index's extraction (definitions,
// calls, imports, references) without the database: with BareParse it
// splits a cold index's time into parsing, extracting and storing.
func ParseExtract(ctx context.Context, root string, paths []string, workers int) (time.Duration, error) {
	p := New()
	return parseAll(ctx, root, paths, workers, func(rel string, src []byte) error {
		_, err := p.Parse(ctx, rel, src)
		return err
	})
}

// parseAll reads each of paths and calls fn on it from workers goroutines.
func parseAll(ctx context.Context, root string, paths []string, workers int, fn func(rel string, src []byte) error) (time.Duration, error) {
	start := time.Now()
	ch := make(chan string)
	errc := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < max(1, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rel := range ch {
				src, err := span.ReadFile(filepath.Join(root, filepath.FromSlash(rel)), 0)
				if err == nil {
					err = fn(rel, src)
				}
				if err != nil {
					select {
					case errc <- err:
					default:
					}
				}
			}
		}()
	}
	for _, rel := range paths {
		if ctx.Err() != nil {
			break
		}
		ch <- rel
	}
	close(ch)
	wg.Wait()
	select {
	case err := <-errc:
		return 0, err
	default:
	}
	return time.Since(start), ctx.Err()
}
