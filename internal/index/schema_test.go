package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/store"
)

// stubParser parses every .py file into one definition named after the file.
type stubParser struct{}

func (stubParser) Lang(path string) string {
	if filepath.Ext(path) == ".py" {
		return "python"
	}
	return ""
}

func (stubParser) Parse(_ context.Context, path string, src []byte) (*Parsed, error) {
	name := filepath.Base(path[:len(path)-3])
	return &Parsed{Lang: "python", Defs: []Def{{Name: name, QName: name, Kind: KindFunction, End: len(src)}}}, nil
}

// TestMigrateFromV1: a database of the first schema is brought up to date
// and, the index being a cache, rebuilt by the next Update.
func TestMigrateFromV1(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := store.Open(ctx, DBPath(root), store.Schema{AppID: schemaAppID, Migrations: schema.Migrations[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.ExecContext(ctx, `INSERT INTO files(id, path, lang, size, mtime, hash, errors) VALUES(1, 'a.py', 'python', 6, 0, x'00', 0)`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	ix, err := Open(ctx, root, stubParser{}, Options{})
	if err != nil {
		t.Fatalf("Open(v1 database) = %v", err)
	}
	defer ix.Close()
	var version int
	if err := ix.DB().QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil || version != len(schema.Migrations) {
		t.Errorf("user_version = %d, %v; want %d", version, err, len(schema.Migrations))
	}
	st, err := ix.Update(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 1 || st.Defs != 1 {
		t.Errorf("Update() after migration parsed %d, %d defs; want 1, 1", st.Parsed, st.Defs)
	}
}

// TestMigrateKeepsDefCount: schema 3 keeps the number of definitions an
// update reports; an index of schema 2 holding definitions starts it from
// what it holds, so the first update after the migration reports right.
func TestMigrateKeepsDefCount(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	for _, name := range []string{"a.py", "b.py", "c.py"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Open(ctx, root, stubParser{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	// Back to schema 2: no meta table.
	if _, err := ix.DB().ExecContext(ctx, `DROP TABLE meta; PRAGMA user_version = 2`); err != nil {
		t.Fatal(err)
	}
	ix.Close()

	ix, err = Open(ctx, root, stubParser{}, Options{})
	if err != nil {
		t.Fatalf("Open(schema 2 database) = %v", err)
	}
	defer ix.Close()
	if err := os.Remove(filepath.Join(root, "c.py")); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Update(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Defs != 2 {
		t.Errorf("Update() after the migration and one file removed reports %d definitions, want 2", st.Defs)
	}
}

// TestUpgradeReparses: an index written by an older extraction is parsed
// again on its next update, though no file changed.
func TestUpgradeReparses(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	for _, name := range []string{"a.py", "b.py"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Open(ctx, root, stubParser{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := ix.Update(ctx); err != nil || st.Parsed != 0 {
		t.Fatalf("a warm update parsed %d files (%v), want 0", st.Parsed, err)
	}
	if _, err := ix.DB().ExecContext(ctx, `PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix, err = Open(ctx, root, stubParser{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Update(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 2 || st.Defs != 2 {
		t.Errorf("the update after the upgrade parsed %d files with %d definitions, want 2 and 2", st.Parsed, st.Defs)
	}
}

func TestRefsEncoding(t *testing.T) {
	counts := map[int64]int{3: 1, 70000: 2, 1: 5, 200: 1}
	var got [][2]int64
	decodeRefs(encodeRefs(counts), func(n int64, c int) { got = append(got, [2]int64{n, int64(c)}) })
	want := [][2]int64{{1, 5}, {3, 1}, {200, 1}, {70000, 2}}
	if len(got) != len(want) {
		t.Fatalf("decodeRefs(encodeRefs(%v)) = %v, want %v", counts, got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("decodeRefs(encodeRefs(%v)) = %v, want %v", counts, got, want)
			break
		}
	}
}

func TestCountSites(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7} {
		var calls []Call
		for i := range n {
			calls = append(calls, Call{Callee: "f", Offset: 1000 * i * i, Line: 300 * i})
		}
		got := 0
		packCalls(calls, nil, map[string]int64{"f": 1}).each(func(caller, name int64, sites []byte) error {
			got += countSites(sites)
			if want := len(decodeSites(sites)); countSites(sites) != want {
				t.Errorf("countSites() = %d, decodeSites() gives %d", countSites(sites), want)
			}
			return nil
		})
		if got != n {
			t.Errorf("countSites(packCalls(%d calls)) = %d", n, got)
		}
	}
}

// TestMigrateTo7: an index of schema 6 (paths held twice by their UNIQUE
// index, imports with a rowid) opens, starts over and is found by path.
func TestMigrateTo7(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := store.Open(ctx, DBPath(root), store.Schema{AppID: schemaAppID, Migrations: schema.Migrations[:6]})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO files(id, path, lang, size, mtime, hash, errors) VALUES(1, 'a.py', 'python', 6, 0, x'00', 0)`,
		`INSERT INTO imports VALUES(1, 'os', '', '', 0, 1)`,
	} {
		if _, err := old.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	ix, err := Open(ctx, root, stubParser{}, Options{})
	if err != nil {
		t.Fatalf("Open(schema 6 database) = %v", err)
	}
	defer ix.Close()
	var n int
	if err := ix.DB().QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE tbl_name IN ('files', 'imports') AND name LIKE 'sqlite_autoindex%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after the migration files and imports have %d automatic indexes (%v), want 0", n, err)
	}
	st, err := ix.Update(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 1 || st.Defs != 1 {
		t.Errorf("Update() after migration parsed %d, %d defs; want 1, 1", st.Parsed, st.Defs)
	}
	if ds, err := ix.Symbols(ctx, "a.py"); err != nil || len(ds) != 1 {
		t.Errorf("Symbols(a.py) = %v, %v; want one definition", ds, err)
	}
}

// TestPathKeyCollision: two files whose paths have the same pathKey are
// each found by their own path.
func TestPathKeyCollision(t *testing.T) {
	seen := map[int64]string{}
	var a, b string
	for i := 0; a == "" && i < 1<<20; i++ {
		p := fmt.Sprintf("f%d.py", i)
		k := pathKey(p)
		if q, ok := seen[k]; ok {
			a, b = q, p
		}
		seen[k] = p
	}
	if a == "" {
		t.Fatal("no two paths with the same key among a million")
	}
	ctx := context.Background()
	root := t.TempDir()
	for _, p := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(root, p), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Open(ctx, root, stubParser{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		ds, err := ix.Symbols(ctx, p)
		if want := strings.TrimSuffix(p, ".py"); err != nil || len(ds) != 1 || ds[0].Name != want || ds[0].Path != p {
			t.Errorf("Symbols(%s) = %+v, %v; want one definition %s in %s", p, ds, err, want, p)
		}
		if f, err := ix.File(ctx, p); err != nil || f.Path != p {
			t.Errorf("File(%s) = %+v, %v", p, f, err)
		}
	}
}
