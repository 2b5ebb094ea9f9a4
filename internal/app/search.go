package app

import (
	"context"
	"fmt"
	"os"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/search"
)

// Search brings root's index up to date (incrementally) and asks the locate
// service. A missing or non-directory root is an error that names it.
func Search(ctx context.Context, root string, q locate.Request, opts index.Options) (*search.Result, index.Stats, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, index.Stats{}, fmt.Errorf("repository %s: %w", root, err)
	}
	if !st.IsDir() {
		return nil, index.Stats{}, fmt.Errorf("repository %s is not a directory", root)
	}
	ix, stats, err := UpdateIndex(ctx, root, opts)
	if err != nil {
		return nil, stats, fmt.Errorf("index %s: %w", root, err)
	}
	defer ix.Close()
	res, err := locate.Run(ctx, ix, q)
	if err != nil {
		return nil, stats, err
	}
	return res, stats, nil
}
