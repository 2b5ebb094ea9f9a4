package treesitter

import (
	"strings"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
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
}

func unquote(s string) string { return strings.Trim(s, "\"`'") }
