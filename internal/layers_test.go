package internal_test

import (
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/grit-dev/grit/"

// allowed lists, for each package, the internal packages it may import. The
// rules are ARCHITECTURE.md's "Who may import whom"; a package missing here
// fails the test, so a new package must take its place in the layering.
var allowed = map[string][]string{
	"cmd/grit":                  {"internal/cli", "internal/prefault"},
	"internal/cli":              {"internal/app", "*"},
	"internal/web":              {"internal/app", "*"},
	"internal/mcp":              {"internal/app", "*"},
	"internal/app":              {"*"},
	"internal/tui":              {"internal/agent", "internal/provider", "internal/edit", "internal/span"},
	"internal/agent":            {"internal/provider", "internal/tool", "internal/session", "internal/contextfiles", "internal/permission", "internal/sandbox", "internal/edit", "internal/search", "internal/index", "internal/span", "internal/config", "internal/store"},
	"internal/fix":              {"internal/provider", "internal/tool", "internal/session", "internal/contextfiles", "internal/permission", "internal/sandbox", "internal/edit", "internal/search", "internal/index", "internal/span", "internal/config", "internal/store"},
	"internal/tool":             {"internal/search", "internal/index", "internal/edit", "internal/sandbox", "internal/permission", "internal/span", "internal/store", "internal/config"},
	"internal/contextfiles":     {"internal/span", "internal/config"},
	"internal/mcpclient":        {"internal/tool", "internal/edit", "internal/config", "internal/span"},
	"internal/search":           {"internal/index", "internal/store", "internal/span"},
	"internal/index":            {"internal/store", "internal/span"},
	"internal/index/treesitter": {"internal/index", "internal/span"},
	"internal/session":          {"internal/store", "internal/provider", "internal/span"},
	"internal/edit":             {"internal/span"},
	"internal/permission":       {"internal/config", "internal/span"},
	"internal/provider":         {},
	"internal/span":             {},
	"internal/store":            {},
	"internal/config":           {},
	"internal/sandbox":          {},
	"internal/prefault":         {},
}

// The faces are peers: web and mcp never import cli or each other. cli may
// import them only to launch them (grit explore, grit mcp); docs/design.md says why.
var forbidden = map[string][]string{
	"internal/web": {"internal/cli", "internal/mcp"},
	"internal/tui": {"internal/cli", "internal/app", "internal/web", "internal/mcp"},
	"internal/mcp": {"internal/cli", "internal/web"},
}

func TestLayers(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range packages(t, root) {
		rules, ok := allowed[pkg]
		if !ok {
			// Sub-packages inherit their parent's rules (internal/provider/anthropic → internal/provider).
			for p := pkg; p != "." && !ok; p = filepath.ToSlash(filepath.Dir(p)) {
				rules, ok = allowed[p]
			}
			if !ok {
				t.Errorf("package %s has no place in the layering: add it to allowed in layers_test.go and ARCHITECTURE", pkg)
				continue
			}
		}
		bp, err := build.ImportDir(filepath.Join(root, pkg), 0)
		if err != nil {
			t.Errorf("%s: %v", pkg, err)
			continue
		}
		imports := append(append([]string{}, bp.Imports...), bp.TestImports...)
		for _, imp := range imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			if dep == pkg || strings.HasPrefix(dep, pkg+"/") || strings.HasPrefix(pkg, dep+"/") {
				continue // own sub-packages and parent are one unit
			}
			for _, f := range forbidden[pkg] {
				if dep == f {
					t.Errorf("%s imports %s: the faces are peers and must not import each other", pkg, dep)
				}
			}
			if !permitted(rules, dep) {
				t.Errorf("%s imports %s, which ARCHITECTURE.md does not allow (allowed: %v)", pkg, dep, rules)
			}
		}
		if pkg != "internal/index/treesitter" && !strings.HasPrefix(pkg, "internal/store") && pkg != "internal/app" {
			for _, imp := range bp.Imports {
				if imp == "C" || strings.Contains(imp, "go-tree-sitter") || strings.Contains(imp, "go-sqlite3") {
					if !(strings.HasPrefix(pkg, "internal/index/treesitter")) {
						t.Errorf("%s imports %s: cgo enters only through index/treesitter and store", pkg, imp)
					}
				}
			}
		}
	}
}

func permitted(rules []string, dep string) bool {
	for _, r := range rules {
		if r == "*" || r == dep || strings.HasPrefix(dep, r+"/") {
			return true
		}
	}
	return false
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
