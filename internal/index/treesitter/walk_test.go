package treesitter

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// walkCheck parses sources with the query cursor and with the generic walk
// and counts, per language, the files compared and those that differ.
type walkCheck struct {
	t        *testing.T
	p        *Parser
	files    map[string]int
	mismatch map[string]int
	shown    int
}

func newWalkCheck(t *testing.T) *walkCheck {
	return &walkCheck{t: t, p: New(), files: map[string]int{}, mismatch: map[string]int{}}
}

// maxShownDiffs bounds the diffs a run prints; the counts say the rest.
const maxShownDiffs = 5

// check compares the two paths on one source, named as file (whose
// extension picks the language).
func (w *walkCheck) check(name, file string, src []byte) {
	l := langFor(file)
	if l == nil || !walkLangs[l.name] {
		return
	}
	ctx := context.Background()
	want, werr := w.p.parse(ctx, file, src, false)
	got, gerr := w.p.parse(ctx, file, src, true)
	w.files[l.name]++
	diff := ""
	switch {
	case werr != nil || gerr != nil:
		if (werr == nil) != (gerr == nil) || werr.Error() != gerr.Error() {
			diff = "query error: " + errString(werr) + "\nwalk error: " + errString(gerr)
		}
	default:
		diff = cmp.Diff(want, got)
	}
	if diff == "" {
		return
	}
	w.mismatch[l.name]++
	if w.shown < maxShownDiffs {
		w.shown++
		w.t.Errorf("%s: walk differs from query (-query +walk):\n%s", name, diff)
	}
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

// variants checks src as it is, with CRLF line ends, and cut in half (error
// recovery shapes trees the whole file does not).
func (w *walkCheck) variants(name, file string, src []byte) {
	w.check(name, file, src)
	w.check(name+" (CRLF)", file, []byte(strings.ReplaceAll(string(src), "\n", "\r\n")))
	w.check(name+" (first half)", file, src[:len(src)/2])
}

func (w *walkCheck) report() {
	var langs []string
	for l := range w.files {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		w.t.Logf("%s: %d sources compared, %d differ", l, w.files[l], w.mismatch[l])
		if w.mismatch[l] > 0 {
			w.t.Errorf("%s: %d of %d sources differ", l, w.mismatch[l], w.files[l])
		}
	}
}

// TestWalkerMatchesQuery holds the generic walk to the query cursor: the
// same definitions, calls, imports and references, byte ranges included,
// on every fixture of every walked language (and their CRLF and cut
// variants), with the raw tree build and with the cursor build. With
// GRIT_WALK_REPOS set to directories separated by ":", it also compares
// every source file under them (each whole and cut in half).
func TestWalkerMatchesQuery(t *testing.T) {
	defer func() { setRawTree(true) }()
	for _, raw := range []bool{true, false} {
		setRawTree(raw)
		name := map[bool]string{true: "raw", false: "cursor"}[raw]
		t.Run(name, func(t *testing.T) {
			before := rawTrees()
			w := newWalkCheck(t)
			walkFixtures(t, w)
			w.report()
			if took := rawTrees() - before; raw && took == 0 || !raw && took != 0 {
				t.Errorf("%s build: the raw build took %d trees", name, took)
			}
		})
	}
	dirs := os.Getenv("GRIT_WALK_REPOS")
	if dirs == "" {
		return
	}
	w := newWalkCheck(t)
	for _, root := range strings.Split(dirs, ":") {
		repoFiles(t, root, func(path string) bool { return langFor(path) != nil }, func(path string, src []byte) {
			w.check(path, path, src)
			w.check(path+" (first half)", path, src[:len(src)/2])
		})
	}
	w.report()
}

// TestWalkerReadsQueries: the walk reads the query of every language it
// serves (one it cannot read would leave the language on the query cursor
// without a word).
func TestWalkerReadsQueries(t *testing.T) {
	for _, l := range languages {
		if !walkLangs[l.name] {
			continue
		}
		if _, err := l.walkerFor(); err != nil {
			t.Errorf("%s: %v", l.name, err)
		}
	}
}

// walkFixtures runs w over the package's and the index's fixtures and a few
// made-up hostile sources.
func walkFixtures(t *testing.T, w *walkCheck) {
	for _, dir := range []string{"testdata/langs", "testdata/names"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			w.variants(path, path, src)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{"testdata/walker.txtar", "../testdata/repo.txtar", "../testdata/langs/repo.txtar"} {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			w.variants(file+":"+f.Name, f.Name, f.Data)
		}
	}
	deep := strings.Repeat("f(a.g(", 300) + "x" + strings.Repeat("))", 300)
	for _, file := range []string{"deep.py", "deep.go", "deep.js", "deep.ts", "deep.rs", "deep.java", "deep.c", "deep.cc", "deep.rb"} {
		w.check(file, file, []byte("x = "+deep+";\n"))
		w.check(file+" (braces)", file, []byte(strings.Repeat("{", 2000)+strings.Repeat("}", 2000)))
		w.check(file+" (invalid UTF-8)", file, []byte("func f\xff(x) {\n  '\xfe'\n  return g\xc3(x)\n}\nimport a\xff.b\n"))
	}
}

// TestWalkerRefusesWhatItCannotRun: query forms the walk does not run are
// errors when it reads the query (the language then stays on the cursor),
// never patterns quietly matched some other way.
func TestWalkerRefusesWhatItCannotRun(t *testing.T) {
	for _, src := range []string{
		`(block (statement)* @s)`,                             // repetition
		`(call (identifier)+ @c)`,                             // repetition
		`([(a) (b)] (string) @s) @import`,                     // a top-level grouping
		`(binary_expression "+" @op)`,                         // an anonymous node by its text
		`(call function: (identifier) @c`,                     // unclosed
		`(call_expression (identifier) @c (#match? @c "^f"))`, // a predicate the index does not run
	} {
		pats, err := parseSCM(src)
		if err == nil {
			l := langFor("x.go")
			if _, err = buildWalker(l, src); err == nil {
				t.Errorf("query %q read as %d patterns, want an error", src, len(pats))
			}
		}
	}
	// A language whose query the walk cannot read runs the cursor.
	l := &language{name: "go"}
	l.genericOnce.Do(func() { l.genericErr = errNoWalk })
	if w := l.walkerOf(true); w != nil {
		t.Errorf("walkerOf with an unreadable query = %v, want nil (the query cursor)", w)
	}
}

var errNoWalk = errors.New("unreadable")
