package treesitter

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestPythonWalkerMatchesQuery parses Python sources with the query and with
// the C walk, both the one reading subtrees and the one through the cursor,
// and wants identical results: the fixtures of this package and of the
// index always, and every .py file of $GRIT_BENCH_REPO when it is set.
func TestPythonWalkerMatchesQuery(t *testing.T) {
	defer setRawWalk(true)
	for _, raw := range []bool{true, false} {
		setRawWalk(raw)
		name := "cursor"
		if raw {
			name = "raw"
		}
		before := rawWalks()
		t.Run(name, comparePythonWalker)
		if took := rawWalks() - before; raw && took == 0 || !raw && took != 0 {
			t.Errorf("%s walk: the raw walk took %d trees", name, took)
		}
	}
}

func comparePythonWalker(t *testing.T) {
	p := New()
	ctx := context.Background()
	check := func(name string, src []byte) {
		t.Helper()
		file := strings.TrimSuffix(strings.TrimSuffix(name, " (CRLF)"), " (first half)")
		want, werr := p.parse(ctx, file, src, false)
		got, gerr := p.parse(ctx, file, src, true)
		if werr != nil && gerr != nil {
			t.Errorf("parse(%q): %v", name, werr)
			return
		}
		if (werr != nil) != (gerr != nil) {
			t.Errorf("parse(%q): walker error %v, query error %v", name, gerr, werr)
			return
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("parse(%q): walker differs from query (-query +walker):\n%s", name, diff)
		}
	}
	for _, file := range []string{"testdata/walker.txtar", "../testdata/repo.txtar"} {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".py") {
				check(file+":"+f.Name, f.Data)
				check(file+":"+f.Name+" (CRLF)", []byte(strings.ReplaceAll(string(f.Data), "\n", "\r\n")))
			}
		}
	}
	// Deep nesting grows the walk's ancestor stack well past its first size.
	deep := strings.Repeat("f(a.g(", 300) + "x" + strings.Repeat("))", 300) + "\n"
	for i := range 100 {
		deep += strings.Repeat("    ", i) + "def d" + strings.Repeat("x", i) + "():\n"
	}
	deep += strings.Repeat("    ", 100) + "return h()\n"
	check("deep.py", []byte(deep))
	check("invalid-utf8.py", []byte("def f\xff(x):\n    '\xfe'\n    return g\xc3(x)\nimport a\xff.b\n"))

	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		return
	}
	n := 0
	isPython := func(path string) bool { return strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi") }
	repoFiles(t, root, isPython, func(path string, src []byte) {
		check(path, src)
		// Cut mid-file: error recovery shapes the tree in ways the
		// fixtures do not reach.
		check(path+" (first half)", src[:len(src)/2])
		n++
	})
	t.Logf("%d Python files of %s compared", n, root)
}
