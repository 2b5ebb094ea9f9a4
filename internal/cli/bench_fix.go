package cli

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/fix/oracle"
	"github.com/grit-dev/grit/internal/index"
)

type benchFixFlags struct {
	oracle   bool
	data     string
	repos    string
	work     string
	out      string
	limit    int
	attempts int
	asJSON   bool
	verbose  bool
	report   string
}

func newBenchFixCmd(e *env) *cobra.Command {
	var f benchFixFlags
	cmd := &cobra.Command{
		Use:   "fix --oracle",
		Short: "Measure the fix pipeline's ceiling with an oracle editor",
		Long: `Fix runs the real 'grit fix' pipeline on each instance of a SWE-bench style
file (dev.jsonl, dev_poly.jsonl) with an oracle as the model: a perfect
editor that knows the gold patch but answers only from what the pipeline
shows it. Shown a function, it returns that function as the gold patch leaves
it (with the patch's new helpers and imports beside it, since the edit prompt
offers those blocks); shown lines outside any function (a region: imports,
constants, class fields), it returns those lines as the patch leaves them;
asked to choose among candidates, it picks the first offered one the patch
changes; anything else it refuses. Every failure is then
the harness's own: the rate is the ceiling no model can pass through grit fix.

Each instance is checked out at its base commit (as 'bench locate' does,
under --work), indexed, and fixed from the task text alone, with no tests
run. The code files the patch changes or adds are then compared with the gold
post-patch files, exactly and ignoring whitespace and comments; where the
pipeline fell short, the stage is named: not_located (no gold function among
the candidates or choices), not_offered (one was a candidate but never shown
within the attempts), rejected (the monitor or the splice refused the gold
text), multi_function (a gold function changed, another did not),
outside_function (the rest of the change is outside any function and no
offered region holds it: new files, regions never offered, or no function to
enter through). The tree
is put back after each instance. Instances that cannot run are listed as
errors with the step that failed, never skipped.`,
		Example: `  grit bench fix --oracle --data ../shared/bench/dev.jsonl --repos MIRRORS
  grit bench fix --oracle --data dev_poly.jsonl --repos mirrors --limit 20 --out runs.jsonl --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBenchFix(e, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.oracle, "oracle", false, "use the oracle editor (required: the only editor the bench has)")
	fl.StringVar(&f.data, "data", "", "the instances, dev.jsonl or dev_poly.jsonl (required)")
	fl.StringVar(&f.repos, "repos", "", "directory holding the repositories' git mirrors (required)")
	fl.StringVar(&f.work, "work", "", "cache of extracted trees (default $XDG_CACHE_HOME/grit/bench-fix)")
	fl.StringVar(&f.out, "out", "", "write per-instance results to this JSONL file")
	fl.IntVar(&f.limit, "limit", 0, "run only the first N instances")
	fl.IntVar(&f.attempts, "attempts", 0, "the pipeline's attempt budget (default: grit fix's)")
	fl.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "print one progress line per instance")
	fl.StringVar(&f.report, "report", "", "report the results a previous run wrote with --out, running nothing")
	return cmd
}

func runBenchFix(e *env, f benchFixFlags) error {
	if f.oracle && f.report != "" {
		results, err := oracle.LoadResults(f.report)
		if err != nil {
			return err
		}
		return printBenchFix(e, oracle.Summarize(results, fix.DefaultPromptBudget), f.asJSON)
	}
	switch {
	case !f.oracle:
		return usageErrorf("bench fix needs --oracle: the oracle editor is the only one it runs")
	case f.data == "" || f.repos == "":
		return usageErrorf("bench fix needs --data FILE and --repos DIR")
	case f.limit < 0:
		return usageErrorf("--limit must be 0 (all) or positive, got %d", f.limit)
	case f.attempts < 0:
		return usageErrorf("--attempts must be 0 (the default) or positive, got %d", f.attempts)
	}
	files, err := openBenchFiles(e, f.work, "bench-fix", f.out, f.verbose)
	if err != nil {
		return err
	}
	defer files.Close()
	parser := app.NewParser()
	o := oracle.Options{
		Data: f.data, Repos: f.repos, Work: files.work, Limit: f.limit, Attempts: f.attempts,
		Out: files.out, Progress: files.progress,
		Open: func(ctx context.Context, root string) (*index.Index, error) {
			return app.OpenIndex(ctx, root, index.Options{})
		},
		Parse: func(ctx context.Context, path string, src []byte) ([]index.Def, error) {
			p, err := parser.Parse(ctx, path, src)
			if err != nil {
				return nil, err
			}
			return p.Defs, nil
		},
		EditParse: app.EditParse,
	}
	rep, err := oracle.Run(e.ctx, o)
	if err != nil {
		return err
	}
	return printBenchFix(e, rep, f.asJSON)
}

func printBenchFix(e *env, rep *oracle.Report, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(e.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.Print(e.Out)
	return nil
}
