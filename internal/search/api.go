// Package search ranks the definitions and files of an index for a task, by
// fusing deterministic signals: keyword→symbol, keyword→path, ripgrep content,
// lexical overlap (BM25), structural spread over the edge graph, git recency
// and traceback frames. No model is called; every score is visible.
//
// Run is the entry point: it prepares (or reuses) a Corpus for the index —
// BM25 models, names, the file graph, git recency — and ranks. Each signal is
// normalised to 0–1 and weighted by a named constant (weights.go); Hit.Signals
// holds every contribution and Explain says them in words. The same index
// and query give the same ranking: every sort breaks ties on path and byte
// offset. Prepared corpora are cached per repository root in the process
// (guarded by a mutex) and rebuilt when the indexed files' hashes change;
// everything here is safe for concurrent use.
package search

import (
	"math"
	"sort"
	"time"

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
	File        float64 `json:"file"`    // definitions: their file's score relative to the best file's
	Package     float64 `json:"package"` // files: the best files sharing its directory (WeightPackage)
	Size        float64 `json:"size"`    // definitions: how long they are beside their file's other functions (WeightSize)
	DefBoost    float64 `json:"definition_boost"`
	TestPenalty float64 `json:"test_penalty"`
}

// Signal is one named contribution to a score.
type Signal struct {
	Name  string  // as in Signals' JSON: "symbol", "definition_boost", ...
	Value float64 // weighted: it is part of the score
}

// List gives the signals in a fixed order, named as in JSON, so every face
// shows the same names.
func (s Signals) List() []Signal {
	return []Signal{{"symbol", s.Symbol}, {"definition_boost", s.DefBoost}, {"path", s.Path}, {"content", s.Content},
		{"lexical", s.Lexical}, {"spread", s.Spread}, {"recency", s.Recency}, {"traceback", s.Traceback},
		{"file", s.File}, {"package", s.Package}, {"size", s.Size}, {"test_penalty", s.TestPenalty}}
}

// Top gives the n largest non-zero signals by size (a penalty counts by
// its size), largest first.
func (s Signals) Top(n int) []Signal {
	var all []Signal
	for _, x := range s.List() {
		if math.Abs(x.Value) >= 0.005 {
			all = append(all, x)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return math.Abs(all[i].Value) > math.Abs(all[j].Value) })
	return all[:min(n, len(all))]
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
	Trace int    `json:"trace"` // which trace of the text it belongs to, from 0
}

// Millis is d in milliseconds, to the microsecond: how results and
// benchmarks report time.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
