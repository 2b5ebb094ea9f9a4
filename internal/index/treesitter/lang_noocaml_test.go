//go:build !ocaml

package treesitter

import (
	"context"
	"go/build"
	"slices"
	"strings"
	"testing"
)

// TestOCamlNotBuiltIn: without -tags ocaml, an OCaml file is no language
// of the build, and parsing one says how to build it in.
func TestOCamlNotBuiltIn(t *testing.T) {
	p := New()
	for _, file := range []string{"cart.ml", "cart.mli"} {
		if got := p.Lang(file); got != "" {
			t.Errorf("Lang(%q) = %q without -tags ocaml, want \"\"", file, got)
		}
		_, err := p.Parse(context.Background(), file, []byte("let f x = x\n"))
		if err == nil || !strings.Contains(err.Error(), "not built into this binary (build it with: go build -tags ocaml ./cmd/grit)") {
			t.Errorf("Parse(%s) = %v, want an error naming -tags ocaml", file, err)
		}
	}
	var names []string
	for _, u := range NotBuiltIn() {
		names = append(names, u.Name+" "+strings.Join(u.Exts, " ")+" "+u.Tags)
	}
	if got, want := strings.Join(names, "; "), "ocaml .ml ocaml; ocaml_interface .mli ocaml"; got != want {
		t.Errorf("NotBuiltIn() = %q, want %q", got, want)
	}
	if _, err := p.Parse(context.Background(), "cart.xyz", nil); err == nil || !strings.Contains(err.Error(), "unsupported language") {
		t.Errorf("Parse(cart.xyz) = %v, want unsupported language", err)
	}
}

// TestOCamlOutOfDefaultBuild: the package's default build does not import
// the OCaml grammars; they are 100 s of CPU on a first build
// (docs/performance-notes.md, "Build time and languages").
func TestOCamlOutOfDefaultBuild(t *testing.T) {
	pkg, err := build.Default.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(pkg.Imports, func(p string) bool { return strings.Contains(p, "tree-sitter-ocaml") }); i >= 0 {
		t.Errorf("the default build imports %s; OCaml belongs behind -tags ocaml", pkg.Imports[i])
	}
	ctx := build.Default
	ctx.BuildTags = []string{"ocaml"}
	if pkg, err = ctx.ImportDir(".", 0); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(pkg.Imports, "github.com/tree-sitter/tree-sitter-ocaml/bindings/go") {
		t.Errorf("-tags ocaml does not import the OCaml grammars: %v", pkg.Imports)
	}
}
