//go:build !ocaml

package treesitter

// Without -tags ocaml, OCaml files are not parsed; `grit doctor` and a
// parse of one say how to build them in (languages_ocaml.go says why not).
func init() {
	notBuiltIn = append(notBuiltIn,
		Unbuilt{Name: "ocaml", Exts: []string{".ml"}, Tags: "ocaml"},
		Unbuilt{Name: "ocaml_interface", Exts: []string{".mli"}, Tags: "ocaml"})
}
