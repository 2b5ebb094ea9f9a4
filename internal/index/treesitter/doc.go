// Package treesitter implements index.Parser with tree-sitter grammars (the
// registry is languages.go; Support lists each language's level). Each
// language is a grammar module plus an embedded query file
// (queries/<lang>.scm) whose captures name what to extract (@def.function,
// @name, @call, @import, ...) and, in the registry, the node types that are
// references (identifiers). A file is parsed, checked for errors, queried
// and walked once for its references in one cgo call (extract.c) under a
// per-file time budget; captures and references come back as flat arrays
// (reused from file to file) and are turned into definitions, calls,
// imports and counted references in Go.
//
// Python, the reference language, skips the query: a hand-written C walk
// (walk_python.c) yields the same captures and the references in one cursor
// pass, far cheaper than the query cursor. PythonWalker switches it off;
// TestPythonWalkerMatchesQuery holds the two paths identical (on every .py
// file of $GRIT_BENCH_REPO too when it is set).
//
// A *Parser is safe for concurrent use: queries are compiled once per
// language and shared read-only; each Parse uses its own C parser and cursor.
package treesitter
