package internal_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Size limits of non-test code (docs/design.md, Rules): a file past
// maxFileLines has stopped having one subject; a function past
// maxFuncLines says why in its doc comment with longMarker, or is split.
const (
	maxFileLines = 800
	maxFuncLines = 120
	longMarker   = "long:"
)

// pendingLong are long functions in code that other work in progress
// owns; each is to gain its reason or be split there, and leaves this
// list then (the test fails while an entry is stale).
var pendingLong = map[string]string{}

func TestSizes(t *testing.T) {
	for _, v := range sizeViolations(t, []string{"../cmd", "."}, pendingLong) {
		t.Error(v)
	}
}

// TestSizesCatchLongCode is the test of the test: a long function without
// the marker, and a long file, are reported; the marker excuses a function.
func TestSizesCatchLongCode(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("\tx++\n", maxFuncLines)
	files := map[string]string{
		"long.go":     "package p\n\n// f adds.\nfunc f(x int) {\n" + body + "}\n",
		"excused.go":  "package p\n\n// g adds.\n// long: one flat sequence of steps.\nfunc g(x int) {\n" + body + "}\n",
		"big.go":      "package p\n\n" + strings.Repeat("var _ = 1\n", maxFileLines),
		"big_test.go": "package p\n\n" + strings.Repeat("var _ = 2\n", maxFileLines),
		"short.go":    "package p\n\nfunc h() {}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := sizeViolations(t, []string{dir}, nil)
	want := []string{
		fmt.Sprintf("big.go: %d lines, over %d", maxFileLines+2, maxFileLines),
		fmt.Sprintf("long.go:4: f is %d lines, over %d, and its doc comment gives no reason (%q)", maxFuncLines+2, maxFuncLines, longMarker),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sizeViolations =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := sizeViolations(t, []string{dir}, map[string]string{"nowhere.go:f": "x"}); !strings.Contains(strings.Join(got, "\n"), "pendingLong names nowhere.go:f") {
		t.Errorf("a stale pending entry is not reported: %q", got)
	}
}

// sizeViolations lists, sorted by path, the non-test Go files under dirs
// over maxFileLines and their functions over maxFuncLines without
// longMarker in the doc comment, except those pending names (by
// "path:name", path relative to the module root); a pending entry that
// is not such a function is reported too.
func sizeViolations(t *testing.T, dirs []string, pending map[string]string) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != dir {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
			if err != nil {
				return err
			}
			rel := moduleRel(path)
			if n := bytes.Count(src, []byte("\n")); n > maxFileLines {
				out = append(out, fmt.Sprintf("%s: %d lines, over %d", rel, n, maxFileLines))
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				start := fset.Position(fd.Pos()).Line
				n := fset.Position(fd.End()).Line - start + 1
				if n <= maxFuncLines || strings.Contains(fd.Doc.Text(), longMarker) {
					continue
				}
				key := rel + ":" + fd.Name.Name
				if _, ok := pending[key]; ok {
					seen[key] = true
					continue
				}
				out = append(out, fmt.Sprintf("%s:%d: %s is %d lines, over %d, and its doc comment gives no reason (%q)", rel, start, fd.Name.Name, n, maxFuncLines, longMarker))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var stale []string
	for key := range pending {
		if !seen[key] {
			stale = append(stale, fmt.Sprintf("pendingLong names %s, which is no longer a long function without a reason: remove the entry", key))
		}
	}
	sort.Strings(stale)
	return append(out, stale...)
}

// moduleRel is path relative to the module root, slash-separated (this
// test runs in internal/).
func moduleRel(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	root, _ := filepath.Abs("..")
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.Base(path)
}
