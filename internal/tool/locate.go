package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/search"
)

//go:embed locate.md
var locateMD string

var locateDesc = render("locate.md", locateMD)

// maxLocateK is the most candidates the tool lists: its answer is one line
// per candidate in the model's context, so it stops short of the service's
// cap (locate.MaxK).
const maxLocateK = 30

// Locate ranks the repository's definitions for a task with Grit's search.
type Locate struct{}

type locateInput struct {
	Task      string `json:"task" jsonschema:"The task or bug report, in words and identifiers"`
	Traceback string `json:"traceback,omitempty" jsonschema:"A traceback or failing test output"`
	K         int    `json:"k,omitempty" jsonschema:"Results (default 10)"`
	Budget    int    `json:"budget,omitempty" jsonschema:"Token budget of the listed results: as many as fit (default: no limit)"`
}

// maxLocateBudget bounds the budget argument: a quarter of a large window,
// as MCP's answers are bounded.
const maxLocateBudget = 50000

func (Locate) Name() string        { return "Locate" }
func (Locate) Description() string { return locateDesc() }
func (Locate) Schema() json.RawMessage {
	return rawSchema[locateInput](func(p map[string]*jsonschema.Schema) {
		Bounds(1, maxLocateK)(p["k"])
		Bounds(0, maxLocateBudget)(p["budget"])
	})
}

func (t Locate) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (Locate) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in locateInput
	if err := decode("Locate", input, &in); err != nil {
		return Result{}, err
	}
	req := locate.Request{Task: in.Task, Traceback: in.Traceback, K: min(in.K, maxLocateK), Budget: min(max(in.Budget, 0), maxLocateBudget)}
	if req.Empty() {
		return Result{}, fixf(nil, "Locate needs a task.")
	}
	if env.Index == nil {
		return Result{}, fixf(nil, "Locate needs the repository index, which this session does not have. Use Grep and Glob.")
	}
	ix, err := env.Index(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("locate: open index: %w", err)
	}
	res, err := locate.Run(ctx, ix, req)
	if err != nil {
		return Result{}, fmt.Errorf("locate: %w", err)
	}
	return Result{Content: renderLocateFit(res, req)}, nil
}

// renderLocate is renderLocateFit with no budget.
func renderLocate(res *search.Result, k int) string {
	return renderLocateFit(res, locate.Request{K: k})
}

// renderLocateFit writes a ranking compactly: one line per definition,
// "path:start-end qname kind score" and its strongest signals, as many
// of the best as req's budget holds (a line says how many it left out).
func renderLocateFit(res *search.Result, req locate.Request) string {
	var b strings.Builder
	if len(res.Hits) == 0 {
		b.WriteString("No definitions found.")
		if res.Note != "" {
			b.WriteString(" " + res.Note)
		}
		return b.String()
	}
	hits := res.Hits[:min(len(res.Hits), req.N())]
	lines := req.Fit(hits, func(rank int, h search.Hit) string {
		d := h.Def
		line := fmt.Sprintf("%d. %s:%d-%d %s %s %.2f", rank, d.Path, d.StartLine, d.EndLine, d.QName, d.Kind, h.Score)
		if top := topSignals(h.Signals, 3); top != "" {
			line += " (" + top + ")"
		}
		return line + "\n"
	})
	for _, l := range lines {
		b.WriteString(l)
	}
	if cut := len(hits) - len(lines); cut > 0 {
		fmt.Fprintf(&b, "(%d more cut to fit the budget of %d tokens: raise budget, or lower k)\n", cut, req.Budget)
	}
	if len(res.Files) > 0 {
		b.WriteString("Files:")
		for i, f := range res.Files {
			if i == 5 {
				break
			}
			fmt.Fprintf(&b, " %s %.2f", f.Path, f.Score)
			if i < min(5, len(res.Files))-1 {
				b.WriteByte(',')
			}
		}
		b.WriteByte('\n')
	}
	if res.Note != "" {
		b.WriteString("Note: " + res.Note + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// topSignals names the n largest contributions.
func topSignals(s search.Signals, n int) string {
	var parts []string
	for _, x := range s.Top(n) {
		parts = append(parts, fmt.Sprintf("%s %.2f", x.Name, x.Value))
	}
	return strings.Join(parts, ", ")
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
