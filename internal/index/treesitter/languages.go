package treesitter

import (
	"strings"

	tsdart "github.com/UserNobody14/tree-sitter-dart/bindings/go"
	tsswift "github.com/alex-pinkus/tree-sitter-swift/bindings/go"
	tsr "github.com/r-lib/tree-sitter-r/bindings/go"
	tshcl "github.com/tree-sitter-grammars/tree-sitter-hcl/bindings/go"
	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	tszig "github.com/tree-sitter-grammars/tree-sitter-zig/bindings/go"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tselixir "github.com/tree-sitter/tree-sitter-elixir/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tshaskell "github.com/tree-sitter/tree-sitter-haskell/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsjulia "github.com/tree-sitter/tree-sitter-julia/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// languages is the registry, in the order Lang tries them.
var languages = []*language{
	func() *language {
		l := newLanguage("python", "python", tspython.Language(), ".py", ".pyi")
		l.methodsInClasses = true
		l.qualifiedScopes = true
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("go", "go", tsgo.Language(), ".go")
		l.cleanModule = unquote
		l.refs = []string{"identifier", "type_identifier", "field_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("javascript", "javascript", tsjs.Language(), ".js", ".jsx", ".mjs", ".cjs")
		l.refs = []string{"identifier", "property_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("typescript", "typescript", tsts.LanguageTypescript(), ".ts", ".mts", ".cts")
		l.refs = []string{"identifier", "property_identifier", "type_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("tsx", "typescript", tsts.LanguageTSX(), ".tsx")
		l.refs = []string{"identifier", "property_identifier", "type_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("rust", "rust", tsrust.Language(), ".rs")
		l.refs = []string{"identifier", "type_identifier", "field_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("java", "java", tsjava.Language(), ".java")
		l.refs = []string{"identifier", "type_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("c", "c", tsc.Language(), ".c", ".h")
		l.blankMacros = true
		l.refs = []string{"identifier", "type_identifier", "field_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("cpp", "cpp", tscpp.Language(), ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx")
		l.blankMacros = true
		l.methodsInClasses = true
		l.refs = []string{"identifier", "type_identifier", "field_identifier", "namespace_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("ruby", "ruby", tsruby.Language(), ".rb")
		l.methodsInClasses = true
		l.qualifiedScopes = true
		l.refs = []string{"identifier", "constant"}
		return l
	}(),
	func() *language {
		l := newLanguage("csharp", "csharp", tscsharp.Language(), ".cs")
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("php", "php", tsphp.LanguagePHP(), ".php")
		l.cleanModule = phpModule
		l.refs = []string{"name"}
		return l
	}(),
	func() *language {
		l := newLanguage("bash", "bash", tsbash.Language(), ".sh", ".bash")
		l.cleanModule = unquote
		l.refs = []string{"command_name", "variable_name"}
		return l
	}(),
	func() *language {
		l := newLanguage("lua", "lua", tslua.Language(), ".lua")
		l.cleanModule = unquote
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("hcl", "hcl", tshcl.Language(), ".tf", ".hcl", ".tfvars")
		l.level = LevelDefinitions
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("kotlin", "kotlin", tskotlin.Language(), ".kt", ".kts")
		l.methodsInClasses = true
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("swift", "swift", tsswift.Language(), ".swift")
		l.refs = []string{"simple_identifier", "type_identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("scala", "scala", tsscala.Language(), ".scala", ".sc")
		l.methodsInClasses = true
		l.cleanModule = scalaModule
		l.refs = []string{"identifier", "type_identifier"}
		return l
	}(),
	func() *language {
		// .r and .R: Lang compares extensions in lower case.
		l := newLanguage("r", "r", tsr.Language(), ".r")
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("elixir", "elixir", tselixir.Language(), ".ex", ".exs")
		l.level = LevelDefinitions
		l.refs = []string{"identifier", "alias"}
		return l
	}(),
	func() *language {
		l := newLanguage("zig", "zig", tszig.Language(), ".zig")
		l.level = LevelDefinitions
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("haskell", "haskell", tshaskell.Language(), ".hs")
		l.level = LevelDefinitions
		l.equations = true
		l.refs = []string{"variable", "constructor", "name"}
		return l
	}(),
	func() *language {
		l := newLanguage("julia", "julia", tsjulia.Language(), ".jl")
		l.level = LevelDefinitions
		l.refs = []string{"identifier"}
		return l
	}(),
	func() *language {
		l := newLanguage("dart", "dart", tsdart.Language(), ".dart")
		l.level = LevelDefinitions
		l.methodsInClasses = true
		l.refs = []string{"identifier", "type_identifier"}
		return l
	}(),
}

func init() {
	// A .h file is C unless its content is C++ (fmt, Catch2 and many
	// libraries name their C++ headers .h).
	var c, cpp *language
	for _, l := range languages {
		switch l.name {
		case "c":
			c = l
		case "cpp":
			cpp = l
		}
	}
	c.headers = cpp
}

func unquote(s string) string { return strings.Trim(s, "\"`'") }

// phpModule turns a use clause's name (\App\Models\Item) into a module
// path without the leading separator.
func phpModule(s string) string { return strings.TrimPrefix(s, "\\") }

// scalaModule turns a captured import statement (import a.b.{C, D => E},
// import a.b._) into its module path: a.b, or a.b.C for import a.b.C.
func scalaModule(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(s, "import"))
	s, _, _ = strings.Cut(s, "{")
	s, _, _ = strings.Cut(s, ",")
	s = strings.TrimSpace(s)
	for _, star := range []string{"._", ".*", ".given"} {
		s = strings.TrimSuffix(s, star)
	}
	return strings.TrimSuffix(s, ".")
}
