package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// TestLazy: the index opens on the first Get only, later Gets bring it up
// to date (a file written in between is found), and after Close a Get
// opens it again.
func TestLazy(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.py", "def alpha():\n    return 1\n")
	opens := 0
	l := &index.Lazy{Open: func(ctx context.Context) (*index.Index, error) {
		opens++
		ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
		if err != nil {
			return nil, err
		}
		if _, err := ix.Update(ctx); err != nil {
			ix.Close()
			return nil, err
		}
		return ix, nil
	}}
	defer l.Close()
	if opens != 0 {
		t.Fatalf("Lazy opened before the first Get")
	}
	lookup := func(name string) int {
		t.Helper()
		ix, err := l.Get(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defs, err := ix.Lookup(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		return len(defs)
	}
	if n := lookup("alpha"); n != 1 || opens != 1 {
		t.Fatalf("first Get: Lookup(alpha) = %d defs after %d opens, want 1 after 1", n, opens)
	}
	write("b.py", "def beta():\n    return 2\n")
	if n := lookup("beta"); n != 1 || opens != 1 {
		t.Errorf("second Get: Lookup(beta) = %d defs after %d opens, want the new file found without reopening", n, opens)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if n := lookup("beta"); n != 1 || opens != 2 {
		t.Errorf("Get after Close: Lookup(beta) = %d defs after %d opens, want it opened again", n, opens)
	}
}
