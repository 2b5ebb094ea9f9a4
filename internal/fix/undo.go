package fix

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
)

// UndoResult reports what Undo restored.
type UndoResult struct {
	Snapshot string   `json:"snapshot"`
	Task     string   `json:"task"`
	Created  string   `json:"created"`
	Restored []string `json:"restored"`
}

// Undo restores the files the last kept fix changed, from its snapshot under
// .grit/snapshots. It refuses (edit.ErrModified) when a file changed after the
// fix unless force is set, and returns edit.ErrNoSnapshot when there is
// nothing to undo. The user's .git is never touched.
//
// open opens root's index (the composition root supplies its parser) to
// reindex the restored files; an index that does not open is left for the
// next command to bring up to date.
func Undo(ctx context.Context, root string, force bool, open func(ctx context.Context, root string) (*index.Index, error)) (*UndoResult, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("undo: %w", err)
	}
	s, err := edit.LastSnapshot(root)
	if err != nil {
		return nil, err
	}
	paths, err := s.Restore(force)
	if err != nil {
		return nil, err
	}
	if ix, err := open(ctx, root); err == nil {
		ix.UpdateFiles(ctx, paths...)
		ix.Close()
	}
	return &UndoResult{Snapshot: s.ID, Task: s.Label, Created: s.Created.Format(time.RFC3339), Restored: paths}, nil
}
