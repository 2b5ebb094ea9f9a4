package treesitter

import (
	"strings"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// languages is the registry, in the order Lang tries them.
var languages = []*language{
	func() *language {
		l := newLanguage("python", "python", tspython.Language(), ".py", ".pyi")
		l.methodsInClasses = true
		return l
	}(),
	func() *language {
		l := newLanguage("go", "go", tsgo.Language(), ".go")
		l.cleanModule = unquote
		return l
	}(),
	newLanguage("javascript", "javascript", tsjs.Language(), ".js", ".jsx", ".mjs", ".cjs"),
	newLanguage("typescript", "typescript", tsts.LanguageTypescript(), ".ts", ".mts", ".cts"),
	newLanguage("tsx", "typescript", tsts.LanguageTSX(), ".tsx"),
}

func unquote(s string) string { return strings.Trim(s, "\"`'") }
