package treesitter

import "testing"

// TestLangFixturesMore is TestLangFixtures for the languages added after
// HCL (issue 27, item 3): Kotlin, Swift, Scala and R with qualified names,
// calls and imports (R's R6 and reference classes give Cart.add, S4's
// setMethod Store.describe); Elixir, Zig, Dart, Haskell and Julia at
// LevelDefinitions (no calls or imports); OCaml in lang_ocaml_test.go.
// Each definition's range is its
// source, as written and with CRLF line ends; TestHostileInput gives the
// same fixtures hostile variants.
func TestLangFixturesMore(t *testing.T) {
	checkLangCases(t, []langCase{
		{file: "kotlin/Cart.kt", defs: []langDef{
			{"class", "Cart", "9-27", "class Cart(val owner: String) : Store", "A cart — holds items 🛒.", "class Cart(val owner: String) : Store {", "}"},
			{"method", "Cart.add", "13-16", "override fun add(item: Item)", "日本語: adds an item.", "override fun add(item: Item) {", "}"},
			{"method", "Cart.total", "18-18", "fun total(): Int", "", "fun total(): Int = items.sumOf { max(it.price, 0) }", "fun total(): Int = items.sumOf { max(it.price, 0) }"},
			{"class", "Cart.Line", "20-22", "class Line(val name: String)", "", "class Line(val name: String) {", "}"},
			{"method", "Line.render", "21-21", "fun render(): String", "", "fun render(): String = String.format(\"%s\", name)", "fun render(): String = String.format(\"%s\", name)"},
			{"method", "Cart.empty", "25-25", "fun empty(): Cart", "", "fun empty(): Cart = Cart(\"nobody\")", "fun empty(): Cart = Cart(\"nobody\")"},
			{"class", "Store", "29-31", "interface Store", "", "interface Store {", "}"},
			{"method", "Store.add", "30-30", "fun add(item: Item)", "", "fun add(item: Item)", "fun add(item: Item)"},
			{"class", "Registry", "33-35", "object Registry", "", "object Registry {", "}"},
			{"class", "Status", "37-37", "enum class Status", "", "enum class Status { OPEN, CLOSED }", "enum class Status { OPEN, CLOSED }"},
			{"class", "Pair", "39-39", "data class Pair(val key: String, val value: Int)", "", "data class Pair(val key: String, val value: Int)", "data class Pair(val key: String, val value: Int)"},
			{"class", "Carts", "41-41", "typealias Carts = List<Cart>", "", "typealias Carts = List<Cart>", "typealias Carts = List<Cart>"},
			{"method", "Cart.describe", "43-43", "fun Cart.describe(): String", "", "fun Cart.describe(): String = \"cart of $owner\"", "fun Cart.describe(): String = \"cart of $owner\""},
			{"variable", "LIMIT", "45-45", "val LIMIT = 10", "", "val LIMIT = 10", "val LIMIT = 10"},
			{"function", "log", "47-49", "private fun log(msg: String)", "", "private fun log(msg: String) {", "}"},
		},
			calls:   "ArrayList@Cart add@Cart.add log@Cart.add sumOf@Cart.total max@Cart.total format@Line.render Cart@Cart.empty mutableListOf@Registry println@log",
			imports: "java.util.ArrayList|| kotlin.math.max|| shop.util|*| shop.tax.Rate||TaxRate",
		},
		{file: "swift/Cart.swift", defs: []langDef{
			{"class", "Cart", "5-22", "class Cart: Store", "A cart — holds items 🛒.", "class Cart: Store {", "}"},
			{"method", "Cart.init", "9-11", "init(owner: String)", "", "init(owner: String) {", "}"},
			{"method", "Cart.add", "14-17", "func add(_ item: Item)", "日本語: adds an item.", "func add(_ item: Item) {", "}"},
			{"class", "Cart.Line", "19-21", "struct Line", "", "struct Line {", "}"},
			{"method", "Line.render", "20-20", "func render() -> String", "", "func render() -> String { return String(format: \"%d\", 1) }", "func render() -> String { return String(format: \"%d\", 1) }"},
			{"class", "Store", "24-26", "protocol Store", "", "protocol Store {", "}"},
			{"method", "Store.add", "25-25", "func add(_ item: Item)", "", "func add(_ item: Item)", "func add(_ item: Item)"},
			{"class", "Point", "28-28", "struct Point", "", "struct Point { var x: Int }", "struct Point { var x: Int }"},
			{"class", "Status", "30-30", "enum Status", "", "enum Status { case open, closed }", "enum Status { case open, closed }"},
			{"method", "Cart.total", "33-33", "func total() -> Int", "", "func total() -> Int { return items.reduce(0) { $0 + $1.price } }", "func total() -> Int { return items.reduce(0) { $0 + $1.price } }"},
			{"class", "Carts", "36-36", "typealias Carts = [Cart]", "", "typealias Carts = [Cart]", "typealias Carts = [Cart]"},
			{"function", "log", "38-40", "func log(_ msg: String)", "", "func log(_ msg: String) {", "}"},
		},
			calls:   "append@Cart.add log@Cart.add String@Line.render reduce@Cart.total print@log",
			imports: "Foundation|| Shop.Item||",
		},
		{file: "scala/Cart.scala", defs: []langDef{
			{"class", "Cart", "8-22", "class Cart(val owner: String) extends Store", "A cart — holds items 🛒.", "class Cart(val owner: String) extends Store {", "}"},
			{"method", "Cart.add", "12-15", "def add(item: Item): Unit", "日本語: adds an item.", "def add(item: Item): Unit = {", "}"},
			{"method", "Cart.total", "17-17", "def total: Int", "", "def total: Int = items.map(_.price).sum", "def total: Int = items.map(_.price).sum"},
			{"class", "Cart.Line", "19-21", "class Line(name: String)", "", "class Line(name: String) {", "}"},
			{"method", "Line.render", "20-20", "def render(): String", "", "def render(): String = String.format(\"%s\", name)", "def render(): String = String.format(\"%s\", name)"},
			{"class", "Cart", "24-26", "object Cart", "", "object Cart {", "}"},
			{"method", "Cart.empty", "25-25", "def empty(): Cart", "", "def empty(): Cart = new Cart(\"nobody\")", "def empty(): Cart = new Cart(\"nobody\")"},
			{"class", "Store", "28-30", "trait Store", "", "trait Store {", "}"},
			{"method", "Store.add", "29-29", "def add(item: Item): Unit", "", "def add(item: Item): Unit", "def add(item: Item): Unit"},
			{"class", "Pair", "32-32", "case class Pair(key: String, value: Int)", "", "case class Pair(key: String, value: Int)", "case class Pair(key: String, value: Int)"},
			{"class", "Status", "34-36", "enum Status", "", "enum Status {", "}"},
			{"class", "Carts", "38-38", "type Carts = List[Cart]", "", "type Carts = List[Cart]", "type Carts = List[Cart]"},
			{"variable", "Limit", "40-40", "val Limit = 10", "", "val Limit = 10", "val Limit = 10"},
			{"function", "log", "42-42", "def log(msg: String): Unit", "", "def log(msg: String): Unit = println(msg)", "def log(msg: String): Unit = println(msg)"},
		},
			calls:   "ListBuffer@Cart log@Cart.add map@Cart.total format@Line.render Cart@Cart.empty println@log",
			imports: "scala.collection.mutable.ListBuffer|| shop.util|*| shop.tax|Rate| shop.tax|Zone|TaxZone",
		},
		{file: "elixir/cart.ex", defs: []langDef{
			{"class", "Shop.Cart", "1-27", "defmodule Shop.Cart", "", "defmodule Shop.Cart do", "end"},
			{"function", "Shop.Cart.add", "9-12", "def add(cart, %Item{} = item)", "日本語: adds an item.", "def add(cart, %Item{} = item) do", "end"},
			{"function", "Shop.Cart.total", "14-14", "def total(cart), do: cart.items |> map(& &1.price) |> Enum.sum()", "", "def total(cart), do: cart.items |> map(& &1.price) |> Enum.sum()", "def total(cart), do: cart.items |> map(& &1.price) |> Enum.sum()"},
			{"function", "Shop.Cart.log", "16-18", "defp log(msg)", "", "defp log(msg) do", "end"},
			{"function", "Shop.Cart.empty", "20-22", "defmacro empty", "", "defmacro empty do", "end"},
			{"class", "Shop.Cart.Line", "24-26", "defmodule Line", "", "defmodule Line do", "end"},
			{"function", "Line.render", "25-25", "def render(line), do: \"#{line.name}\"", "", "def render(line), do: \"#{line.name}\"", "def render(line), do: \"#{line.name}\""},
			{"class", "Shop.Store", "29-31", "defprotocol Shop.Store", "", "defprotocol Shop.Store do", "end"},
			{"function", "Shop.Store.add", "30-30", "def add(store, item)", "", "def add(store, item)", "def add(store, item)"},
		},
			calls:   "",
			imports: "",
		},
		{file: "zig/cart.zig", defs: []langDef{
			{"class", "Cart", "5-20", "pub const Cart =", "A cart — holds items 🛒.", "pub const Cart = struct {", "};"},
			{"function", "Cart.add", "10-13", "pub fn add(self: *Cart, item: Item) !void", "日本語: adds an item.", "pub fn add(self: *Cart, item: Item) !void {", "}"},
			{"function", "Cart.total", "15-19", "pub fn total(self: Cart) u32", "", "pub fn total(self: Cart) u32 {", "}"},
			{"class", "Status", "22-22", "pub const Status =", "", "pub const Status = enum { open, closed };", "pub const Status = enum { open, closed };"},
			{"class", "Value", "24-24", "const Value =", "", "const Value = union(enum) { int: i64, float: f64 };", "const Value = union(enum) { int: i64, float: f64 };"},
			{"function", "log", "26-28", "fn log(msg: []const u8) void", "", "fn log(msg: []const u8) void {", "}"},
			{"function", "add", "30-32", "test \"add\"", "", "test \"add\" {", "}"},
		},
			calls:   "",
			imports: "",
		},
		{file: "haskell/Cart.hs", defs: []langDef{
			{"class", "Item", "8-8", "data Item = Item { name :: String, price :: Int }", "An item in the cart.", "data Item = Item { name :: String, price :: Int }", "data Item = Item { name :: String, price :: Int }"},
			{"class", "Cart", "10-10", "newtype Cart = Cart [Item]", "", "newtype Cart = Cart [Item]", "newtype Cart = Cart [Item]"},
			{"class", "Price", "12-12", "type Price = Int", "", "type Price = Int", "type Price = Int"},
			{"class", "Priced", "15-17", "class Priced a where", "日本語: things with a price.", "class Priced a where", "priceOf _ = 0"},
			{"function", "Priced.priceOf", "16-17", "priceOf :: a -> Int", "", "priceOf :: a -> Int", "priceOf _ = 0"},
			{"function", "priceOf", "20-20", "priceOf (Item _ p)", "", "priceOf (Item _ p) = p", "priceOf (Item _ p) = p"},
			{"function", "total", "22-24", "total :: Cart -> Int", "", "total :: Cart -> Int", "total (Cart (x:xs)) = price x + total (Cart xs)"},
			{"function", "addItem", "27-28", "addItem :: Item -> Cart -> Cart", "Adds an item.", "addItem :: Item -> Cart -> Cart", "addItem i (Cart is) = Cart (i : is)"},
			{"function", "emptyCart", "30-30", "emptyCart", "", "emptyCart = Cart []", "emptyCart = Cart []"},
			{"function", "describe", "32-38", "describe :: Cart -> String", "", "describe :: Cart -> String", "count (Cart xs) = length xs"},
			{"function", "describe.n", "37-37", "n", "", "n = count c", "n = count c"},
			{"function", "describe.count", "38-38", "count (Cart xs)", "", "count (Cart xs) = length xs", "count (Cart xs) = length xs"},
		},
			calls:   "",
			imports: "",
		},
		{file: "julia/cart.jl", defs: []langDef{
			{"class", "Shop", "2-45", "module Shop", "A shopping cart — holds items 🛒.", "module Shop", "end"},
			{"class", "Item", "8-11", "struct Item", "", "struct Item", "end"},
			{"class", "Cart", "13-15", "mutable struct Cart", "", "mutable struct Cart", "end"},
			{"class", "Store", "17-17", "abstract type Store end", "", "abstract type Store end", "abstract type Store end"},
			{"function", "add!", "20-23", "function add!(c::Cart, i::Item)", "日本語: adds an item.", "function add!(c::Cart, i::Item)", "end"},
			{"function", "total", "25-25", "total(c::Cart) = sum(i.price for i in c.items)", "", "total(c::Cart) = sum(i.price for i in c.items)", "total(c::Cart) = sum(i.price for i in c.items)"},
			{"function", "show", "27-27", "Base.show(io::IO, c::Cart) = print(io, \"Cart(\", length(c.items), \")\")", "", "Base.show(io::IO, c::Cart) = print(io, \"Cart(\", length(c.items), \")\")", "Base.show(io::IO, c::Cart) = print(io, \"Cart(\", length(c.items), \")\")"},
			{"function", "log", "29-31", "macro log(msg)", "", "macro log(msg)", "end"},
			{"variable", "LIMIT", "33-33", "const LIMIT = 10", "", "const LIMIT = 10", "const LIMIT = 10"},
			{"class", "Pair", "35-37", "struct Pair{T} <: Store", "", "struct Pair{T} <: Store", "end"},
			{"function", "first_key", "39-39", "first_key(p::Pair{T}) where {T} = p.key", "", "first_key(p::Pair{T}) where {T} = p.key", "first_key(p::Pair{T}) where {T} = p.key"},
			{"function", "count_items", "41-43", "function count_items(c::Cart)::Int", "", "function count_items(c::Cart)::Int", "end"},
		},
			calls:   "",
			imports: "",
		},
		{file: "r/cart.R", defs: []langDef{
			{"class", "Cart", "7-20", "Cart <- R6Class(\"Cart\",", "A cart — holds items 🛒.", "Cart <- R6Class(\"Cart\",", ")"},
			{"method", "Cart.add", "11-14", "add = function(item)", "日本語: adds an item.", "add = function(item) {", "}"},
			{"method", "Cart.total", "15-15", "total = function() sum(vapply(self$items, price, numeric(1)))", "", "total = function() sum(vapply(self$items, price, numeric(1)))", "total = function() sum(vapply(self$items, price, numeric(1)))"},
			{"method", "Cart.check", "18-18", "check = function(item) stopifnot(is.list(item))", "", "check = function(item) stopifnot(is.list(item))", "check = function(item) stopifnot(is.list(item))"},
			{"class", "Account", "22-29", "Account <- setRefClass(\"Account\",", "", "Account <- setRefClass(\"Account\",", ")"},
			{"method", "Account.deposit", "25-27", "deposit = function(x)", "", "deposit = function(x) {", "}"},
			{"function", "new_item", "32-34", "new_item <- function(name, price = 0)", "Builds an item.", "new_item <- function(name, price = 0) {", "}"},
			{"function", "price", "36-36", "price = function(item) item$price", "", "price = function(item) item$price", "price = function(item) item$price"},
			{"function", "last_total", "38-38", "last_total <<- function() 0", "", "last_total <<- function() 0", "last_total <<- function() 0"},
			{"function", "print.cart", "39-39", "\"print.cart\" <- function(x, ...) cat(\"Cart of\", length(x$items), \"\\n\")", "", "\"print.cart\" <- function(x, ...) cat(\"Cart of\", length(x$items), \"\\n\")", "\"print.cart\" <- function(x, ...) cat(\"Cart of\", length(x$items), \"\\n\")"},
			{"function", "`%+%`", "40-40", "`%+%` <- function(cart, item) cart$add(item)", "", "`%+%` <- function(cart, item) cart$add(item)", "`%+%` <- function(cart, item) cart$add(item)"},
			{"class", "Store", "42-42", "setClass(\"Store\", representation(name = \"character\"))", "", "setClass(\"Store\", representation(name = \"character\"))", "setClass(\"Store\", representation(name = \"character\"))"},
			{"function", "describe", "43-43", "setGeneric(\"describe\", function(obj, ...) standardGeneric(\"describe\"))", "", "setGeneric(\"describe\", function(obj, ...) standardGeneric(\"describe\"))", "setGeneric(\"describe\", function(obj, ...) standardGeneric(\"describe\"))"},
			{"method", "Store.describe", "44-46", "setMethod(\"describe\", \"Store\", function(obj, ...)", "", "setMethod(\"describe\", \"Store\", function(obj, ...) {", "})"},
		},
			calls:   "library@ require@ source@ R6Class@Cart list@Cart c@Cart.add invisible@Cart.add sum@Cart.total vapply@Cart.total numeric@Cart.total list@Cart stopifnot@Cart.check is.list@Cart.check setRefClass@Account list@Account list@Account list@new_item cat@print.cart length@print.cart add@`%+%` setClass@Store representation@Store setGeneric@describe standardGeneric@describe setMethod@Store.describe toJSON@Store.describe list@Store.describe",
			imports: "R6|| jsonlite|| utils.R||",
		},
		{file: "dart/cart.dart", defs: []langDef{
			{"class", "Cart", "5-19", "class Cart implements Store", "A cart — holds items 🛒.", "class Cart implements Store {", "}"},
			{"method", "Cart.Cart", "9-9", "Cart(this.owner)", "", "Cart(this.owner)", "Cart(this.owner)"},
			{"method", "Cart.add", "13-13", "void add(Item item)", "", "void add(Item item)", "void add(Item item)"},
			{"method", "Cart.total", "18-18", "int get total", "", "int get total", "int get total"},
			{"class", "Store", "21-23", "abstract class Store", "", "abstract class Store {", "}"},
			{"method", "Store.add", "22-22", "void add(Item item)", "", "void add(Item item)", "void add(Item item)"},
			{"class", "Greets", "25-27", "mixin Greets", "", "mixin Greets {", "}"},
			{"method", "Greets.hello", "26-26", "String hello()", "", "String hello()", "String hello()"},
			{"class", "Status", "29-29", "enum Status", "", "enum Status { open, closed }", "enum Status { open, closed }"},
			{"class", "Describe", "31-33", "extension Describe on Cart", "", "extension Describe on Cart {", "}"},
			{"method", "Describe.describe", "32-32", "String describe()", "", "String describe()", "String describe()"},
			{"class", "Carts", "35-35", "typedef Carts = List<Cart>;", "", "typedef Carts = List<Cart>;", "typedef Carts = List<Cart>;"},
			{"function", "log", "37-37", "void log(String msg)", "", "void log(String msg)", "void log(String msg)"},
		},
			calls:   "",
			imports: "",
		},
	})
}

// TestLangForMore: the extensions of the languages TestLangFixturesMore
// covers map to them, in any case.
func TestLangForMore(t *testing.T) {
	p := New()
	tests := map[string]string{
		"Cart.kt": "kotlin", "build.gradle.kts": "kotlin", "Cart.swift": "swift",
		"Cart.scala": "scala", "build.sc": "scala", "cart.ex": "elixir", "cart_test.exs": "elixir",
		"cart.zig": "zig", "cart.dart": "dart", "CART.KT": "kotlin", "Cart.hs": "haskell", "cart.jl": "julia",
		"cart.R": "r", "cart.r": "r",
	}
	for file, want := range tests {
		if got := p.Lang(file); got != want {
			t.Errorf("Lang(%q) = %q, want %q", file, got, want)
		}
	}
}

// TestDocLineHaddock: Haddock's "-- |" and "-- ^" marks, R's roxygen "#'"
// and OCaml's "(*" and "*)" leave the doc line; another language's comment
// that starts with a pipe keeps it.
func TestDocLineHaddock(t *testing.T) {
	for in, want := range map[string]string{
		"-- | Adds an item.":   "Adds an item.",
		"-- ^ the item's key":  "the item's key",
		"-- plain comment":     "plain comment",
		"// | name | price |":  "| name | price |",
		"#' Adds an item.":     "Adds an item.",
		"# ' quoted":           "' quoted",
		"(** Adds an item. *)": "Adds an item.",
		"(* plain *)":          "plain",
	} {
		if got := docLine([]byte(in), false); got != want {
			t.Errorf("docLine(%q) = %q, want %q", in, got, want)
		}
	}
}
