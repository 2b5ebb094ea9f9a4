package app

import (
	"context"
	"io"

	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/fix/demo"
	"github.com/grit-dev/grit/internal/index"
)

// FixOptions are the flags of `grit fix`.
type FixOptions = fix.WorkspaceOptions

// Fix runs the fix pipeline on the repository at root over the
// tree-sitter index and parser.
func Fix(ctx context.Context, root, task string, o FixOptions) (*fix.Report, error) {
	o.OpenIndex = func(ctx context.Context, root string) (*index.Index, error) {
		return OpenIndex(ctx, root, index.Options{})
	}
	o.Parse = EditParse
	return fix.RunWorkspace(ctx, root, task, o)
}

// UndoFix is `grit fix --undo` (fix.Undo) over the tree-sitter index.
func UndoFix(ctx context.Context, root string, force bool) (*fix.UndoResult, error) {
	return fix.Undo(ctx, root, force, func(ctx context.Context, root string) (*index.Index, error) {
		return OpenIndex(ctx, root, index.Options{})
	})
}

// Demo is `grit demo` (demo.Run) over the tree-sitter index and parser.
func Demo(ctx context.Context, dir string, progress io.Writer) (*demo.Result, error) {
	return demo.Run(ctx, dir, progress, updateIndex, EditParse)
}
