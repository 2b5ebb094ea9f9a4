package app

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
	"github.com/grit-dev/grit/internal/span"
)

// NewParser returns the tree-sitter parser every index uses.
func NewParser() *treesitter.Parser { return treesitter.New() }

// OpenIndex opens root's index (.grit/index.db) with the tree-sitter parser.
// It does not update it: call Update (or use UpdateIndex).
func OpenIndex(ctx context.Context, root string, opts index.Options) (*index.Index, error) {
	p := treesitter.New()
	p.Budget = opts.FileBudget
	return index.Open(ctx, root, p, opts)
}

// UpdateIndex opens root's index and brings it up to date.
func UpdateIndex(ctx context.Context, root string, opts index.Options) (*index.Index, index.Stats, error) {
	ix, err := OpenIndex(ctx, root, opts)
	if err != nil {
		return nil, index.Stats{}, err
	}
	st, err := ix.Update(ctx)
	if err != nil {
		ix.Close()
		return nil, st, err
	}
	return ix, st, nil
}

// BareParse reads and parses the files (paths relative to root) with
// tree-sitter alone, on workers goroutines, and returns the wall time: the
// baseline `grit bench index` compares indexing with.
func BareParse(ctx context.Context, root string, paths []string, workers int) (time.Duration, error) {
	p := treesitter.New()
	return parseAll(ctx, root, paths, workers, p.ParseOnly)
}

// ParseExtract is BareParse plus the index's extraction (definitions,
// calls, imports, references) without the database: with BareParse it
// splits a cold index's time into parsing, extracting and storing.
func ParseExtract(ctx context.Context, root string, paths []string, workers int) (time.Duration, error) {
	p := treesitter.New()
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
