//go:build tools

// This file pins the modules the parts of Grit are built on, so that go mod tidy
// keeps them while those parts land. It is never compiled.
package deps

import (
	_ "github.com/anthropics/anthropic-sdk-go"
	_ "github.com/chromedp/chromedp"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/landlock-lsm/go-landlock/landlock"
	_ "github.com/mattn/go-sqlite3"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/openai/openai-go/v3"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/tree-sitter/go-tree-sitter"
	_ "github.com/tree-sitter/tree-sitter-c/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-go/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-java/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-python/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	_ "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
	_ "mvdan.cc/sh/v3/syntax"
)
