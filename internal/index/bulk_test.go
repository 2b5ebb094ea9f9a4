package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// TestColdEqualsIncremental builds one repository twice: cold in one run
// (the bulk path: calls loaded through a temporary table, secondary indexes
// built last) and file batch by file batch (the incremental path). Both
// must store the same definitions, calls with their resolution, imports and
// references. It runs twice: the second time the incremental side parses
// on one worker and is slow to parse a file again, so that its writer reads
// an edited file's stored rows while the file is being parsed
// (writer.prepare).
func TestColdEqualsIncremental(t *testing.T) {
	t.Run("parser", func(t *testing.T) { coldEqualsIncremental(t, treesitter.New()) })
	t.Run("slow-parser", func(t *testing.T) {
		// One worker parses the files in order: the next one is being
		// parsed while the writer writes this one.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		coldEqualsIncremental(t, &slowParser{Parser: treesitter.New(), seen: map[string]bool{}})
	})
}

// slowParser parses as its Parser does, but a file it has parsed before
// takes 10 ms more: the writer, which takes a few milliseconds a file, is
// waiting for it when it gets there.
type slowParser struct {
	*treesitter.Parser
	mu   sync.Mutex
	seen map[string]bool
}

func (p *slowParser) Parse(ctx context.Context, path string, src []byte) (*index.Parsed, error) {
	p.mu.Lock()
	again := p.seen[path]
	p.seen[path] = true
	p.mu.Unlock()
	if again {
		time.Sleep(10 * time.Millisecond)
	}
	return p.Parser.Parse(ctx, path, src)
}

func coldEqualsIncremental(t *testing.T, incParser index.Parser) {
	const n = 90
	src := make(map[string]string, n)
	for i := range n {
		var sb strings.Builder
		fmt.Fprintf(&sb, "from pkg.mod_%03d import helper_%03d\n\n", (i+1)%n, (i+1)%n)
		fmt.Fprintf(&sb, "def helper_%03d(x):\n    return shared(x) + helper_%03d(x)\n\n", i, (i+1)%n)
		fmt.Fprintf(&sb, "class Thing%03d:\n    def method(self):\n        return helper_%03d(self) + self.other()\n\n", i, i)
		fmt.Fprintf(&sb, "def shared(x):\n    return len(x)\n\n")
		// solo_i is defined once and called from a file that does not
		// import it; dup is defined in every third file and called from
		// all: each resolution rule (same file, imported file, only
		// definition, ambiguous) has calls to decide.
		fmt.Fprintf(&sb, "def solo_%03d():\n    return solo_%03d() + dup()\n", i, (i+7)%n)
		if i%3 == 0 {
			fmt.Fprintf(&sb, "\ndef dup():\n    return 0\n")
		}
		src[fmt.Sprintf("pkg/mod_%03d.py", i)] = sb.String()
	}
	write := func(root string, names []string) {
		for _, name := range names {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(src[name]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var names []string
	for name := range src {
		names = append(names, name)
	}
	slices.Sort(names)

	cold := t.TempDir()
	write(cold, names)
	ixCold := open(t, cold, index.Options{})
	if st := update(t, ixCold); st.Parsed != n {
		t.Fatalf("cold Update() parsed %d files, want %d", st.Parsed, n)
	}

	inc := t.TempDir()
	ixInc, err := index.Open(context.Background(), inc, incParser, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ixInc.Close() })
	for i := 0; i < n; i += 20 {
		write(inc, names[i:min(i+20, n)])
		update(t, ixInc)
	}

	same := func(ixCold, ixInc *index.Index) {
		t.Helper()
		for _, q := range []string{
			`SELECT f.path, n.name, d.parent, d.kind, d.start, d."end" FROM defs d JOIN files f ON f.id = d.file_id JOIN names n ON n.id = d.name_id ORDER BY 1, 5`,
			`SELECT f.path, coalesce(cd.parent || '.' || cn.name, ''), n.name, coalesce(tf.path || ':' || td.start, ''), hex(c.sites)
			 FROM calls c JOIN files f ON f.id = c.file_id JOIN names n ON n.id = c.name_id
			 LEFT JOIN defs cd ON cd.id = c.caller_id LEFT JOIN names cn ON cn.id = cd.name_id
			 LEFT JOIN defs td ON td.id = c.callee_id LEFT JOIN files tf ON tf.id = td.file_id ORDER BY 1, 2, 3`,
			`SELECT f.path, i.module, i.names, coalesce(r.path, '') FROM imports i JOIN files f ON f.id = i.file_id LEFT JOIN files r ON r.id = i.resolved_id ORDER BY 1, 2`,
			`SELECT count(*) FROM calls WHERE callee_id != 0`,
		} {
			a, b := dump(t, ixCold, q), dump(t, ixInc, q)
			if len(a) == 0 {
				t.Errorf("cold build: %s: no rows", q)
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("%s\n(-cold +incremental):\n%s", q, diff)
			}
		}
	}
	same(ixCold, ixInc)

	// A few files edited: the incremental path that fetches only the
	// definitions near the files it resolves. solo_040 goes away (its
	// caller, file 33, loses the call's target), solo_053 gets a second
	// definition (file 46's call becomes ambiguous), and file 5 is edited
	// without changing names.
	src["pkg/mod_040.py"] = strings.Replace(src["pkg/mod_040.py"], "def solo_040", "def solo_x040", 1)
	src["pkg/mod_060.py"] += "\ndef solo_053():\n    return 2\n"
	src["pkg/mod_005.py"] += "\n# edited\n"
	edited := []string{"pkg/mod_005.py", "pkg/mod_040.py", "pkg/mod_060.py"}
	write(inc, edited)
	if st := update(t, ixInc); st.Parsed != len(edited) {
		t.Fatalf("Update() after the edit parsed %d files, want %d", st.Parsed, len(edited))
	}
	cold2 := t.TempDir()
	write(cold2, names)
	ixCold2 := open(t, cold2, index.Options{})
	update(t, ixCold2)
	same(ixCold2, ixInc)

	// A large update over a stored index, whose definitions no longer sit
	// in (file, position) order in the table: shared2 is defined in file 50
	// first, then in file 5, and file 60, which imports both, must resolve
	// its call to file 5's, as a cold build does.
	src["pkg/mod_050.py"] += "\ndef shared2():\n    return 50\n"
	src["pkg/mod_060.py"] = "from pkg.mod_050 import shared2\nfrom pkg.mod_005 import solo_005\n" + src["pkg/mod_060.py"] + "\ndef caller():\n    return shared2()\n"
	write(inc, []string{"pkg/mod_050.py", "pkg/mod_060.py"})
	update(t, ixInc)
	src["pkg/mod_005.py"] += "\ndef shared2():\n    return 5\n"
	for _, name := range names {
		src[name] += "# all edited\n"
	}
	write(inc, names)
	if st := update(t, ixInc); st.Parsed != n {
		t.Fatalf("Update() after editing every file parsed %d files, want %d", st.Parsed, n)
	}
	cold3 := t.TempDir()
	write(cold3, names)
	ixCold3 := open(t, cold3, index.Options{})
	update(t, ixCold3)
	same(ixCold3, ixInc)
	for _, ix := range []*index.Index{ixCold, ixInc} {
		edges, err := ix.AllEdges(context.Background())
		if err != nil || len(edges) == 0 {
			t.Errorf("AllEdges() = %d edges, %v; want some", len(edges), err)
		}
		if err := ix.DB().IntegrityCheck(context.Background()); err != nil {
			t.Error(err)
		}
	}
}

func dump(t *testing.T, ix *index.Index, q string) []string {
	t.Helper()
	rows, err := ix.DB().QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out
}

// TestEditedImports: an edit that leaves the imports alone keeps them and
// their resolution; one that changes them stores the new ones, resolved.
func TestEditedImports(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"pkg/__init__.py": "",
		"pkg/a.py":        "def alpha():\n    return 1\n",
		"pkg/b.py":        "def beta():\n    return 2\n",
		"pkg/main.py":     "from pkg.a import alpha\n\ndef run():\n    return alpha()\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(src), 0o644)
	}
	ix := open(t, root, index.Options{})
	update(t, ix)
	imports := func() string {
		t.Helper()
		imps, err := ix.Imports(context.Background(), "pkg/main.py")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, i := range imps {
			out = append(out, fmt.Sprintf("%s:%s->%s@%d", i.Module, strings.Join(i.Names, ","), i.Resolved, i.Line))
		}
		return strings.Join(out, " ")
	}
	main := filepath.Join(root, "pkg", "main.py")
	for _, step := range []struct{ src, want string }{
		{"from pkg.a import alpha\n\ndef run():\n    return alpha() + 1\n", "pkg.a:alpha->pkg/a.py@1"},
		{"from pkg.a import alpha\nfrom pkg.b import beta\n\ndef run():\n    return alpha() + beta()\n", "pkg.a:alpha->pkg/a.py@1 pkg.b:beta->pkg/b.py@2"},
		{"\nfrom pkg.b import beta\n\ndef run():\n    return beta()\n", "pkg.b:beta->pkg/b.py@2"},
	} {
		os.WriteFile(main, []byte(step.src), 0o644)
		if st := update(t, ix); st.Parsed != 1 {
			t.Fatalf("Update() parsed %d files, want 1", st.Parsed)
		}
		if got := imports(); got != step.want {
			t.Errorf("after writing %q: imports %s, want %s", step.src, got, step.want)
		}
	}
	runs, err := ix.Lookup(context.Background(), "run")
	if err != nil || len(runs) != 1 {
		t.Fatalf("Lookup(run) = %v, %v", runs, err)
	}
	callees, err := ix.Callees(context.Background(), runs[0].ID)
	if err != nil || len(callees) != 1 || callees[0].Callee.Path != "pkg/b.py" {
		t.Errorf("Callees(run) = %+v, %v; want beta in pkg/b.py", callees, err)
	}
}

// TestColdImportsSkippedFile: a cold build resolves imports as files come,
// against every file it was given; one of them turns out binary (skipped),
// so the imports are resolved again at the end, as an incremental build
// resolves them (pkg/target.py is not indexed: `from pkg import target`
// falls to pkg/__init__.py).
func TestColdImportsSkippedFile(t *testing.T) {
	src := map[string]string{
		"pkg/__init__.py": "def target():\n    return 0\n",
		"pkg/target.py":   "BINARY = '\x00'\n",
	}
	for i := range 70 {
		src[fmt.Sprintf("app/m_%02d.py", i)] = "from pkg import target\nimport pkg.target\n\ndef f():\n    return target()\n"
	}
	var names []string
	for name := range src {
		names = append(names, name)
	}
	slices.Sort(names)
	write := func(root string, names []string) {
		for _, name := range names {
			p := filepath.Join(root, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(src[name]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cold, inc := t.TempDir(), t.TempDir()
	write(cold, names)
	ixCold := open(t, cold, index.Options{})
	if st := update(t, ixCold); len(st.Skipped) != 1 {
		t.Fatalf("cold Update() skipped %v, want pkg/target.py", st.Skipped)
	}
	ixInc := open(t, inc, index.Options{})
	for i := 0; i < len(names); i += 20 {
		write(inc, names[i:min(i+20, len(names))])
		update(t, ixInc)
	}
	const q = `SELECT f.path, i.module, i.names, coalesce(r.path, '') FROM imports i JOIN files f ON f.id = i.file_id LEFT JOIN files r ON r.id = i.resolved_id ORDER BY 1, 2`
	a, b := dump(t, ixCold, q), dump(t, ixInc, q)
	if len(a) != 140 {
		t.Fatalf("cold build: %d imports, want 140", len(a))
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("imports (-cold +incremental):\n%s", diff)
	}
	for _, row := range a {
		if strings.Contains(row, "pkg/target.py") {
			t.Errorf("an import resolves to the skipped file: %s", row)
			break
		}
	}
}
