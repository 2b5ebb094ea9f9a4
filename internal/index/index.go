package index

import (
	"context"
	"errors"
)

// Sentinel errors callers branch on.
var (
	ErrNotIndexed = errors.New("file is not in the index")
	ErrStale      = errors.New("file changed since it was indexed")
	ErrNotFound   = errors.New("no such definition")
)

// Index is an open repository index. Open it through app.OpenIndex, which
// supplies the tree-sitter Parser.
type Index struct {
	root string
}

// Open opens (creating if needed) root/.grit/index.db. It does not index;
// call Update. A corrupt or foreign database is moved aside and rebuilt with a
// warning through opts.Warn.
func Open(ctx context.Context, root string, p Parser, opts Options) (*Index, error) {
	return nil, errors.New("index: not implemented yet")
}

// Root is the absolute repository root.
func (ix *Index) Root() string { return ix.root }

// Close closes the database.
func (ix *Index) Close() error { return nil }

// Update brings the index up to date with the working tree, incrementally.
func (ix *Index) Update(ctx context.Context) (Stats, error) { return Stats{}, errors.ErrUnsupported }

// UpdateFiles re-indexes the named files (relative paths) right away, e.g. after an edit.
func (ix *Index) UpdateFiles(ctx context.Context, paths ...string) error {
	return errors.ErrUnsupported
}

// Files lists every indexed file, sorted by path.
func (ix *Index) Files(ctx context.Context) ([]File, error) { return nil, errors.ErrUnsupported }

// File returns one indexed file, or ErrNotIndexed.
func (ix *Index) File(ctx context.Context, path string) (File, error) {
	return File{}, errors.ErrUnsupported
}

// Symbols returns the definitions of one file in source order.
func (ix *Index) Symbols(ctx context.Context, path string) ([]Def, error) {
	return nil, errors.ErrUnsupported
}

// AllDefs returns every definition in the repository (the search scores them all).
func (ix *Index) AllDefs(ctx context.Context) ([]Def, error) { return nil, errors.ErrUnsupported }

// Lookup finds definitions by name: a bare name ("get"), a qualified name
// ("Session.get"), or "path::qname". Sorted by path then start.
func (ix *Index) Lookup(ctx context.Context, name string) ([]Def, error) {
	return nil, errors.ErrUnsupported
}

// DefByID returns one definition, or ErrNotFound.
func (ix *Index) DefByID(ctx context.Context, id int64) (Def, error) {
	return Def{}, errors.ErrUnsupported
}

// DefAt returns the innermost definition of path containing byte offset off.
func (ix *Index) DefAt(ctx context.Context, path string, off int) (Def, bool, error) {
	return Def{}, false, errors.ErrUnsupported
}

// Calls returns the call sites in one file.
func (ix *Index) Calls(ctx context.Context, path string) ([]Call, error) {
	return nil, errors.ErrUnsupported
}

// Callers returns the call sites that resolve to definition id, each with its
// enclosing definition.
func (ix *Index) Callers(ctx context.Context, id int64) ([]Call, error) {
	return nil, errors.ErrUnsupported
}

// Callees returns the definitions that definition id calls, resolved where possible.
func (ix *Index) Callees(ctx context.Context, id int64) ([]DefEdge, error) {
	return nil, errors.ErrUnsupported
}

// Imports returns one file's imports.
func (ix *Index) Imports(ctx context.Context, path string) ([]Import, error) {
	return nil, errors.ErrUnsupported
}

// EdgesFrom returns the files path refers to, heaviest first.
func (ix *Index) EdgesFrom(ctx context.Context, path string) ([]FileEdge, error) {
	return nil, errors.ErrUnsupported
}

// EdgesTo returns the files that refer to path, heaviest first.
func (ix *Index) EdgesTo(ctx context.Context, path string) ([]FileEdge, error) {
	return nil, errors.ErrUnsupported
}

// AllEdges returns the whole file graph (for spread and PageRank).
func (ix *Index) AllEdges(ctx context.Context) ([]FileEdge, error) {
	return nil, errors.ErrUnsupported
}

// Source returns d's exact bytes, read from disk. If the file changed since it
// was indexed (size, mtime or hash), it returns an error wrapping ErrStale.
func (ix *Index) Source(ctx context.Context, d Def) ([]byte, error) {
	return nil, errors.ErrUnsupported
}

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
