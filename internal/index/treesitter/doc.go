// Package treesitter implements index.Parser with tree-sitter grammars. Each
// language is a grammar module plus an embedded query file
// (queries/<lang>.scm) whose captures name what to extract (@def.function,
// @name, @call, @ref, @import, ...). A file is parsed, checked for errors and
// queried in one cgo call (extract.c) under a per-file time budget; the
// captures come back as one flat array and are turned into definitions,
// calls, imports and references in Go.
//
// A *Parser is safe for concurrent use: queries are compiled once per
// language and shared read-only; each Parse uses its own C parser and cursor.
package treesitter
