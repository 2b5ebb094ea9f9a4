package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/index"
)

// indexedFiles is what the index holds: path → content hash.
func indexedFiles(t *testing.T, ix *index.Index) map[string]string {
	t.Helper()
	files, err := ix.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = f.Hash
	}
	return out
}

// freshFiles indexes a copy of root (without its .grit) from scratch.
func freshFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dst, ".grit")); err != nil {
		t.Fatal(err)
	}
	ix := open(t, dst, index.Options{})
	update(t, ix)
	return indexedFiles(t, ix)
}

func write(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mtime(t *testing.T, p string) time.Time {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// TestWarmUpdates: a warm update lists only the directories whose stamp
// changed (the rest come from .grit/dirs.cache) and stats only source
// files; after every kind of change it must hold what a fresh index of the
// same tree holds.
func TestWarmUpdates(t *testing.T) {
	defer index.SetRacyWindow(0)() // the fixture was just written: trust its stamps
	root := writeRepo(t, "repo.txtar")
	ix := open(t, root, index.Options{})
	update(t, ix)
	if n := index.DirCacheLen(root); n == 0 {
		t.Fatal("no directory cache after the first update: the steps below would not test it")
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name   string
		change func()
	}{
		{"new file in a cached directory", func() { write(t, root, "pkg/added.py", "def added():\n    pass\n") }},
		{"new nested directories", func() { write(t, root, "newdir/deeper/n.go", "package deeper\n\nfunc N() {}\n") }},
		{"deleted file", func() { must(os.Remove(filepath.Join(root, "pkg/tabs.py"))) }},
		{"renamed in its directory", func() { must(os.Rename(filepath.Join(root, "pkg/bom.py"), filepath.Join(root, "pkg/bom2.py"))) }},
		{"moved to another directory", func() { must(os.Rename(filepath.Join(root, "lib/lib.go"), filepath.Join(root, "newdir/lib.go"))) }},
		{"edited in place, same size", func() {
			p := filepath.Join(root, "pkg/util.py")
			data, err := os.ReadFile(p)
			must(err)
			data[0] = '#'
			must(os.WriteFile(p, data, 0o644))
		}},
		{"added with the directory's mtime set back", func() {
			dir := filepath.Join(root, "sub")
			old := mtime(t, dir)
			write(t, root, "sub/late.py", "def late():\n    pass\n")
			must(os.Chtimes(dir, old, old)) // its ctime still moves
		}},
		{".gitignore edited in place", func() {
			f, err := os.OpenFile(filepath.Join(root, ".gitignore"), os.O_APPEND|os.O_WRONLY, 0)
			must(err)
			_, err = f.WriteString("\npkg/added.py\n")
			must(err)
			must(f.Close())
		}},
		{"ignored directory let in", func() {
			p := filepath.Join(root, ".gitignore")
			data, err := os.ReadFile(p)
			must(err)
			must(os.WriteFile(p, []byte("# "+string(data)), 0o644))
		}},
		{"directory removed", func() { must(os.RemoveAll(filepath.Join(root, "newdir"))) }},
		{"non-source file added", func() { write(t, root, "pkg/notes.txt", "hello\n") }},
		{"damaged cache", func() {
			must(os.WriteFile(filepath.Join(root, ".grit", "dirs.cache"), []byte("GRITDIRS garbage"), 0o644))
			write(t, root, "pkg/after_damage.py", "def after_damage():\n    pass\n")
		}},
	}
	for _, s := range steps {
		before := indexedFiles(t, ix)
		s.change()
		update(t, ix)
		got, want := indexedFiles(t, ix), freshFiles(t, root)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: indexed files (-fresh index +warm update):\n%s", s.name, d)
		}
		if cmp.Equal(before, got) && s.name != "non-source file added" {
			t.Errorf("%s: the update changed nothing", s.name)
		}
	}
	if n := index.DirCacheLen(root); n == 0 {
		t.Error("no directory cache after the damaged one was replaced")
	}
}

// TestWarmRacyEdit: a file edited again within its mtime's clock tick (here
// simulated by setting the mtime back) keeps its size and mtime; a file
// indexed that recently is read and hashed again by the next update.
func TestWarmRacyEdit(t *testing.T) {
	ctx := context.Background()
	root := writeRepo(t, "repo.txtar")
	ix := open(t, root, index.Options{})
	update(t, ix)
	if n := index.DirCacheLen(root); n != 0 {
		t.Errorf("directories made just now are cached (%d): a change in the same tick would be missed", n)
	}
	p := filepath.Join(root, "pkg/util.py")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	old := mtime(t, p)
	edited := []byte(string(data))
	copy(edited[len("def "):], "helper_functiom") // same size
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	st := update(t, ix)
	if st.Parsed != 1 {
		t.Errorf("Update() after a same-size edit with the mtime unchanged parsed %d files, want 1", st.Parsed)
	}
	if got, _ := ix.Lookup(ctx, "helper_functiom"); len(got) != 1 {
		t.Errorf("Lookup(helper_functiom) = %v, want the edited definition", got)
	}
	// Still racy: hashed again, found unchanged, not parsed.
	if st := update(t, ix); st.Parsed != 0 || st.Reused != st.Seen {
		t.Errorf("no-change Update() = parsed %d, reused %d of %d; want all reused", st.Parsed, st.Reused, st.Seen)
	}
	f, err := ix.File(ctx, "pkg/util.py")
	if err != nil || !f.MTime.Equal(old) {
		t.Errorf("File(pkg/util.py).MTime = %v, %v; want %v (a racy mtime is stored negated, read back as it is)", f.MTime, err, old)
	}
}
