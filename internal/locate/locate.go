// Package locate is the one locate service every face calls: a task (and an
// optional traceback) and how many candidates, in; the ranked definitions and
// files with each signal's contribution (and, on request, the reasons in
// words), out. `grit search`, the agent's Locate tool, the MCP locate tool,
// the fix pipeline and the explorer's search all come here; they only render
// the answer. The ranking itself is package search; this package owns what
// a request may ask (the empty-task rule, the default and the cap on k, the
// token budget of the rendered candidates and how tokens are counted).
package locate

import (
	"context"
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/search"
)

// Limits of a request.
const (
	DefaultK = 10 // candidates when a request names no k: a screenful
	MaxK     = 50 // past this the tail is noise to a reader
)

// Request is one locate call.
type Request struct {
	Task      string // the task: issue prose, identifiers, pasted code
	Traceback string // a traceback or failing test output, optional
	K         int    // candidates wanted; 0 means DefaultK, more than MaxK means MaxK
	Explain   bool   // say each candidate's reasons in words (Hit.Explain)
	// Budget caps the rendered candidates, in tokens (Tokens): a face
	// shows the best ones that fit together (Fit). 0 means no limit.
	Budget int
}

// Empty reports whether r has neither a task nor a traceback: a face that
// refuses such a request (a usage error, a tool result the model can act on)
// asks here, and says so in its own words. Run answers it with an empty
// result whose note says what to do.
func (r Request) Empty() bool {
	return strings.TrimSpace(r.Task) == "" && strings.TrimSpace(r.Traceback) == ""
}

// N is the number of candidates r asks for, within [1, MaxK].
func (r Request) N() int {
	if r.K <= 0 {
		return DefaultK
	}
	return min(r.K, MaxK)
}

// Tokens estimates the tokens of s: about four bytes a token for code and
// English, the estimate every budget of Grit's answers counts with.
func Tokens(s string) int { return tokensIn(len(s)) }

// tokensIn is Tokens of a text of n bytes.
func tokensIn(n int) int { return (n + 3) / 4 }

// Fit renders hits best first (render gets the 1-based rank) and keeps
// the leading renderings that fit together in r.Budget tokens: all of
// them when r.Budget is 0, none when not even the best fits. A face
// shows what Fit keeps and says how many of the hits it left out.
func (r Request) Fit(hits []search.Hit, render func(rank int, h search.Hit) string) []string {
	var out []string
	size := 0
	for i, h := range hits {
		s := render(i+1, h)
		if r.Budget > 0 && tokensIn(size+len(s)) > r.Budget {
			break
		}
		size += len(s)
		out = append(out, s)
	}
	return out
}

// Run ranks ix's definitions and files for r.
func Run(ctx context.Context, ix *index.Index, r Request) (*search.Result, error) {
	res, err := search.Run(ctx, ix, search.Query{Text: r.Task, Traceback: r.Traceback, K: r.N(), Explain: r.Explain})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return res, nil
}
