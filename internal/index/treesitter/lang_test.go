package treesitter

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/index"
)

// langDef is one expected definition: its kind, qualified name, lines,
// signature, doc, and the first and last lines of its source (the bytes of
// its range, the last line trimmed of indentation).
type langDef struct{ Kind, QName, Lines, Sig, Doc, Head, Tail string }

// TestLangFixtures parses a real-looking file of each language under
// testdata/langs and checks what is extracted, and the byte-exactness
// contract: every definition's range is its source (its name inside it, its
// lines and columns agreeing with its offsets), with the file as written and
// with CRLF line ends. The fixtures hold multi-byte UTF-8 comments right
// before definitions, and buffer.c a syntax error. C#, PHP, Bash, Lua and
// HCL came with issue 27; TestHostileInput gives them hostile variants.
func TestLangFixtures(t *testing.T) {
	tests := []langCase{
		{file: "shapes.rs", defs: []langDef{
			{"class", "Point", "12-15", "pub struct Point", "", "pub struct Point {", "}"},
			{"class", "Shape", "18-24", "pub trait Shape", "Every shape has an area.", "pub trait Shape {", "}"},
			{"method", "Shape.area", "20-20", "fn area(&self) -> f64;", "Area in square metres.", "fn area(&self) -> f64;", "fn area(&self) -> f64;"},
			{"method", "Shape.name", "21-23", "fn name(&self) -> String", "", "fn name(&self) -> String {", "}"},
			{"class", "Kind", "27-30", "pub enum Kind", "The kinds of shape.", "pub enum Kind {", "}"},
			{"class", "Circle", "33-36", "pub struct Circle", "日本語のコメント: a circle.", "pub struct Circle {", "}"},
			{"method", "Circle.new", "40-42", "pub fn new(center: Point, radius: f64) -> Self", "Builds a circle.", "pub fn new(center: Point, radius: f64) -> Self {", "}"},
			{"method", "Circle.diameter", "44-46", "fn diameter(&self) -> f64", "", "fn diameter(&self) -> f64 {", "}"},
			{"method", "Circle.area", "50-52", "fn area(&self) -> f64", "", "fn area(&self) -> f64 {", "}"},
			{"method", "Wrapper.fmt", "56-58", "fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result", "", "fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {", "}"},
			{"class", "Wrapper", "61-61", "pub struct Wrapper<T>", "", "pub struct Wrapper<T>(T);", "pub struct Wrapper<T>(T);"},
			{"class", "Table", "63-63", "type Table = HashMap<String, f64>;", "", "type Table = HashMap<String, f64>;", "type Table = HashMap<String, f64>;"},
			{"variable", "LIMIT", "65-65", "const LIMIT: usize = 16;", "", "const LIMIT: usize = 16;", "const LIMIT: usize = 16;"},
			{"function", "square", "67-71", "macro_rules! square", "", "macro_rules! square {", "}"},
			{"function", "total_area", "73-81", "pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64", "", "pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {", "}"},
			{"class", "tests", "83-90", "mod tests", "", "mod tests {", "}"},
			{"function", "it_works", "87-89", "fn it_works()", "", "fn it_works() {", "}"},
		},
			calls:   "from@Shape.name powi@Circle.area write@Wrapper.fmt new@total_area insert@total_area name@total_area area@total_area new@total_area println@total_area values@total_area sum@total_area square@total_area assert_eq@it_works",
			imports: "std::collections|HashMap| std::fmt|self,Display| crate::units|Meters|M super::config|*| units|| super|*|",
		},
		{file: "Inventory.java", defs: []langDef{
			{"class", "Inventory", "12-56", "@Service public class Inventory implements Store", "Keeps items in stock — thread-safe enough for a demo ☕.", "@Service", "}"},
			{"method", "Inventory.Inventory", "18-20", "public Inventory()", "Creates an empty inventory.", "public Inventory() {", "}"},
			{"method", "Inventory.add", "23-30", "@Override public void add(Item item)", "日本語: adds an item.", "@Override", "}"},
			{"method", "Inventory.count", "32-34", "public <T extends Item> int count(Class<T> kind)", "", "public <T extends Item> int count(Class<T> kind) {", "}"},
			{"method", "Inventory.log", "36-38", "private static void log(String msg)", "", "private static void log(String msg) {", "}"},
			{"class", "Inventory.Line", "41-53", "public static class Line", "A line of the report.", "public static class Line {", "}"},
			{"method", "Line.Line", "45-48", "Line(String name, int qty)", "", "Line(String name, int qty) {", "}"},
			{"method", "Line.render", "50-52", "String render()", "", "String render() {", "}"},
			{"class", "Inventory.Status", "55-55", "enum Status", "", "enum Status { OPEN, CLOSED; boolean done() { return this == CLOSED; } }", "enum Status { OPEN, CLOSED; boolean done() { return this == CLOSED; } }"},
			{"method", "Status.done", "55-55", "boolean done()", "", "boolean done() { return this == CLOSED; }", "boolean done() { return this == CLOSED; }"},
			{"class", "Store", "58-61", "interface Store", "", "interface Store {", "}"},
			{"method", "Store.add", "59-59", "void add(Item item);", "", "void add(Item item);", "void add(Item item);"},
			{"method", "Store.size", "60-60", "default int size()", "", "default int size() { return 0; }", "default int size() { return 0; }"},
			{"class", "Audited", "63-65", "@interface Audited", "", "@interface Audited {", "}"},
			{"method", "Audited.value", "64-64", "String value() default \"\";", "", "String value() default \"\";", "String value() default \"\";"},
			{"class", "Pair", "67-71", "record Pair(String key, int value)", "", "record Pair(String key, int value) {", "}"},
			{"method", "Pair.Pair", "68-70", "Pair", "", "Pair {", "}"},
		},
			calls:   "ArrayList@Inventory size@Inventory.add IllegalStateException@Inventory.add add@Inventory.add log@Inventory.add getName@Inventory.add max@Inventory.count stream@Inventory.count filter@Inventory.count count@Inventory.count println@Inventory.log format@Line.render requireNonNull@Pair.Pair",
			imports: "java.util|ArrayList| java.util|List| java.util.concurrent|*| java.lang.Math|max| com.example.shop.model|Item|",
		},
		{file: "c/buffer.c", broken: true, defs: []langDef{
			{"function", "buffer_append", "11-20", "int buffer_append(buffer *b, const char *s, size_t n)", "Appends n bytes of s — growing the buffer when it is full.", "int buffer_append(buffer *b, const char *s, size_t n)", "}"},
			{"function", "buffer_free", "23-26", "void buffer_free(buffer *b)", "日本語: frees the buffer.", "void buffer_free(buffer *b) {", "}"},
			{"function", "grow", "28-35", "static int grow(buffer *b, size_t need)", "", "static int grow(buffer *b, size_t need) {", "}"},
			{"class", "node", "37-40", "struct node", "", "struct node {", "}"},
			{"function", "mode_name", "42-47", "static const char *mode_name(enum mode m)", "", "static const char *mode_name(enum mode m) {", "}"},
			{"function", "broken", "49-51", "int broken(int x)", "", "int broken(int x) {", "}"},
			{"function", "after_broken", "53-53", "int after_broken(void)", "", "int after_broken(void) { return mode_name(MODE_READ)[0]; }", "int after_broken(void) { return mode_name(MODE_READ)[0]; }"},
		},
			calls:   "grow@buffer_append log_error@buffer_append memcpy@buffer_append free@buffer_free GROW@grow realloc@grow mode_name@after_broken",
			imports: "<stdlib.h>|| <string.h>|| buffer.h|| ../util/log.h||",
		},
		{file: "c/buffer.h", defs: []langDef{
			{"class", "buffer", "7-10", "typedef struct buffer", "A growable byte buffer.", "typedef struct buffer {", "} buffer;"},
			{"class", "mode", "12-12", "enum mode", "", "enum mode { MODE_READ, MODE_WRITE }", "enum mode { MODE_READ, MODE_WRITE }"},
			{"class", "value", "14-14", "union value", "", "union value { int i; double d; }", "union value { int i; double d; }"},
		},
			calls:   "",
			imports: "<stddef.h>||",
		},
		{file: "cpp/shape.hpp", defs: []langDef{
			{"class", "Shape", "8-13", "class Shape", "A shape on the plane — abstract.", "class Shape {", "}"},
			{"method", "Shape.name", "12-12", "std::string name() const", "", "std::string name() const { return \"shape\"; }", "std::string name() const { return \"shape\"; }"},
			{"class", "Box", "15-19", "struct Box", "", "template <typename T>", "};"},
			{"method", "Box.get", "18-18", "T get() const", "", "T get() const { return value; }", "T get() const { return value; }"},
			{"class", "Circle", "21-27", "class Circle : public Shape", "", "class Circle : public Shape {", "}"},
		},
			calls:   "",
			imports: "<string>|| <vector>||",
		},
		{file: "cpp/shape.cpp", defs: []langDef{
			{"method", "Circle.Circle", "7-7", "Circle::Circle(double r) : r_(r)", "日本語: builds a circle.", "Circle::Circle(double r) : r_(r) {}", "Circle::Circle(double r) : r_(r) {}"},
			{"method", "Circle.area", "10-12", "double Circle::area() const", "The area — π r².", "double Circle::area() const {", "}"},
			{"function", "largest", "14-19", "T largest(const std::vector<T>& xs)", "", "template <typename T>", "}"},
			{"class", "Color", "21-21", "enum class Color", "", "enum class Color { Red, Green }", "enum class Color { Red, Green }"},
			{"function", "main", "25-31", "int main()", "", "int main() {", "}"},
		},
			calls:   "pow@Circle.area max@largest Circle@main area@main area@main largest@main static_cast@main",
			imports: "shape.hpp|| <cmath>||",
		},
		{file: "ruby/cart.rb", defs: []langDef{
			{"class", "Shop", "8-48", "module Shop", "Shopping helpers — a cart and its items 🛒.", "module Shop", "end"},
			{"variable", "Shop.VERSION", "9-9", "VERSION = \"1.2.0\"", "", "VERSION = \"1.2.0\"", "VERSION = \"1.2.0\""},
			{"class", "Shop.Cart", "12-39", "class Cart < Base", "A cart holds line items.", "class Cart < Base", "end"},
			{"method", "Shop.Cart.initialize", "15-18", "def initialize(owner)", "", "def initialize(owner)", "end"},
			{"method", "Shop.Cart.add", "21-25", "def add(item, qty = 1)", "日本語: adds an item.", "def add(item, qty = 1)", "end"},
			{"method", "Shop.Cart.from_json", "27-30", "def self.from_json(text)", "", "def self.from_json(text)", "end"},
			{"method", "Shop.Cart.total", "32-32", "def total = @items.sum(&:price)", "", "def total = @items.sum(&:price)", "def total = @items.sum(&:price)"},
			{"method", "Shop.Cart.recalculate!", "36-38", "def recalculate!", "", "def recalculate!", "end"},
			{"method", "Shop.default_cart", "42-44", "def default_cart", "", "def default_cart", "end"},
			{"method", "Shop.helper", "47-47", "def self.helper; end", "", "def self.helper; end", "def self.helper; end"},
			{"function", "top_level", "50-52", "def top_level(x)", "", "def top_level(x)", "end"},
		},
			calls:   "require@ require_relative@ require_relative@ attr_reader@Shop.Cart new@Shop.Cart.add recalculate!@Shop.Cart.add parse@Shop.Cart.from_json new@Shop.Cart.from_json fetch@Shop.Cart.from_json sum@Shop.Cart.total apply@Shop.Cart.recalculate! new@Shop.default_cart",
			imports: "json|| pricing|| ../lib/tax.rb||",
		},
		{file: "csharp/Cart.cs", defs: []langDef{
			{"class", "Cart", "8-32", "public class Cart : IStore", "<summary>A cart — holds items 🛒.</summary>", "public class Cart : IStore", "}"},
			{"method", "Cart.Cart", "12-15", "public Cart(string owner)", "", "public Cart(string owner)", "}"},
			{"variable", "Cart.Owner", "17-17", "public string Owner { get; set; }", "", "public string Owner { get; set; }", "public string Owner { get; set; }"},
			{"method", "Cart.Add", "20-24", "public void Add(Item item)", "日本語: adds an item.", "public void Add(Item item)", "}"},
			{"method", "Cart.Log", "26-26", "private static void Log(string msg)", "", "private static void Log(string msg) => Console.WriteLine(msg);", "private static void Log(string msg) => Console.WriteLine(msg);"},
			{"class", "Cart.Line", "28-31", "public class Line", "", "public class Line", "}"},
			{"method", "Line.Render", "30-30", "public string Render()", "", "public string Render() { return string.Format(\"{0}\", 1); }", "public string Render() { return string.Format(\"{0}\", 1); }"},
			{"class", "IStore", "34-37", "public interface IStore", "", "public interface IStore", "}"},
			{"method", "IStore.Add", "36-36", "void Add(Item item);", "", "void Add(Item item);", "void Add(Item item);"},
			{"class", "Point", "39-39", "public struct Point", "", "public struct Point { public int X; }", "public struct Point { public int X; }"},
			{"class", "Status", "41-41", "public enum Status", "", "public enum Status { Open, Closed }", "public enum Status { Open, Closed }"},
			{"class", "Pair", "43-43", "public record Pair(string Key, int Value);", "", "public record Pair(string Key, int Value);", "public record Pair(string Key, int Value);"},
		},
			calls:   "List@Cart Add@Cart.Add Log@Cart.Add WriteLine@Cart.Log Format@Line.Render",
			imports: "System|| System.Collections.Generic|| System.Text.Json||Json",
		},
		{file: "php/cart.php", defs: []langDef{
			{"class", "Cart", "11-32", "class Cart implements Store", "A cart — holds items 🛒.", "class Cart implements Store", "}"},
			{"variable", "Cart.LIMIT", "13-13", "const LIMIT = 10;", "", "const LIMIT = 10;", "const LIMIT = 10;"},
			{"method", "Cart.__construct", "17-19", "public function __construct(private string $owner)", "", "public function __construct(private string $owner)", "}"},
			{"method", "Cart.add", "22-26", "public function add(Item $item): void", "日本語: adds an item.", "public function add(Item $item): void", "}"},
			{"method", "Cart.log", "28-31", "private static function log(string $msg): void", "", "private static function log(string $msg): void", "}"},
			{"class", "Store", "34-37", "interface Store", "", "interface Store", "}"},
			{"method", "Store.add", "36-36", "public function add(Item $item): void;", "", "public function add(Item $item): void;", "public function add(Item $item): void;"},
			{"class", "Greets", "39-42", "trait Greets", "", "trait Greets", "}"},
			{"method", "Greets.hello", "41-41", "public function hello()", "", "public function hello() { return new Money(1); }", "public function hello() { return new Money(1); }"},
			{"class", "Status", "44-49", "enum Status: string", "", "enum Status: string", "}"},
			{"method", "Status.label", "48-48", "public function label(): string", "", "public function label(): string { return ucfirst($this->value); }", "public function label(): string { return ucfirst($this->value); }"},
			{"function", "total", "51-54", "function total(array $carts): int", "", "function total(array $carts): int", "}"},
		},
			calls:   "log@Cart.add printf@Cart.log Money@Greets.hello ucfirst@Status.label array_sum@total array_map@total count@total",
			imports: "App\\Models|Item| App\\Support|Money| App\\Support|Tax|T",
		},
		{file: "bash/build.sh", defs: []langDef{
			{"function", "build", "6-10", "build()", "日本語: builds the project.", "build() {", "}"},
			{"function", "compile", "12-15", "function compile", "", "function compile {", "}"},
			{"function", "clean", "17-17", "clean()", "", "clean() { rm -rf build; }", "clean() { rm -rf build; }"},
		},
			calls:   "source@ .@ mkdir@build compile@build gcc@compile log@compile rm@clean build@",
			imports: "./lib/common.sh|| $HOME/.config/env||",
		},
		{file: "lua/cart.lua", defs: []langDef{
			{"method", "Cart.new", "9-14", "function Cart.new(owner)", "日本語: makes a cart.", "function Cart.new(owner)", "end"},
			{"method", "Cart.add", "16-19", "function Cart:add(item)", "", "function Cart:add(item)", "end"},
			{"function", "total", "21-25", "local function total(cart)", "", "local function total(cart)", "end"},
			{"method", "M.helper", "27-27", "function M.helper()", "", "function M.helper() return json.encode({}) end", "function M.helper() return json.encode({}) end"},
			{"function", "helper", "29-29", "helper = function(x)", "", "helper = function(x) return x end", "helper = function(x) return x end"},
		},
			calls:   "require@ require@ setmetatable@Cart.new insert@Cart.add log@Cart.add ipairs@total encode@M.helper",
			imports: "json|| shop.util||",
		},
		{file: "hcl/main.tf", defs: []langDef{
			{"class", "aws", "6-8", "provider \"aws\"", "日本語: the provider.", "provider \"aws\" {", "}"},
			{"variable", "region", "10-13", "variable \"region\"", "", "variable \"region\" {", "}"},
			{"class", "aws_s3_bucket.logs", "15-18", "resource \"aws_s3_bucket\" \"logs\"", "", "resource \"aws_s3_bucket\" \"logs\" {", "}"},
			{"class", "vpc", "20-22", "module \"vpc\"", "", "module \"vpc\" {", "}"},
			{"class", "aws_caller_identity.me", "24-24", "data \"aws_caller_identity\" \"me\" {}", "", "data \"aws_caller_identity\" \"me\" {}", "data \"aws_caller_identity\" \"me\" {}"},
			{"variable", "bucket", "30-32", "output \"bucket\"", "", "output \"bucket\" {", "}"},
		},
			calls:   "",
			imports: "",
		},
	}
	checkLangCases(t, tests)
}

// langCase is one fixture of TestLangFixtures: what parsing it gives.
type langCase struct {
	file    string
	defs    []langDef
	calls   string // "callee@caller" joined by " "
	imports string // "module|names|alias" joined by " "
	broken  bool   // the file has a syntax error
}

// checkLangCases parses each case's fixture under testdata/langs, as
// written and with CRLF line ends, and checks what comes out.
func checkLangCases(t *testing.T, tests []langCase) {
	t.Helper()
	p := New()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			checkLangCase(t, p, tt)
		})
	}
}

func checkLangCase(t *testing.T, p *Parser, tt langCase) {
	src, err := os.ReadFile(filepath.Join("testdata", "langs", tt.file))
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Parse(context.Background(), tt.file, src)
	if err != nil {
		t.Fatalf("Parse(%s) = %v", tt.file, err)
	}
	var got []langDef
	for _, d := range out.Defs {
		body := string(src[d.Start:d.End])
		head, _, _ := strings.Cut(body, "\n")
		tail := strings.TrimSpace(body[strings.LastIndex(body, "\n")+1:])
		got = append(got, langDef{d.Kind, d.QName, lines(d), d.Signature, d.Doc, head, tail})
	}
	if diff := cmp.Diff(tt.defs, got); diff != "" {
		t.Errorf("Parse(%s) defs (-want +got):\n%s", tt.file, diff)
	}
	checkRanges(t, tt.file, src, out.Defs)
	var calls []string
	for _, c := range out.Calls {
		calls = append(calls, c.Callee+"@"+c.Caller)
	}
	if got := strings.Join(calls, " "); got != tt.calls {
		t.Errorf("Parse(%s) calls = %q, want %q", tt.file, got, tt.calls)
	}
	if got := importsString(out.Imports); got != tt.imports {
		t.Errorf("Parse(%s) imports = %q, want %q", tt.file, got, tt.imports)
	}
	if (out.Errors > 0) != tt.broken {
		t.Errorf("Parse(%s) errors = %d, want a syntax error: %v", tt.file, out.Errors, tt.broken)
	}
	if len(out.Refs) == 0 {
		t.Errorf("Parse(%s) found no references", tt.file)
	}

	// The same file with CRLF line ends: the same definitions, each
	// range still exactly its source.
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	out2, err := p.Parse(context.Background(), tt.file, crlf)
	if err != nil {
		t.Fatalf("Parse(%s, CRLF) = %v", tt.file, err)
	}
	var want2, got2 []string
	for _, d := range tt.defs {
		want2 = append(want2, d.QName+" "+d.Lines)
	}
	for _, d := range out2.Defs {
		got2 = append(got2, d.QName+" "+lines(d))
		if strings.HasSuffix(string(crlf[d.Start:d.End]), "\r") {
			t.Errorf("Parse(%s, CRLF) %s ends inside a CRLF", tt.file, d.QName)
		}
	}
	if diff := cmp.Diff(want2, got2); diff != "" {
		t.Errorf("Parse(%s, CRLF) defs (-want +got):\n%s", tt.file, diff)
	}
	checkRanges(t, tt.file+" (CRLF)", crlf, out2.Defs)
}

func lines(d index.Def) string { return strconv.Itoa(d.StartLine) + "-" + strconv.Itoa(d.EndLine) }

// checkRanges checks every definition's name and line/column positions
// against its byte offsets.
func checkRanges(t *testing.T, file string, src []byte, defs []index.Def) {
	t.Helper()
	for _, d := range defs {
		if d.Start < 0 || d.End > len(src) || d.NameStart < d.Start || d.NameEnd > d.End {
			t.Errorf("%s %s: range [%d,%d) name [%d,%d) outside the file or the definition", file, d.QName, d.Start, d.End, d.NameStart, d.NameEnd)
			continue
		}
		if got := string(src[d.NameStart:d.NameEnd]); got != d.Name {
			t.Errorf("%s %s: bytes at the name range = %q, want %q", file, d.QName, got, d.Name)
		}
		for _, at := range []struct{ off, line, col int }{{d.Start, d.StartLine, d.StartCol}, {d.End, d.EndLine, d.EndCol}} {
			line := 1 + bytes.Count(src[:at.off], []byte("\n"))
			col := at.off - (bytes.LastIndexByte(src[:at.off], '\n') + 1)
			if line != at.line || col != at.col {
				t.Errorf("%s %s: offset %d is line %d col %d, stored %d:%d", file, d.QName, at.off, line, col, at.line, at.col)
			}
		}
	}
}

// TestLangFor: every extension of the languages added after Python maps to its language.
func TestLangFor(t *testing.T) {
	p := New()
	tests := map[string]string{
		"src/lib.rs": "rust", "A.java": "java", "a.c": "c", "a.h": "c",
		"a.cc": "cpp", "a.cpp": "cpp", "a.cxx": "cpp", "a.hpp": "cpp", "a.hh": "cpp", "a.hxx": "cpp",
		"a.rb": "ruby", "A.CPP": "cpp",
		"A.cs": "csharp", "a.php": "php", "a.sh": "bash", "a.bash": "bash", "a.lua": "lua",
		"main.tf": "hcl", "a.hcl": "hcl", "prod.tfvars": "hcl",
	}
	for file, want := range tests {
		if got := p.Lang(file); got != want {
			t.Errorf("Lang(%q) = %q, want %q", file, got, want)
		}
	}
}

// TestSideEffectImports: import "./x" (no bindings) and CommonJS require()
// are imports too, in JavaScript, TypeScript and TSX; other calls with one
// string are not.
func TestSideEffectImports(t *testing.T) {
	src := "import \"./polyfill\";\nimport x from \"./y\";\nconst z = require(\"./z\");\nconst {a, b} = require(\"./ab\");\nrequire(\"./side\");\nconsole.log(\"not an import\");\nfoo(\"./nor\");\n"
	for _, file := range []string{"a.js", "a.ts", "a.tsx"} {
		out, err := New().Parse(context.Background(), file, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := importsString(out.Imports), "./polyfill|| ./y||x ./z||z ./ab|| ./side||"; got != want {
			t.Errorf("Parse(%s) imports = %q, want %q", file, got, want)
		}
	}
}
