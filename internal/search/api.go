// Package search ranks the definitions and files of an index for a task, by
// fusing deterministic signals: keyword→symbol, keyword→path, ripgrep content,
// lexical overlap (BM25), structural spread over the edge graph, git recency
// and traceback frames. No model is called; every score is visible.
package search

import (
	"context"
	"errors"

	"github.com/grit-dev/grit/internal/index"
)

// Query is one search.
type Query struct {
	Text      string // the task: issue prose, code, pasted tracebacks
	Traceback string // extra traceback / test output, optional
	K         int    // results wanted; 0 means 10
	Explain   bool   // fill Hit.Explain
}

// Signals is each signal's weighted contribution to a hit's score.
type Signals struct {
	Symbol      float64 `json:"symbol"`
	Path        float64 `json:"path"`
	Content     float64 `json:"content"`
	Lexical     float64 `json:"lexical"`
	Spread      float64 `json:"spread"`
	Recency     float64 `json:"recency"`
	Traceback   float64 `json:"traceback"`
	DefBoost    float64 `json:"definition_boost"`
	TestPenalty float64 `json:"test_penalty"`
}

// Hit is one ranked definition.
type Hit struct {
	Def     index.Def `json:"def"`
	Score   float64   `json:"score"`
	Signals Signals   `json:"signals"`
	Explain []string  `json:"explain,omitempty"`
}

// FileHit is one ranked file.
type FileHit struct {
	Path    string   `json:"path"`
	Score   float64  `json:"score"`
	Signals Signals  `json:"signals"`
	Explain []string `json:"explain,omitempty"`
}

// Result is a ranking.
type Result struct {
	Query  string    `json:"query"`
	Hits   []Hit     `json:"hits"`
	Files  []FileHit `json:"files"`
	Tokens []string  `json:"tokens"`           // the query terms used
	Frames []Frame   `json:"frames,omitempty"` // traceback frames found
	Note   string    `json:"note,omitempty"`   // why a result is empty, what was cut
	TookMS float64   `json:"took_ms"`
}

// Frame is one traceback frame.
type Frame struct {
	Path  string `json:"path"`          // as written in the trace
	Rel   string `json:"rel,omitempty"` // resolved repository path, "" outside the repo
	Line  int    `json:"line"`
	Func  string `json:"func,omitempty"`
	Depth int    `json:"depth"` // 0 = innermost
}

// Run ranks ix's definitions and files for q. ix should be up to date (the
// caller runs ix.Update). An empty or stop-word-only query returns an empty
// Result whose Note says why.
func Run(ctx context.Context, ix *index.Index, q Query) (*Result, error) {
	return nil, errors.ErrUnsupported
}
