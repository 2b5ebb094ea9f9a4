package treesitter

import (
	"context"
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/grit-dev/grit/internal/index"
)

// maxASTNodes bounds the tree AST returns; deeper content is cut.
const maxASTNodes = 200_000

// AST parses src and returns its syntax tree. If r is non-nil, the root is the
// smallest node covering the byte range r[0]..r[1].
func (p *Parser) AST(ctx context.Context, file string, src []byte, r *[2]int) (*index.ASTNode, error) {
	l := langFor(file)
	if l == nil {
		return nil, unsupported("ast", file)
	}
	UseDefaultAllocator()
	parser := sitter.NewParser()
	defer parser.Close()
	if err := parser.SetLanguage(l.sitterLanguage()); err != nil {
		return nil, fmt.Errorf("ast %s: %w", file, err)
	}
	tree := parser.ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i < len(src) {
			return src[i:]
		}
		return nil
	}, nil, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { return ctx.Err() != nil }})
	if tree == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("ast %s: tree-sitter returned no tree", file)
	}
	defer tree.Close()
	root := tree.RootNode()
	if r != nil {
		if r[0] < 0 || r[1] < r[0] || r[1] > len(src) {
			return nil, fmt.Errorf("ast %s: range [%d,%d) outside the file (%d bytes)", file, r[0], r[1], len(src))
		}
		root = root.DescendantForByteRange(uint(r[0]), uint(r[1]))
		// Climb to the smallest named node covering the whole range.
		for root != nil && (!root.IsNamed() || int(root.StartByte()) > r[0] || int(root.EndByte()) < r[1]) {
			p := root.Parent()
			if p == nil {
				break
			}
			root = p
		}
	}
	budget := maxASTNodes
	cur := root.Walk()
	defer cur.Close()
	return walkAST(cur, "", &budget), nil
}

func walkAST(cur *sitter.TreeCursor, field string, budget *int) *index.ASTNode {
	n := cur.Node()
	*budget--
	sp, ep := n.StartPosition(), n.EndPosition()
	out := &index.ASTNode{
		Type: n.Kind(), Field: field, Named: n.IsNamed(),
		Start: int(n.StartByte()), End: int(n.EndByte()),
		StartPos: [2]int{int(sp.Row) + 1, int(sp.Column)},
		EndPos:   [2]int{int(ep.Row) + 1, int(ep.Column)},
		Error:    n.IsError() || n.IsMissing(),
	}
	if *budget <= 0 || !cur.GotoFirstChild() {
		return out
	}
	for {
		out.Children = append(out.Children, walkAST(cur, cur.FieldName(), budget))
		if *budget <= 0 || !cur.GotoNextSibling() {
			break
		}
	}
	cur.GotoParent()
	return out
}
