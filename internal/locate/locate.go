// Package locate is the one locate service every face calls: a task (and an
// optional traceback) and how many candidates, in; the ranked definitions and
// files with each signal's contribution (and, on request, the reasons in
// words), out. `grit search`, the agent's Locate tool, the MCP locate tool,
// the fix pipeline and the explorer's search all come here; they only render
// the answer. The ranking itself is package search; this package owns what
// a request may ask (the empty-task rule, the default and the cap on k).
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

// Run ranks ix's definitions and files for r.
func Run(ctx context.Context, ix *index.Index, r Request) (*search.Result, error) {
	res, err := search.Run(ctx, ix, search.Query{Text: r.Task, Traceback: r.Traceback, K: r.N(), Explain: r.Explain})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return res, nil
}
