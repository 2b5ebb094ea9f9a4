// Package index walks a repository, parses every source file through a Parser
// (implemented by index/treesitter, wired in by app), and keeps definitions,
// call sites (resolved to definitions where they can be), imports and each
// file's referenced names in the store (.grit/index.db). The weighted file
// graph is derived from those on read, so a change never rewrites it.
// Re-indexing is incremental; parse results stream to one writer in path
// order, so memory holds a window of files, not the repository.
//
// Invariant: for every stored Def, the file's bytes [Start, End) are exactly the
// definition's source (decorators included). Offsets are byte offsets.
//
// An *Index is safe for concurrent use by several goroutines; several processes
// may index and query one repository at once (SQLite WAL, one writer at a time).
package index

import (
	"context"
	"errors"
	"time"
)

// Def is one definition: a function, method, class (or type), or a Python
// module-level assignment.
type Def struct {
	ID        int64  `json:"id"`
	Path      string `json:"path"` // slash-separated, relative to the root
	Lang      string `json:"lang"`
	Name      string `json:"name"`             // "resolve_redirects"
	QName     string `json:"qname"`            // "Session.resolve_redirects"; nested: "outer.inner"
	Kind      string `json:"kind"`             // one of the Kind* constants
	Parent    string `json:"parent,omitempty"` // QName of the enclosing definition
	Start     int    `json:"start"`            // byte range of the whole definition
	End       int    `json:"end"`
	NameStart int    `json:"name_start"` // byte range of the name
	NameEnd   int    `json:"name_end"`
	StartLine int    `json:"start_line"` // 1-based
	StartCol  int    `json:"start_col"`  // 0-based byte column
	EndLine   int    `json:"end_line"`
	EndCol    int    `json:"end_col"`
	Signature string `json:"signature"`     // "def get(self, url, **kwargs)" / "func (s *S) Get(url string) error"
	Doc       string `json:"doc,omitempty"` // first docstring / doc comment line
}

// Definition kinds.
const (
	KindFunction = "function"
	KindMethod   = "method"
	KindClass    = "class"    // classes, structs, interfaces, traits, enums
	KindVariable = "variable" // module-level assignments (Python), consts/vars (Go)
)

// Call is one call site.
type Call struct {
	Path     string `json:"path"`
	Callee   string `json:"callee"`              // the called name as written, last component ("get" for session.get)
	Offset   int    `json:"offset"`              // byte offset of the callee name
	Line     int    `json:"line"`                // 1-based
	CallerID int64  `json:"caller_id"`           // enclosing definition's ID, 0 at module level
	Caller   string `json:"caller,omitempty"`    // enclosing definition's QName
	CalleeID int64  `json:"callee_id,omitempty"` // the definition it resolves to, 0 if unresolved (see ResolvedVia)
}

// Import is one import statement's binding.
type Import struct {
	Path     string   `json:"path"`               // the importing file
	Module   string   `json:"module"`             // "requests.sessions", "./util", "fmt"
	Names    []string `json:"names,omitempty"`    // imported names ("Session"), empty for a module import
	Alias    string   `json:"alias,omitempty"`    // "np" in import numpy as np
	Resolved string   `json:"resolved,omitempty"` // the repository file it resolves to, "" if external
	Line     int      `json:"line"`
}

// FileEdge is a weighted reference from one file to another: From refers to
// names defined in To.
type FileEdge struct {
	From   string   `json:"from"`
	To     string   `json:"to"`
	Weight float64  `json:"weight"`
	Names  []string `json:"names,omitempty"` // the names that make the edge, most telling first
}

// DefEdge is a resolved caller → callee pair between definitions.
type DefEdge struct {
	Caller Def `json:"caller"`
	Callee Def `json:"callee"`
	Count  int `json:"count"` // call sites
}

// File is one indexed file.
type File struct {
	Path  string    `json:"path"`
	Lang  string    `json:"lang"`
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
	Hash  string    `json:"hash"` // hex SHA-256 of the content
}

// Skipped is a file the walker or parser passed over, with why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"` // "binary", "too large (3.2 MiB > 1 MiB)", "parse budget exceeded", ...
}

// Stats reports one Update.
type Stats struct {
	Seen    int       `json:"seen"`    // source files the walk found
	Parsed  int       `json:"parsed"`  // files read and parsed
	Reused  int       `json:"reused"`  // files whose stored rows were kept
	Removed int       `json:"removed"` // files that left the index (deleted, renamed, now ignored)
	Skipped []Skipped `json:"skipped,omitempty"`
	// Capped are files indexed in part: definitions beyond the parser's
	// caps left out (Reason says how many and which cap).
	Capped    []Skipped     `json:"capped,omitempty"`
	ReuseRate float64       `json:"reuse_rate"` // Reused / Seen
	Defs      int           `json:"defs"`       // definitions in the index after the run
	Duration  time.Duration `json:"duration_ns"`
}

// ErrParseBudget is what a Parser returns (wrapped) for a file whose parse
// took more CPU time than its budget: the index skips the file and says so.
var ErrParseBudget = errors.New("parse budget exceeded")

// Options configure an Index.
type Options struct {
	MaxFileSize int64         // bytes; 0 means 1 MiB
	FileBudget  time.Duration // per-file parse budget, in CPU time (the Parser's); 0 means 2s
	// Progress, if set, is called from time to time during Update with files
	// done and the total to do (for a TTY progress line).
	Progress func(done, total int)
	// Warn, if set, receives warnings (a corrupt database moved aside, ...).
	Warn func(msg string)
}

// Parser turns one file's bytes into definitions, calls and imports. Parse
// must not retain src. index/treesitter implements it.
type Parser interface {
	// Lang returns the language name for a path ("python", "go", ...), or "" if unsupported.
	Lang(path string) string
	// Parse extracts what path holds. It must not keep src, nor anything
	// pointing into it, once it returns: the index reuses the buffer.
	Parse(ctx context.Context, path string, src []byte) (*Parsed, error)
}

// Parsed is what a Parser extracts from one file.
type Parsed struct {
	Lang    string
	Defs    []Def    // ID, Path, Lang are filled in by the index
	Calls   []Call   // CallerID is filled in by the index; Caller holds the enclosing QName
	Imports []Import // Path and Resolved are filled in by the index
	Refs    []string // other identifiers referenced (for file edges), may repeat
	// RefCounts, if set, has one entry per Refs entry: how many times that
	// name is referenced (a parser that counts need not repeat names).
	RefCounts []int
	Errors    int // count of ERROR/MISSING nodes (the file is indexed anyway)
	// Capped says what the parser left out to stay within its caps on
	// nesting, name length and definitions per file ("" when nothing).
	Capped string
}
