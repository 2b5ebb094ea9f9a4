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
// Most languages skip the query cursor, which costs more than the parse:
// the generic walk (walker.go, walk_tree.c, walk_match.c) copies the visible
// tree into a flat array in one pass, collecting the references, and runs
// the patterns of the language's query file on it itself. walkLangs lists
// the languages it serves (the others, and any whose query uses what the
// walk does not read, run the cursor); UseWalker switches it off;
// TestWalkerMatchesQuery holds the two paths identical (on every file under
// $GRIT_WALK_REPOS too when it is set).
//
// A *Parser is safe for concurrent use: queries and walks are compiled once
// per language and shared read-only; each Parse uses its own C parser and cursor.
package treesitter
