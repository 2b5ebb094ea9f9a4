package edit

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/grit-dev/grit/internal/span"
)

func TestSnapshotUndo(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return "<missing>"
		}
		return string(b)
	}
	write("a.py", "old a\n")
	write(".git/HEAD", "ref: refs/heads/main\n")
	s, err := NewSnapshot(root, "fix it")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.py", "new.py", "a.py"} {
		if err := s.Save(p); err != nil {
			t.Fatalf("Save(%s): %v", p, err)
		}
	}
	if err := s.Save(".git/HEAD"); err == nil {
		t.Errorf("Save(.git/HEAD) succeeded, want a refusal")
	}
	if err := s.Save("../x"); err == nil {
		t.Errorf("Save(../x) succeeded, want a refusal")
	}
	write("a.py", "new a\n")
	write("new.py", "created\n")
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	last, err := LastSnapshot(root)
	if err != nil {
		t.Fatalf("LastSnapshot: %v", err)
	}
	write("a.py", "edited by hand\n")
	if _, err := last.Restore(false); !errors.Is(err, ErrModified) {
		t.Fatalf("Restore after a hand edit: error = %v, want ErrModified", err)
	}
	if got := read("a.py"); got != "edited by hand\n" {
		t.Errorf("a refused Restore changed a.py to %q", got)
	}
	write("a.py", "new a\n")
	done, err := last.Restore(false)
	if err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if len(done) != 2 || read("a.py") != "old a\n" || read("new.py") != "<missing>" {
		t.Errorf("Restore = %v; a.py = %q, new.py = %q; want a.py restored and new.py removed", done, read("a.py"), read("new.py"))
	}
	if read(".git/HEAD") != "ref: refs/heads/main\n" {
		t.Errorf(".git/HEAD changed")
	}
	if _, err := LastSnapshot(root); !errors.Is(err, ErrNoSnapshot) {
		t.Errorf("LastSnapshot after undo: error = %v, want ErrNoSnapshot", err)
	}
}

// TestSnapshotApplyFileJournal (issue 21, finding 2): a write through
// Snapshot.ApplyFile is undoable before Commit (a crash), refuses over a
// later edit, and a discarded snapshot hands the undo target back.
func TestSnapshotApplyFileJournal(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a.go")
	os.WriteFile(p, []byte("one\n"), 0o644)
	first, _ := NewSnapshot(root, "first")
	if _, err := first.ApplyFile("a.go", "", Op{Kind: OpReplace, Range: span.Range{Start: 0, End: 3}, Text: []byte("two")}); err != nil {
		t.Fatal(err)
	}
	// No Commit: the process died. Undo finds and restores it.
	s, err := LastSnapshot(root)
	if err != nil || s.ID != first.ID {
		t.Fatalf("LastSnapshot after an uncommitted write = %v, %v; want %s", s, err, first.ID)
	}
	os.WriteFile(p, []byte("user edit\n"), 0o644)
	if _, err := s.Restore(false); !errors.Is(err, ErrModified) {
		t.Errorf("Restore over a later edit = %v, want ErrModified", err)
	}
	os.WriteFile(p, []byte("two\n"), 0o644)
	if _, err := s.Restore(false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one\n" {
		t.Errorf("after undo a.go = %q, want %q", b, "one\n")
	}
	// A committed snapshot stays the target when a later one is discarded.
	c, _ := NewSnapshot(root, "kept")
	c.ApplyFile("a.go", "", Op{Kind: OpReplace, Range: span.Range{Start: 0, End: 3}, Text: []byte("three")})
	c.Commit()
	d, _ := NewSnapshot(root, "failed")
	d.ApplyFile("a.go", "", Op{Kind: OpReplace, Range: span.Range{Start: 0, End: 5}, Text: []byte("four")})
	d.Restore(true)
	d.Discard()
	if s, err := LastSnapshot(root); err != nil || s.ID != c.ID {
		t.Errorf("LastSnapshot after a discarded run = %v, %v; want %s", s, err, c.ID)
	}
}
