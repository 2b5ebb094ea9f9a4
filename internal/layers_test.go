package internal_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/grit-dev/grit/"

// The rules are the table "Who may import whom" in docs/design.md: one row
// per package, naming every module package it may import, and the
// third-party cgo it may bring in. This test reads them from there, so the
// document and the check cannot drift apart; a package missing from the
// table fails, so a new package must take its place in the layering.

// rule is one row of the table.
type rule struct {
	imports  []string // module packages its non-test files may import
	testOnly []string // further module packages its tests may import
	cgo      []string // import paths (or prefixes ending in "/") of cgo it may bring in
}

// graph is the module as go list sees it.
type graph struct {
	pkgs map[string]*pkg // by path relative to the module ("internal/search")
}

type pkg struct {
	imports, testImports []string // module packages, relative
	cgo                  []string // direct imports that are, or pull in, cgo ("C" for its own)
}

func TestLayers(t *testing.T) {
	rules := readRules(t, filepath.Join("..", "docs", "design.md"))
	g := loadGraph(t)
	for _, v := range violations(rules, g) {
		t.Error(v)
	}
}

// TestLayersCatchesNewArrows is the test of the test: an arrow or a cgo
// import outside the written rules is reported, and one inside is not.
func TestLayersCatchesNewArrows(t *testing.T) {
	rules := map[string]rule{
		"internal/search":           {imports: []string{"internal/index"}},
		"internal/index":            {testOnly: []string{"internal/index/treesitter"}},
		"internal/index/treesitter": {imports: []string{"internal/index"}, cgo: []string{"C", "github.com/tree-sitter/"}},
	}
	ok := graph{pkgs: map[string]*pkg{
		"internal/search":           {imports: []string{"internal/index"}},
		"internal/index":            {testImports: []string{"internal/index/treesitter"}},
		"internal/index/treesitter": {imports: []string{"internal/index"}, cgo: []string{"C", "github.com/tree-sitter/go-tree-sitter"}},
	}}
	if v := violations(rules, ok); len(v) != 0 {
		t.Fatalf("violations(the written graph) = %q, want none", v)
	}
	for _, tc := range []struct {
		name string
		edit func(g graph)
		want string
	}{
		{"upward arrow", func(g graph) { g.pkgs["internal/index"].imports = []string{"internal/search"} }, "internal/index imports internal/search"},
		{"test arrow in production", func(g graph) { g.pkgs["internal/index"].imports = []string{"internal/index/treesitter"} }, "internal/index imports internal/index/treesitter"},
		{"test arrow in a test", func(g graph) { g.pkgs["internal/search"].testImports = []string{"internal/index/treesitter"} }, "internal/search's tests import internal/index/treesitter"},
		{"cgo elsewhere", func(g graph) { g.pkgs["internal/search"].cgo = []string{"C"} }, "internal/search brings in cgo through C"},
		{"cgo by a dependency", func(g graph) { g.pkgs["internal/search"].cgo = []string{"github.com/mattn/go-sqlite3"} }, "internal/search brings in cgo through github.com/mattn/go-sqlite3"},
		{"new package", func(g graph) { g.pkgs["internal/util"] = &pkg{} }, "internal/util has no row"},
	} {
		g := graph{pkgs: map[string]*pkg{}}
		for k, p := range ok.pkgs {
			c := *p
			g.pkgs[k] = &c
		}
		tc.edit(g)
		v := strings.Join(violations(rules, g), "\n")
		if !strings.Contains(v, tc.want) {
			t.Errorf("%s: violations = %q, want one saying %q", tc.name, v, tc.want)
		}
	}
}

// violations lists every arrow and cgo import of g outside rules.
func violations(rules map[string]rule, g graph) []string {
	var out []string
	names := make([]string, 0, len(g.pkgs))
	for name := range g.pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := g.pkgs[name]
		r, ok := rules[name]
		if !ok {
			out = append(out, fmt.Sprintf("%s has no row in docs/design.md's \"Who may import whom\": give it its place in the layering", name))
			continue
		}
		for _, dep := range p.imports {
			if !slices.Contains(r.imports, dep) {
				out = append(out, fmt.Sprintf("%s imports %s, which docs/design.md does not allow (may import: %s)", name, dep, strings.Join(r.imports, ", ")))
			}
		}
		for _, dep := range p.testImports {
			if dep != name && !slices.Contains(r.imports, dep) && !slices.Contains(r.testOnly, dep) {
				out = append(out, fmt.Sprintf("%s's tests import %s, which docs/design.md does not allow", name, dep))
			}
		}
		for _, c := range p.cgo {
			if !slices.ContainsFunc(r.cgo, func(allowed string) bool {
				return c == allowed || strings.HasSuffix(allowed, "/") && strings.HasPrefix(c, allowed)
			}) {
				out = append(out, fmt.Sprintf("%s brings in cgo through %s: cgo enters only where docs/design.md says", name, c))
			}
		}
	}
	return out
}

// readRules parses the table that follows the heading "Who may import
// whom": | package | may import | tests may also import | cgo |, lists
// comma-separated, "—" for none.
func readRules(t *testing.T, path string) map[string]rule {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules := map[string]rule{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			in = strings.Contains(line, "Who may import whom")
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("%s: row %q has %d cells, want 4", path, line, len(cells))
		}
		list := func(cell string) []string {
			var out []string
			for _, f := range strings.Split(cell, ",") {
				if f = strings.Trim(strings.TrimSpace(f), "`"); f != "" && f != "—" {
					if f == "*" {
						t.Fatalf("%s: %q: a wildcard is not a rule; name each package", path, line)
					}
					out = append(out, f)
				}
			}
			return out
		}
		name := prefixed(list(cells[0]))[0]
		rules[name] = rule{imports: prefixed(list(cells[1])), testOnly: prefixed(list(cells[2])), cgo: list(cells[3])}
	}
	if len(rules) == 0 {
		t.Fatalf("%s has no \"Who may import whom\" table", path)
	}
	return rules
}

// prefixed writes the table's short names ("search", "index/treesitter")
// as module paths ("internal/search").
func prefixed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		if !strings.HasPrefix(n, "cmd/") && !strings.HasPrefix(n, "internal/") {
			n = "internal/" + n
		}
		out[i] = n
	}
	return out
}

// loadGraph asks go list for the module's packages, their module imports,
// and which of their direct imports are, or pull in, cgo.
func loadGraph(t *testing.T) graph {
	t.Helper()
	type listed struct {
		ImportPath                         string
		Standard                           bool
		GoFiles, CgoFiles                  []string
		Imports, TestImports, XTestImports []string
		Deps                               []string
	}
	cmd := exec.Command("go", "list", "-deps", "-test=false", "-json=ImportPath,Standard,GoFiles,CgoFiles,Imports,TestImports,XTestImports,Deps", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	all := map[string]listed{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var l listed
		if err := dec.Decode(&l); err != nil {
			t.Fatal(err)
		}
		all[l.ImportPath] = l
	}
	cgo := func(path string) bool { // a non-standard package using cgo, itself or below
		l := all[path]
		if l.Standard {
			return false
		}
		if len(l.CgoFiles) > 0 {
			return true
		}
		for _, d := range l.Deps {
			if dl := all[d]; !dl.Standard && len(dl.CgoFiles) > 0 {
				return true
			}
		}
		return false
	}
	g := graph{pkgs: map[string]*pkg{}}
	rel := func(paths []string, self string) []string {
		var out []string
		for _, p := range paths {
			if r, ok := strings.CutPrefix(p, module); ok && r != self && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		sort.Strings(out)
		return out
	}
	for path, l := range all {
		name, ok := strings.CutPrefix(path, module)
		if !ok || len(l.GoFiles)+len(l.CgoFiles) == 0 {
			continue // not ours, or tests only (this file's package)
		}
		p := &pkg{imports: rel(l.Imports, name), testImports: rel(append(l.TestImports, l.XTestImports...), name)}
		if len(l.CgoFiles) > 0 {
			p.cgo = append(p.cgo, "C")
		}
		for _, imp := range l.Imports {
			if !strings.HasPrefix(imp, module) && imp != "C" && cgo(imp) {
				p.cgo = append(p.cgo, imp)
			}
		}
		g.pkgs[name] = p
	}
	return g
}

// packages lists the module's Go package directories relative to root.
func packages(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs" || name == "scripts") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			rel = filepath.ToSlash(rel)
			if rel != "." && (len(out) == 0 || out[len(out)-1] != rel) {
				out = append(out, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	out = dedup(out)
	return out
}

func dedup(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || s[i-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// TestPackageDocs checks that every package has exactly one package doc comment.
func TestPackageDocs(t *testing.T) {
	root, _ := filepath.Abs("..")
	for _, pkg := range packages(t, root) {
		if pkg == "." {
			continue
		}
		bp, err := build.ImportDir(filepath.Join(root, pkg), build.ImportComment)
		if err != nil {
			continue
		}
		docs := 0
		for _, f := range bp.GoFiles {
			src, err := os.ReadFile(filepath.Join(root, pkg, f))
			if err != nil {
				t.Fatal(err)
			}
			if hasPackageDoc(string(src)) {
				docs++
			}
		}
		if docs != 1 {
			t.Errorf("package %s has %d package doc comments, want exactly 1", pkg, docs)
		}
	}
}

// hasPackageDoc reports whether a "// Package x" or "// Command x" comment
// directly precedes the package clause.
func hasPackageDoc(src string) bool {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "package ") {
			return i > 0 && strings.HasPrefix(lines[i-1], "//") && !strings.HasPrefix(lines[i-1], "//go:")
		}
	}
	return false
}
