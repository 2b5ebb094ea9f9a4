package app

import (
	"context"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/explore"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
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

// updateIndex is UpdateIndex with the default options, as the tools and
// `grit init` open the index.
func updateIndex(ctx context.Context, root string) (*index.Index, error) {
	ix, _, err := UpdateIndex(ctx, root, index.Options{})
	return ix, err
}

// NewExplorer builds the explorer service over the tree-sitter parser.
func NewExplorer(o explore.Options) *explore.Explorer {
	o.OpenIndex = OpenIndex
	o.Parse = EditParse
	o.AST = func(ctx context.Context, path string, src []byte, r *[2]int) (*index.ASTNode, error) {
		return NewParser().AST(ctx, path, src, r)
	}
	return explore.New(o)
}

// EditParse is the quality monitor's parser (edit.ParseFunc) over tree-sitter.
var EditParse edit.ParseFunc = treesitter.Outline
