package app

import (
	"context"
	"errors"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
)

// TEMPORARY while index/treesitter land: replaced by OpenIndex and AST.
var exploreOpenIndex = func(ctx context.Context, root string, opts index.Options) (*index.Index, error) {
	return nil, errors.New("index not wired yet")
}

var exploreAST = func(ctx context.Context, path string, src []byte, r *[2]int) (*index.ASTNode, error) {
	return nil, errors.New("ast not wired yet")
}

var exploreParse edit.ParseFunc
