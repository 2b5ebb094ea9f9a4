package index

import "context"

// ASTNode is one node of a syntax tree, for `grit ast` and the explorer.
type ASTNode struct {
	Type     string     `json:"type"`
	Field    string     `json:"field,omitempty"` // the field name in its parent
	Named    bool       `json:"named"`
	Start    int        `json:"start"`
	End      int        `json:"end"`
	StartPos [2]int     `json:"start_pos"` // 1-based line, 0-based byte column
	EndPos   [2]int     `json:"end_pos"`
	Error    bool       `json:"error,omitempty"` // ERROR or MISSING
	Children []*ASTNode `json:"children,omitempty"`
}

// ASTParser is implemented by Parsers that can return the full syntax tree.
type ASTParser interface {
	AST(ctx context.Context, path string, src []byte, r *[2]int) (*ASTNode, error) // r limits to a byte range if non-nil
}
