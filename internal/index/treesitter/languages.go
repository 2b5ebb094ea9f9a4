package treesitter

import (
	"strings"

	tshcl "github.com/tree-sitter-grammars/tree-sitter-hcl/bindings/go"
	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
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
