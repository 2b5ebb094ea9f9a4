//go:build ocaml

package treesitter

import tsocaml "github.com/tree-sitter/tree-sitter-ocaml/bindings/go"

// OCaml is built in only with -tags ocaml: its Go package compiles three
// grammars (100 MB of parser.c), which would take a first build past its
// budget (docs/performance-notes.md, "Build time and languages").
func init() {
	ml := newLanguage("ocaml", "ocaml", tsocaml.LanguageOCaml(), ".ml")
	ml.refs = []string{"value_name", "type_constructor", "constructor_name", "module_name", "class_name", "method_name"}
	mli := newLanguage("ocaml_interface", "ocaml_interface", tsocaml.LanguageOCamlInterface(), ".mli")
	mli.refs = ml.refs
	languages = append(languages, ml, mli)
}
