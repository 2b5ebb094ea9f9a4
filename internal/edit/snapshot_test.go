package edit

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
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
