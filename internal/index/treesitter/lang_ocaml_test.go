//go:build ocaml

package treesitter

import "testing"

// OCaml is built in with -tags ocaml only (languages_ocaml.go): these tests
// run under the tag, and TestHostileInput gives its fixtures too.
func init() {
	newLangFixtures = append(newLangFixtures, "ocaml/cart.ml", "ocaml/cart.mli")
}

// TestLangFixturesOCaml is TestLangFixtures for OCaml (issue 27, item 3):
// module-level functions (let rec … and … one each), types, exceptions,
// classes with their methods (counter.incr), modules and module types as
// namespaces (Cart.create is create), external and val specifications;
// calls and open imports. The .mli fixture goes through the interface
// grammar.
func TestLangFixturesOCaml(t *testing.T) {
	checkLangCases(t, []langCase{
		{file: "ocaml/cart.ml", defs: []langDef{
			{"class", "item", "4-4", "type item = { name : string; price : float }", "A cart item — priced 🛒.", "type item = { name : string; price : float }", "type item = { name : string; price : float }"},
			{"class", "shape", "6-6", "shape = Circle of float | Square of float", "", "shape = Circle of float | Square of float", "shape = Circle of float | Square of float"},
			{"class", "color", "7-7", "color = Red | Green", "", "color = Red | Green", "color = Red | Green"},
			{"class", "Empty_cart", "9-9", "exception Empty_cart", "", "exception Empty_cart", "exception Empty_cart"},
			{"function", "add", "14-14", "let add items item = item :: items", "日本語: adds an item.", "let add items item = item :: items", "let add items item = item :: items"},
			{"function", "total", "16-18", "total = function", "", "total = function", "| x :: rest -> x.price +. total rest"},
			{"function", "count", "20-20", "count items = List.length items", "", "count items = List.length items", "count items = List.length items"},
			{"class", "Cart", "24-36", "module Cart = struct", "", "module Cart = struct", "end"},
			{"class", "t", "25-25", "type t = { mutable items : item list }", "", "type t = { mutable items : item list }", "type t = { mutable items : item list }"},
			{"function", "create", "27-27", "let create () = { items = [] }", "", "let create () = { items = [] }", "let create () = { items = [] }"},
			{"function", "push", "29-31", "let push c i =", "", "let push c i =", "c.items <- add c.items i"},
			{"class", "Audit", "33-35", "module Audit = struct", "", "module Audit = struct", "end"},
			{"function", "log", "34-34", "let log msg = eprintf \"%s\\n\" msg", "", "let log msg = eprintf \"%s\\n\" msg", "let log msg = eprintf \"%s\\n\" msg"},
			{"class", "STORE", "38-40", "module type STORE = sig", "", "module type STORE = sig", "end"},
			{"function", "find", "39-39", "val find : string -> item option", "", "val find : string -> item option", "val find : string -> item option"},
			{"class", "Make", "42-44", "module Make (S : STORE) = struct", "", "module Make (S : STORE) = struct", "end"},
			{"function", "lookup", "43-43", "let lookup name = S.find name", "", "let lookup name = S.find name", "let lookup name = S.find name"},
			{"class", "counter", "46-52", "class counter init = object (self)", "", "class counter init = object (self)", "end"},
			{"method", "counter.incr", "48-48", "method incr = n <- n + 1", "", "method incr = n <- n + 1", "method incr = n <- n + 1"},
			{"method", "counter.get", "49-49", "method get = n", "", "method get = n", "method get = n"},
			{"method", "counter.reset", "50-50", "method reset = self#set 0", "", "method reset = self#set 0", "method reset = self#set 0"},
			{"method", "counter.set", "51-51", "method private set v = n <- v", "", "method private set v = n <- v", "method private set v = n <- v"},
			{"function", "double", "54-54", "let double = fun x -> x * 2", "", "let double = fun x -> x * 2", "let double = fun x -> x * 2"},
			{"function", "length", "55-55", "external length : string -> int = \"caml_string_length\"", "", "external length : string -> int = \"caml_string_length\"", "external length : string -> int = \"caml_string_length\""},
			{"function", "+!", "56-56", "let ( +! ) a b = a + b", "", "let ( +! ) a b = a + b", "let ( +! ) a b = a + b"},
		},
			calls:   "total@total length@count printf@ count@push raise@push add@push eprintf@log find@lookup set@counter.reset",
			imports: "Printf||",
		},
		{file: "ocaml/cart.mli", defs: []langDef{
			{"class", "item", "4-4", "type item = { name : string; price : float }", "A cart item — priced 🛒.", "type item = { name : string; price : float }", "type item = { name : string; price : float }"},
			{"class", "t", "6-6", "type t", "", "type t", "type t"},
			{"function", "add", "9-9", "val add : item list -> item -> item list", "日本語: adds an item.", "val add : item list -> item -> item list", "val add : item list -> item -> item list"},
			{"variable", "limit", "10-10", "val limit : int", "", "val limit : int", "val limit : int"},
			{"function", "+!", "11-11", "val ( +! ) : int -> int -> int", "", "val ( +! ) : int -> int -> int", "val ( +! ) : int -> int -> int"},
			{"function", "length", "12-12", "external length : string -> int = \"caml_string_length\"", "", "external length : string -> int = \"caml_string_length\"", "external length : string -> int = \"caml_string_length\""},
			{"class", "Empty_cart", "13-13", "exception Empty_cart", "", "exception Empty_cart", "exception Empty_cart"},
			{"class", "Audit", "15-17", "module Audit : sig", "", "module Audit : sig", "end"},
			{"function", "log", "16-16", "val log : string -> unit", "", "val log : string -> unit", "val log : string -> unit"},
			{"class", "STORE", "19-21", "module type STORE = sig", "", "module type STORE = sig", "end"},
			{"function", "find", "20-20", "val find : string -> item option", "", "val find : string -> item option", "val find : string -> item option"},
			{"class", "counter", "23-26", "class counter : int -> object", "", "class counter : int -> object", "end"},
			{"method", "counter.incr", "24-24", "method incr : unit", "", "method incr : unit", "method incr : unit"},
			{"method", "counter.get", "25-25", "method get : int", "", "method get : int", "method get : int"},
		},
			calls:   "",
			imports: "Printf||",
		},
	})
}

// TestLangForOCaml: .ml is OCaml, .mli an OCaml interface, in any case.
func TestLangForOCaml(t *testing.T) {
	p := New()
	for file, want := range map[string]string{"cart.ml": "ocaml", "cart.mli": "ocaml_interface", "CART.ML": "ocaml"} {
		if got := p.Lang(file); got != want {
			t.Errorf("Lang(%q) = %q, want %q", file, got, want)
		}
	}
	if u := NotBuiltIn(); len(u) != 0 {
		t.Errorf("NotBuiltIn() = %v with -tags ocaml, want none", u)
	}
}
