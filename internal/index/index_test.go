package index_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// writeRepo extracts a txtar fixture into a new directory. In file bodies a
// literal `\r` is a carriage return and <BOM> is U+FEFF.
func writeRepo(t testing.TB, fixture string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		data := bytes.ReplaceAll(f.Data, []byte(`\r`), []byte("\r"))
		data = bytes.ReplaceAll(data, []byte("<BOM>"), []byte("\ufeff"))
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func open(t testing.TB, root string, opts index.Options) *index.Index {
	t.Helper()
	ix, err := index.Open(context.Background(), root, treesitter.New(), opts)
	if err != nil {
		t.Fatalf("Open(%s) = %v", root, err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func update(t testing.TB, ix *index.Index) index.Stats {
	t.Helper()
	st, err := ix.Update(context.Background())
	if err != nil {
		t.Fatalf("Update() = %v", err)
	}
	// The count an update reports is kept, not counted: check it is right.
	var n int
	if err := ix.DB().QueryRow(`SELECT count(*) FROM defs`).Scan(&n); err != nil || n != st.Defs {
		t.Fatalf("Update() reports %d definitions; the index holds %d (%v)", st.Defs, n, err)
	}
	return st
}

// TestByteExact checks the contract everything downstream relies on: for
// every stored definition the file's bytes [Start, End) are its source.
func TestByteExact(t *testing.T) {
	ctx := context.Background()
	root := writeRepo(t, "repo.txtar")
	ix := open(t, root, index.Options{})
	update(t, ix)
	defs, err := ix.AllDefs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) == 0 {
		t.Fatal("AllDefs() is empty")
	}
	for _, d := range defs {
		src, err := os.ReadFile(filepath.Join(root, d.Path))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(src[d.NameStart:d.NameEnd]); got != d.Name {
			t.Errorf("%s %s: bytes at name range = %q, want %q", d.Path, d.QName, got, d.Name)
		}
		body := string(src[d.Start:d.End])
		want := map[string]string{"function": "def ", "method": "def ", "class": "class "}[d.Kind]
		if d.Lang == "go" {
			want = ""
		}
		if strings.HasPrefix(body, "@") {
			want = "@"
		}
		if !strings.HasPrefix(body, want) {
			t.Errorf("%s %s: source starts %q, want prefix %q", d.Path, d.QName, firstLine(body), want)
		}
		got, err := ix.Source(ctx, d)
		if err != nil {
			t.Errorf("Source(%s) = %v", d.QName, err)
		} else if string(got) != body {
			t.Errorf("Source(%s) = %q, want %q", d.QName, got, body)
		}
		// Line and column agree with the byte offsets.
		lines := bytes.Split(src, []byte("\n"))
		off := 0
		for i := 0; i < d.StartLine-1; i++ {
			off += len(lines[i]) + 1
		}
		if off+d.StartCol != d.Start {
			t.Errorf("%s %s: line %d col %d is offset %d, want %d", d.Path, d.QName, d.StartLine, d.StartCol, off+d.StartCol, d.Start)
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func TestSymbols(t *testing.T) {
	ctx := context.Background()
	ix := open(t, writeRepo(t, "repo.txtar"), index.Options{})
	update(t, ix)
	type sym struct{ Kind, QName, Parent, Signature, Doc string }
	tests := []struct {
		file string
		want []sym
	}{
		{"pkg/core.py", []sym{
			{"variable", "X_CONSTANT", "", `X_CONSTANT = "café ☕"`, ""},
			{"function", "resolve_redirects", "", "def resolve_redirects(session, url, *, limit=30) -> str", "Follow redirects — like a browser 🌐."},
			{"function", "resolve_redirects.inner", "resolve_redirects", "def inner()", ""},
			{"class", "Session", "", "class Session(Base)", "A session."},
			{"method", "Session.get", "Session", "def get(self, url)", ""},
			{"method", "Session.request", "Session", "def request(self, method, url)", ""},
		}},
		{"pkg/crlf.py", []sym{
			{"function", "crlf_one", "", "def crlf_one(a)", ""},
			{"class", "CRLF", "", "class CRLF", ""},
			{"method", "CRLF.m", "CRLF", "def m(self)", ""},
		}},
		{"pkg/bom.py", []sym{{"function", "after_bom", "", "def after_bom()", ""}}},
		{"pkg/tabs.py", []sym{
			{"class", "Tabbed", "", "class Tabbed", ""},
			{"method", "Tabbed.method_one", "Tabbed", "def method_one(self)", ""},
			{"method", "Tabbed.method_two", "Tabbed", "def method_two(self)", ""},
		}},
		{"lib/lib.go", []sym{
			{"class", "Greeter", "", "type Greeter struct{ Name string }", "Greeter greets people."},
			{"function", "Greet", "", "func Greet(name string) string", "Greet says hello — politely."},
			{"method", "Greeter.Hello", "Greeter", "func (g *Greeter) Hello() string", "Hello is a method."},
			{"variable", "Answer", "", "const Answer = 42", ""},
		}},
	}
	for _, tt := range tests {
		defs, err := ix.Symbols(ctx, tt.file)
		if err != nil {
			t.Fatalf("Symbols(%s) = %v", tt.file, err)
		}
		var got []sym
		for _, d := range defs {
			got = append(got, sym{d.Kind, d.QName, d.Parent, d.Signature, d.Doc})
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Symbols(%s) mismatch (-want +got):\n%s", tt.file, diff)
		}
	}
}

// TestBrokenFiles: a missing bracket must not stop the rest of the file from
// being indexed, and a file that does not parse at all is indexed anyway.
func TestBrokenFiles(t *testing.T) {
	ctx := context.Background()
	ix := open(t, writeRepo(t, "repo.txtar"), index.Options{})
	update(t, ix)
	defs, err := ix.Symbols(ctx, "pkg/broken.py")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range defs {
		names[d.QName] = true
	}
	// ok_after falls inside the unclosed parenthesis; what follows is indexed.
	for _, want := range []string{"ok_before", "StillHere", "StillHere.m"} {
		if !names[want] {
			t.Errorf("Symbols(pkg/broken.py) lacks %s; got %v", want, names)
		}
	}
	if _, err := ix.File(ctx, "pkg/garbage.py"); err != nil {
		t.Errorf("File(pkg/garbage.py) = %v, want it indexed", err)
	}
}

func TestIgnoreRules(t *testing.T) {
	ctx := context.Background()
	ix := open(t, writeRepo(t, "repo.txtar"), index.Options{})
	update(t, ix)
	files, err := ix.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	want := []string{"cmd/demo/main.go", "keep.gen.py", "lib/lib.go", "main.py",
		"pkg/__init__.py", "pkg/bom.py", "pkg/broken.py", "pkg/core.py", "pkg/crlf.py",
		"pkg/garbage.py", "pkg/tabs.py", "pkg/util.py", "sub/kept.py"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Files() mismatch (-want +got):\n%s", diff)
	}
}

func TestGraph(t *testing.T) {
	ctx := context.Background()
	ix := open(t, writeRepo(t, "repo.txtar"), index.Options{})
	update(t, ix)

	imps, err := ix.Imports(ctx, "pkg/core.py")
	if err != nil {
		t.Fatal(err)
	}
	resolved := map[string]string{}
	for _, i := range imps {
		resolved[i.Module] = i.Resolved
	}
	if diff := cmp.Diff(map[string]string{"os": "", ".util": "pkg/util.py"}, resolved); diff != "" {
		t.Errorf("Imports(pkg/core.py) resolution (-want +got):\n%s", diff)
	}
	imps, _ = ix.Imports(ctx, "main.py")
	resolved = map[string]string{}
	for _, i := range imps {
		resolved[i.Module] = i.Resolved
	}
	if diff := cmp.Diff(map[string]string{"pkg.core": "pkg/core.py", "pkg.util": "pkg/util.py"}, resolved); diff != "" {
		t.Errorf("Imports(main.py) resolution (-want +got):\n%s", diff)
	}
	imps, _ = ix.Imports(ctx, "cmd/demo/main.go")
	resolved = map[string]string{}
	for _, i := range imps {
		resolved[i.Module] = i.Resolved
	}
	if diff := cmp.Diff(map[string]string{"fmt": "", "example.com/demo/lib": "lib/lib.go"}, resolved); diff != "" {
		t.Errorf("Imports(cmd/demo/main.go) resolution (-want +got):\n%s", diff)
	}

	// Callers resolve by name: same file first, then imported files.
	rr, _ := ix.Lookup(ctx, "resolve_redirects")
	if len(rr) != 1 {
		t.Fatalf("Lookup(resolve_redirects) = %d defs, want 1", len(rr))
	}
	callers, err := ix.Callers(ctx, rr[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(callers) != 1 || callers[0].Caller != "Session.request" {
		t.Errorf("Callers(resolve_redirects) = %+v, want one call from Session.request", callers)
	}
	hf, _ := ix.Lookup(ctx, "helper_function")
	callers, _ = ix.Callers(ctx, hf[0].ID)
	var from []string
	for _, c := range callers {
		from = append(from, c.Path+":"+c.Caller)
	}
	if diff := cmp.Diff([]string{"main.py:main", "pkg/core.py:resolve_redirects.inner"}, from); diff != "" {
		t.Errorf("Callers(helper_function) (-want +got):\n%s", diff)
	}
	req, _ := ix.Lookup(ctx, "Session.request")
	callees, err := ix.Callees(ctx, req[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(callees) != 1 || callees[0].Callee.QName != "resolve_redirects" {
		t.Errorf("Callees(Session.request) = %+v, want resolve_redirects", callees)
	}
	// Lookup forms.
	for _, q := range []string{"get", "Session.get", "pkg/core.py::Session.get"} {
		got, err := ix.Lookup(ctx, q)
		if err != nil || len(got) != 1 || got[0].QName != "Session.get" {
			t.Errorf("Lookup(%q) = %v, %v; want Session.get", q, got, err)
		}
	}
	// DefAt finds the innermost definition.
	src, _ := os.ReadFile(filepath.Join(ix.Root(), "pkg/core.py"))
	off := bytes.Index(src, []byte("helper_function(url)"))
	d, ok, err := ix.DefAt(ctx, "pkg/core.py", off)
	if err != nil || !ok || d.QName != "resolve_redirects.inner" {
		t.Errorf("DefAt(pkg/core.py, %d) = %v, %v, %v; want resolve_redirects.inner", off, d.QName, ok, err)
	}

	// File edges: core.py refers to util.py's telling name.
	edges, err := ix.EdgesFrom(ctx, "pkg/core.py")
	if err != nil {
		t.Fatal(err)
	}
	var e *index.FileEdge
	for i := range edges {
		if edges[i].To == "pkg/util.py" {
			e = &edges[i]
		}
	}
	if e == nil {
		t.Fatalf("EdgesFrom(pkg/core.py) = %+v, want an edge to pkg/util.py", edges)
	}
	// helper_function (telling, ×10) referenced twice (import + call): 10·√2;
	// _private (×0.1) once: 0.1.
	want := index.EdgeWeight("helper_function", 1, 2) + index.EdgeWeight("_private", 1, 1)
	if diff := e.Weight - want; diff > 1e-9 || diff < -1e-9 {
		t.Errorf("edge core.py→util.py weight = %v, want %v (10·√2 + 0.1)", e.Weight, want)
	}
	if len(e.Names) == 0 || e.Names[0] != "helper_function" {
		t.Errorf("edge names = %v, want helper_function first", e.Names)
	}
	to, _ := ix.EdgesTo(ctx, "pkg/util.py")
	if len(to) < 2 {
		t.Errorf("EdgesTo(pkg/util.py) = %+v, want core.py and main.py", to)
	}
}

func TestNameWeight(t *testing.T) {
	tests := []struct {
		name   string
		nfiles int
		want   float64
	}{
		{"get", 1, 1},
		{"resolve_redirects", 1, 10},
		{"parseHeader", 1, 10},
		{"lowercaseonly", 1, 1},
		{"_private", 1, 0.1},
		{"_private_helper", 1, 10 * 0.1},
		{"get", 6, 0.1},
		{"resolve_redirects", 6, 10 * 0.1},
	}
	for _, tt := range tests {
		if got := index.NameWeight(tt.name, tt.nfiles); got-tt.want > 1e-9 || tt.want-got > 1e-9 {
			t.Errorf("NameWeight(%q, %d) = %v, want %v", tt.name, tt.nfiles, got, tt.want)
		}
	}
}

func touch(t *testing.T, p string, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	// mtime granularity: make sure the change is seen.
	future := time.Now().Add(time.Duration(len(data)) * time.Millisecond)
	os.Chtimes(p, future, future)
}

func TestIncremental(t *testing.T) {
	ctx := context.Background()
	root := writeRepo(t, "repo.txtar")
	ix := open(t, root, index.Options{})
	first := update(t, ix)
	if first.Parsed != first.Seen || first.Reused != 0 {
		t.Errorf("first Update() parsed %d reused %d of %d, want all parsed", first.Parsed, first.Reused, first.Seen)
	}
	type counts struct{ Seen, Parsed, Reused, Removed int }
	c := func(s index.Stats) counts { return counts{s.Seen, s.Parsed, s.Reused, s.Removed} }
	n := first.Seen

	if got, want := c(update(t, ix)), (counts{n, 0, n, 0}); got != want {
		t.Errorf("no-change Update() = %+v, want %+v", got, want)
	}
	hf, _ := ix.Lookup(ctx, "helper_function")

	// Edit one file's body: parsed again, definition IDs kept.
	util := filepath.Join(root, "pkg/util.py")
	touch(t, util, "def helper_function(x):\n    return _private(x) + 1\n\n\ndef _private(x):\n    return x\n")
	if got, want := c(update(t, ix)), (counts{n, 1, n - 1, 0}); got != want {
		t.Errorf("after edit Update() = %+v, want %+v", got, want)
	}
	hf2, _ := ix.Lookup(ctx, "helper_function")
	if len(hf2) != 1 || hf2[0].ID != hf[0].ID {
		t.Errorf("helper_function ID after edit = %v, want %d kept", hf2, hf[0].ID)
	}
	callers, _ := ix.Callers(ctx, hf2[0].ID)
	if len(callers) != 2 {
		t.Errorf("Callers(helper_function) after edit = %d, want 2", len(callers))
	}

	// Only the mtime moves: the content hash says reuse.
	future := time.Now().Add(time.Hour)
	os.Chtimes(util, future, future)
	if got, want := c(update(t, ix)), (counts{n, 0, n, 0}); got != want {
		t.Errorf("after touch Update() = %+v, want %+v", got, want)
	}

	// Rename: the old path leaves, the new one is parsed.
	if err := os.Rename(filepath.Join(root, "sub/kept.py"), filepath.Join(root, "sub/renamed.py")); err != nil {
		t.Fatal(err)
	}
	if got, want := c(update(t, ix)), (counts{n, 1, n - 1, 1}); got != want {
		t.Errorf("after rename Update() = %+v, want %+v", got, want)
	}
	if _, err := ix.File(ctx, "sub/kept.py"); !errors.Is(err, index.ErrNotIndexed) {
		t.Errorf("File(sub/kept.py) after rename = %v, want ErrNotIndexed", err)
	}

	// Delete: the file and the edges to it leave.
	if err := os.Remove(util); err != nil {
		t.Fatal(err)
	}
	if got, want := c(update(t, ix)), (counts{n - 1, 0, n - 1, 1}); got != want {
		t.Errorf("after delete Update() = %+v, want %+v", got, want)
	}
	if got, _ := ix.Lookup(ctx, "helper_function"); len(got) != 0 {
		t.Errorf("Lookup(helper_function) after delete = %v, want none", got)
	}
	edges, _ := ix.EdgesTo(ctx, "pkg/util.py")
	if len(edges) != 0 {
		t.Errorf("EdgesTo(pkg/util.py) after delete = %v, want none", edges)
	}
	imps, _ := ix.Imports(ctx, "pkg/core.py")
	for _, i := range imps {
		if i.Resolved == "pkg/util.py" {
			t.Errorf("import %q still resolves to the deleted pkg/util.py", i.Module)
		}
	}

	// Source of a definition whose file changed is stale.
	defs, _ := ix.Symbols(ctx, "pkg/core.py")
	touch(t, filepath.Join(root, "pkg/core.py"), "# changed\n")
	if _, err := ix.Source(ctx, defs[0]); !errors.Is(err, index.ErrStale) {
		t.Errorf("Source after change = %v, want ErrStale", err)
	}
	if err := ix.UpdateFiles(ctx, "pkg/core.py"); err != nil {
		t.Fatal(err)
	}
	if defs, _ := ix.Symbols(ctx, "pkg/core.py"); len(defs) != 0 {
		t.Errorf("Symbols(pkg/core.py) after UpdateFiles = %d defs, want 0", len(defs))
	}
}

func TestSkips(t *testing.T) {
	root := writeRepo(t, "repo.txtar")
	big := strings.Repeat("x = 1\n", 300)
	os.WriteFile(filepath.Join(root, "big.py"), []byte(big), 0o644)
	os.WriteFile(filepath.Join(root, "bin.py"), []byte("def f():\x00\x01\x02\n"), 0o644)
	os.WriteFile(filepath.Join(root, "bad_utf8.py"), []byte("def ok(\xff\xfe):\n    return '\xc3\x28'\n"), 0o644)
	ix := open(t, root, index.Options{MaxFileSize: 1000})
	st := update(t, ix)
	reasons := map[string]string{}
	for _, s := range st.Skipped {
		reasons[s.Path] = s.Reason
	}
	if !strings.HasPrefix(reasons["big.py"], "too large (1.8 KiB > 1000 B)") {
		t.Errorf("big.py skipped for %q, want too large", reasons["big.py"])
	}
	if reasons["bin.py"] != "binary" {
		t.Errorf("bin.py skipped for %q, want binary", reasons["bin.py"])
	}
	if _, ok := reasons["bad_utf8.py"]; ok {
		t.Errorf("bad_utf8.py skipped (%s), want it indexed", reasons["bad_utf8.py"])
	}
	// Skips are reported again on a warm run, without reading the files.
	st = update(t, ix)
	if len(st.Skipped) != 2 {
		t.Errorf("warm Update() skipped %v, want big.py and bin.py", st.Skipped)
	}
}

func TestSymlinks(t *testing.T) {
	root := writeRepo(t, "repo.txtar")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.py"), []byte("def secret():\n    pass\n"), 0o644)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(root, filepath.Join(root, "loop")))
	must(os.Symlink(filepath.Join(root, "pkg"), filepath.Join(root, "pkg", "self")))
	must(os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(root, "secret.py")))
	must(os.Symlink(outside, filepath.Join(root, "outside")))
	must(os.Symlink(filepath.Join(root, "pkg/util.py"), filepath.Join(root, "alias.py")))
	ix := open(t, root, index.Options{})
	update(t, ix)
	got, err := ix.Lookup(context.Background(), "secret")
	if err != nil || len(got) != 0 {
		t.Errorf("Lookup(secret) = %v, %v; want nothing from outside the root", got, err)
	}
	files, _ := ix.Files(context.Background())
	for _, f := range files {
		if strings.HasPrefix(f.Path, "loop/") || strings.HasPrefix(f.Path, "outside/") || strings.Contains(f.Path, "/self/") {
			t.Errorf("indexed %s through a symlinked directory", f.Path)
		}
	}
}

func TestCorruptDatabase(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, db string)
	}{
		{"random bytes", func(t *testing.T, db string) {
			data := bytes.Repeat([]byte("not a database at all "), 500)
			os.WriteFile(db, data, 0o644)
			os.Remove(db + "-wal")
			os.Remove(db + "-shm")
		}},
		{"truncated", func(t *testing.T, db string) {
			data, _ := os.ReadFile(db)
			os.WriteFile(db, data[:len(data)/3], 0o644)
			os.Remove(db + "-wal")
			os.Remove(db + "-shm")
		}},
		{"newer schema", func(t *testing.T, db string) {
			sdb, err := sql.Open("sqlite3", db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sdb.Exec("PRAGMA user_version = 999"); err != nil {
				t.Fatal(err)
			}
			sdb.Close()
		}},
		{"foreign", func(t *testing.T, db string) {
			os.Remove(db)
			os.Remove(db + "-wal")
			os.Remove(db + "-shm")
			sdb, _ := sql.Open("sqlite3", db)
			sdb.Exec("CREATE TABLE other(x)")
			sdb.Close()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeRepo(t, "repo.txtar")
			ix := open(t, root, index.Options{})
			want := update(t, ix).Defs
			ix.Close()
			dbPath := index.DBPath(root)
			tt.spoil(t, dbPath)
			var warnings []string
			ix, err := index.Open(context.Background(), root, treesitter.New(), index.Options{Warn: func(m string) { warnings = append(warnings, m) }})
			if err != nil {
				t.Fatalf("Open after %s = %v, want recovery", tt.name, err)
			}
			defer ix.Close()
			st, err := ix.Update(context.Background())
			if err != nil {
				t.Fatalf("Update after %s = %v", tt.name, err)
			}
			if st.Defs != want {
				t.Errorf("Update after %s: %d defs, want %d", tt.name, st.Defs, want)
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], "moved aside") {
				t.Errorf("warnings = %q, want one about moving the database aside", warnings)
			}
			aside, _ := filepath.Glob(dbPath + ".corrupt-*")
			if len(aside) == 0 {
				t.Errorf("no %s.corrupt-* file left", dbPath)
			}
			if err := ix.DB().IntegrityCheck(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestGritDirIgnored(t *testing.T) {
	root := writeRepo(t, "repo.txtar")
	open(t, root, index.Options{})
	data, err := os.ReadFile(filepath.Join(root, ".grit", ".gitignore"))
	if err != nil || strings.TrimSpace(string(data)) != "*" {
		t.Errorf(".grit/.gitignore = %q, %v; want *", data, err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, p := range []string{filepath.Join(dir, "missing"), file} {
		if _, err := index.Open(context.Background(), p, treesitter.New(), index.Options{}); err == nil {
			t.Errorf("Open(%s) = nil error, want one", p)
		}
	}
}

// TestEdgesAgree: edges are derived on read; from a file, to a file and all
// at once give the same edges with the same weights.
func TestEdgesAgree(t *testing.T) {
	ctx := context.Background()
	ix := open(t, writeRepo(t, "repo.txtar"), index.Options{})
	update(t, ix)
	all, err := ix.AllEdges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("AllEdges() = none, want some")
	}
	files, _ := ix.Files(ctx)
	var from, to []index.FileEdge
	for _, f := range files {
		ef, err := ix.EdgesFrom(ctx, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		et, err := ix.EdgesTo(ctx, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		from, to = append(from, ef...), append(to, et...)
	}
	key := func(es []index.FileEdge) map[string]index.FileEdge {
		m := map[string]index.FileEdge{}
		for _, e := range es {
			m[e.From+" -> "+e.To] = e
		}
		return m
	}
	if diff := cmp.Diff(key(all), key(from)); diff != "" {
		t.Errorf("AllEdges() vs EdgesFrom(each file) (-all +from):\n%s", diff)
	}
	if diff := cmp.Diff(key(all), key(to)); diff != "" {
		t.Errorf("AllEdges() vs EdgesTo(each file) (-all +to):\n%s", diff)
	}
}

// TestManyFiles has enough files and directories for the walk to run on
// several goroutines at once: every file is seen once, in path order, and
// the too-large ones are skipped with their reason.
func TestManyFiles(t *testing.T) {
	root := t.TempDir()
	for i := range 700 {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i%23))
		os.MkdirAll(dir, 0o755)
		body := fmt.Sprintf("def f%d():\n    return %d\n", i, i)
		if i%100 == 7 {
			body += strings.Repeat("# padding\n", 200)
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%03d.py", i)), []byte(body), 0o644)
	}
	ix := open(t, root, index.Options{MaxFileSize: 1000})
	st := update(t, ix)
	if st.Seen != 693 || st.Parsed != 693 || len(st.Skipped) != 7 {
		t.Fatalf("Update() saw %d, parsed %d, skipped %d; want 693, 693, 7", st.Seen, st.Parsed, len(st.Skipped))
	}
	for _, s := range st.Skipped {
		if !strings.HasPrefix(s.Reason, "too large") {
			t.Errorf("%s skipped for %q, want too large", s.Path, s.Reason)
		}
	}
	files, err := ix.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sorted := slices.IsSortedFunc(files, func(a, b index.File) int { return strings.Compare(a.Path, b.Path) })
	if len(files) != 693 || !sorted {
		t.Errorf("Files() = %d files (sorted: %v), want 693 in path order", len(files), sorted)
	}
	if st := update(t, ix); st.Reused != 693 || st.Parsed != 0 {
		t.Errorf("warm Update() reused %d, parsed %d; want 693, 0", st.Reused, st.Parsed)
	}
}

// TestGritignoreOverGitignore: in one directory, .gritignore's rules come
// after .gitignore's, so a .gritignore rule decides, either way round.
func TestGritignoreOverGitignore(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".gitignore":  "reincluded.py\n!excluded.py\n",
		".gritignore": "!reincluded.py\nexcluded.py\n",
	}
	for _, name := range []string{"reincluded.py", "excluded.py", "plain.py"} {
		files[name] = "def f():\n    pass\n"
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix := open(t, root, index.Options{})
	update(t, ix)
	got, err := ix.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path)
	}
	if want := []string{"plain.py", "reincluded.py"}; !slices.Equal(paths, want) {
		t.Errorf("Files() = %v, want %v", paths, want)
	}
}

// TestLargeDirectory lists a directory whose entries take several times
// the walk's first listing buffer, with names in UTF-8 and a .gitignore
// among them: every kept file is seen once.
func TestLargeDirectory(t *testing.T) {
	root := t.TempDir()
	const n = 1500
	want := 0
	for i := range n {
		name := fmt.Sprintf("a_module_with_a_rather_long_name_to_fill_the_buffer_%04d_é.py", i)
		if err := os.WriteFile(filepath.Join(root, name), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if i%10 != 3 {
			want++
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*3_é.py\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix := open(t, root, index.Options{})
	if st := update(t, ix); st.Seen != want || st.Parsed != want {
		t.Fatalf("Update() saw %d, parsed %d; want %d", st.Seen, st.Parsed, want)
	}
	files, err := ix.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f.Path] || strings.HasSuffix(f.Path, "3_é.py") {
			t.Errorf("Files() has %s twice or ignored", f.Path)
		}
		seen[f.Path] = true
	}
}
