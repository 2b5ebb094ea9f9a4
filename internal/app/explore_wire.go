package app

import (
	"context"

	"github.com/grit-dev/grit/internal/index"
)

// exploreAST is the tree-sitter syntax tree of one file (or of the smallest
// node covering a byte range).
func exploreAST(ctx context.Context, path string, src []byte, r *[2]int) (*index.ASTNode, error) {
	return NewParser().AST(ctx, path, src, r)
}
