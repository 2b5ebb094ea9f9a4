package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/search"
)

func newDemoCmd(e *env) *cobra.Command {
	var (
		keep   string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Watch Grit fix a real bug, with no model and no server",
		Long: `Demo extracts a tiny buggy Go project (built into grit) into a temporary
directory, indexes it, locates the bug from a one-line task (showing the
ranked candidates and the signals behind each score), and runs the whole fix
pipeline: the failing test, one function shown to the model, the quality
check, the byte-range swap, and the test again. The model is SCRIPTED: its
reply is built in, so the demo needs no model and no network.`,
		Example: `  grit demo
  grit demo --keep /tmp/shop   # keep the project to look at afterwards
  grit demo --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := keep
			if dir == "" {
				d, err := os.MkdirTemp("", "grit-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(d)
				dir = d
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			var progress io.Writer = io.Discard
			res, err := app.Demo(cmd.Context(), dir, progress)
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(e.Out).Encode(res)
			}
			w := e.Out
			rep := res.Report
			fmt.Fprintf(w, "Grit demo: a tiny Go project in %s\n\n", dir)
			fmt.Fprintf(w, "Task: %q\n\n1. Locate (no model involved): the top candidates and their signals\n", res.Task)
			for i, h := range res.Candidates {
				fmt.Fprintf(w, "   %d. %-22s %5.2f  %s\n", i+1, h.Def.Path+":"+h.Def.QName, h.Score, signalSummary(h.Signals))
			}
			if rep.Baseline != nil {
				fmt.Fprintf(w, "\n2. Tests before: %s → %s\n", rep.TestCommand, passFail(rep.Baseline.Passed))
			}
			for _, a := range rep.Attempts {
				fmt.Fprintf(w, "\n3. Model (SCRIPTED, a built-in reply standing in for a real model) rewrites %s\n", a.Target)
				fmt.Fprintf(w, "   prompt: %d tokens; quality check: %s", a.PromptTokens, a.Verdict.Code)
				if len(a.Verdict.Repairs) > 0 {
					fmt.Fprintf(w, " (repaired: %s)", strings.Join(a.Verdict.Repairs, "; "))
				}
				fmt.Fprintln(w)
				if a.Test != nil {
					fmt.Fprintf(w, "\n4. Tests after: %s → %s\n", a.Test.Command, passFail(a.Test.Passed))
				}
			}
			fmt.Fprintf(w, "\n%s\nResult: %s\n", rep.Diff, rep.Status)
			fmt.Fprint(w, `
On your own repository, with a real model:
  grit fix "describe the bug" --model ollama:qwen2.5-coder:7b     (or anthropic:MODEL, openai:MODEL)
  grit undo                                                       (restores what the last fix changed)
`)
			if rep.Status != fix.StatusFixed {
				return quietError{ExitTestsFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&keep, "keep", "", "extract the project into DIR and keep it")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func passFail(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// signalSummary lists a hit's non-zero signals, largest first.
func signalSummary(s search.Signals) string {
	var parts []string
	for _, p := range s.Top(len(s.List())) {
		parts = append(parts, fmt.Sprintf("%s %+.2f", p.Name, p.Value))
	}
	return strings.Join(parts, ", ")
}
