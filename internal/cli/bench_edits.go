package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/fix"
)

// benchEditsReport is `grit bench edits --json`.
type benchEditsReport struct {
	edit.BenchResult
	PromptTokens tokenStats `json:"prompt_tokens"`       // first-attempt edit prompt
	RetryTokens  tokenStats `json:"retry_prompt_tokens"` // with a rejection and 2 KB of test output
}

type tokenStats struct {
	Min, P50, P90, Max int
	OverBudget         int `json:"over_budget"`
	Budget             int `json:"budget"`
}

func newBenchEditsCmd(e *env) *cobra.Command {
	var (
		asJSON bool
		dir    string
	)
	cmd := &cobra.Command{
		Use:   "edits",
		Short: "Measure the quality monitor on the edit-robustness corpus",
		Long: `Edits runs the quality monitor (with the tree-sitter parser) over a corpus
of realistic small-model replies to "rewrite this function": fenced, wrapped
in prose, elided, re-indented wrongly, truncated, renamed, with a changed
signature, CRLF, tabs, ... each with the verdict it should get. It reports how
many verdicts are right and, for the same replies written as SEARCH/REPLACE
blocks (SEARCH quoting the original with the reply's own damage), how many a
plain exact-match applier fails to place. It also prints the distribution of
the edit prompt's estimated token count over the corpus.

The corpus is built in; --corpus reads *.txtar files from a directory instead
(format: internal/edit/corpus.go).`,
		Example: `  grit bench edits
  grit bench edits --json | jq .right`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cases, err := edit.Corpus()
			if dir != "" {
				cases, err = edit.LoadCorpus(os.DirFS(dir), ".")
			}
			if err != nil {
				return err
			}
			rep := benchEditsReport{BenchResult: edit.Bench(cmd.Context(), cases, app.EditParse)}
			var first, retry []int
			for _, c := range cases {
				p := fix.EditPrompt{Task: c.Task, Kind: "function", Name: c.Orig.Name, Path: c.Orig.Path, Lang: c.Orig.Lang,
					Source: string(edit.Dedent(edit.ConvertEOL(c.Orig.Source(), "\n")))}
				_, _, n, err := p.Render(fix.DefaultPromptBudget)
				if err != nil {
					return err
				}
				first = append(first, n)
				p.Feedback = "the quality check rejected your reply (elision). The reply leaves code out (\"# ... existing code ...\"). Write out the whole function: every line, with no placeholders."
				p.TestOutput = strings.Repeat("E   AssertionError: assert total([100], '12.5%') == 87.5\n", 36)
				_, _, n, _ = p.Render(fix.DefaultPromptBudget)
				retry = append(retry, n)
			}
			rep.PromptTokens, rep.RetryTokens = stats(first), stats(retry)
			if asJSON {
				return json.NewEncoder(e.Out).Encode(rep)
			}
			tw := tabwriter.NewWriter(e.Out, 0, 0, 1, ' ', 0)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", "CASE", "KIND", "EXPECT", "GOT", "EXACT S/R")
			for _, r := range rep.Rows {
				mark := ""
				if !r.Right {
					mark = "  ✗ " + r.Reason
				}
				placed := "placed"
				if !r.ExactPlaced {
					placed = "FAILS"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s%s\n", r.Case, r.Kind, r.Expect, r.Got, placed, mark)
			}
			tw.Flush()
			fmt.Fprintf(e.Out, "\nverdicts right: %d/%d\n", rep.Right, rep.Cases)
			fmt.Fprintf(e.Out, "exact-match SEARCH/REPLACE fails to place: %d/%d replies (%d of the %d good ones the monitor accepts)\n",
				rep.ExactFailed, rep.Cases, rep.ExactFailedGood, rep.Good)
			t := rep.PromptTokens
			fmt.Fprintf(e.Out, "edit prompt tokens (first attempt): min %d, p50 %d, p90 %d, max %d; over %d: %d\n", t.Min, t.P50, t.P90, t.Max, t.Budget, t.OverBudget)
			t = rep.RetryTokens
			fmt.Fprintf(e.Out, "edit prompt tokens (retry with test output): min %d, p50 %d, p90 %d, max %d; over %d: %d\n", t.Min, t.P50, t.P90, t.Max, t.Budget, t.OverBudget)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().StringVar(&dir, "corpus", "", "directory of *.txtar cases (default: the built-in corpus)")
	return cmd
}

func stats(v []int) tokenStats {
	s := tokenStats{Budget: fix.DefaultPromptBudget}
	if len(v) == 0 {
		return s
	}
	sort.Ints(v)
	at := func(q float64) int { return v[min(len(v)-1, int(q*float64(len(v))))] }
	s.Min, s.P50, s.P90, s.Max = v[0], at(0.5), at(0.9), v[len(v)-1]
	for _, n := range v {
		if n > s.Budget {
			s.OverBudget++
		}
	}
	return s
}
