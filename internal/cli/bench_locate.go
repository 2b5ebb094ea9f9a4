package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/search/bench"
)

type benchLocateFlags struct {
	data       string
	repos      string
	work       string
	out        string
	limit      int
	repoFilter string
	asJSON     bool
	verbose    bool
	dumpDefs   int
}

func newBenchLocateCmd(e *env) *cobra.Command {
	var f benchLocateFlags
	cmd := &cobra.Command{
		Use:   "locate",
		Short: "Measure the search on SWE-bench instances (file, module, function Acc@k)",
		Long: `Locate runs grit's search on each instance of a SWE-bench localisation set
(dev.jsonl): it checks out the repository at the instance's base commit from a
local mirror, indexes it incrementally, searches with the problem statement
alone, and scores the ranking against the gold patch's files, modules and
functions with LocAgent's Acc@k (every gold location in the top k), plus MRR
and the search's latency on a warm index. A plain BM25 file ranker runs on
the same trees as the peer baseline, over every source file grit parses.

Scores are printed for the Lite-274 subset (comparable with published
numbers), for all records, and for the Verified-only records (a held-out
view), each overall (micro: each instance weighs the same), as the macro
average (the mean of the repositories' figures: each repository weighs the
same), per repository and per language (the record's "language", else its
gold files').

An instance that cannot run (a base commit the mirror lacks, an index
error) is listed with its reason, in --out and --json too, and scores 0.
Files whose blobs the mirror lacks (snapshots leave out big ones) are left
out of the tree and counted.

Mirrors are bare git repositories under --repos, as DIR/owner+name/repo (what
fetch produces) or DIR/owner/name(.git). Trees are extracted once per
repository under --work (default $XDG_CACHE_HOME/grit/bench) and moved from
commit to commit by their difference. Each tree is a git work tree whose HEAD is
the base commit, its objects read from the mirror, so the recency signal sees
the history a checkout has.`,
		Example: `  grit bench locate --data ../shared/bench/dev.jsonl --repos /path/to/mirrors
  grit bench locate --data dev.jsonl --repos mirrors --repo-filter sympy --limit 20 --out runs.jsonl
  grit bench locate --data dev.jsonl --repos mirrors --json | jq '.sets[0].grit.file'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBenchLocate(e, f)
		},
	}
	cmd.Flags().StringVar(&f.data, "data", "", "the instances, dev.jsonl (required)")
	cmd.Flags().StringVar(&f.repos, "repos", "", "directory holding the repositories' git mirrors (required)")
	cmd.Flags().StringVar(&f.work, "work", "", "cache of extracted trees (default $XDG_CACHE_HOME/grit/bench)")
	cmd.Flags().StringVar(&f.out, "out", "", "write per-instance results to this JSONL file")
	cmd.Flags().IntVar(&f.limit, "limit", 0, "run only the first N instances (after --repo-filter)")
	cmd.Flags().StringVar(&f.repoFilter, "repo-filter", "", "run only repositories whose owner/name contains this")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "print one progress line per instance")
	cmd.Flags().IntVar(&f.dumpDefs, "dump-defs", 0, "with --out, carry the N best definitions with their signals (to simulate a ranking rule)")
	return cmd
}

func runBenchLocate(e *env, f benchLocateFlags) error {
	if f.data == "" || f.repos == "" {
		return usageErrorf("bench locate needs --data FILE and --repos DIR")
	}
	if f.limit < 0 {
		return usageErrorf("--limit must be 0 (all) or positive, got %d", f.limit)
	}
	if f.dumpDefs < 0 || f.dumpDefs > 0 && f.out == "" {
		return usageErrorf("--dump-defs needs --out FILE and a positive count, got %d", f.dumpDefs)
	}
	files, err := openBenchFiles(e, f.work, "bench", f.out, f.verbose)
	if err != nil {
		return err
	}
	defer files.Close()
	o := bench.Options{
		Data: f.data, Repos: f.repos, Work: files.work, Limit: f.limit, RepoFilter: f.repoFilter,
		Out: files.out, Progress: files.progress, DumpDefs: f.dumpDefs,
		Open: func(ctx context.Context, root string) (*index.Index, error) {
			return app.OpenIndex(ctx, root, index.Options{})
		},
		Lang: app.NewParser().Lang,
	}
	rep, err := bench.Run(e.ctx, o)
	if err != nil {
		return err
	}
	if f.asJSON {
		enc := json.NewEncoder(e.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printBenchLocate(e.Out, rep)
	return nil
}

func printBenchLocate(w io.Writer, rep *bench.Report) {
	fmt.Fprintf(w, "%d instances in %.0fs\n", rep.Instances, rep.Took.Seconds())
	for _, s := range rep.Sets {
		fmt.Fprintf(w, "\n== %s (%d instances) ==\n", s.Name, s.Grit.Instances)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "system\trepo\tn\tfile@1\tfile@3\tfile@5\tfile MRR\tmod@5\tmod@10\tfunc@5\tfunc@10\tfunc MRR\tp50 ms\tp95 ms\t")
		row := func(sys, repo string, t bench.Table, l bench.Latency, fileOnly bool) {
			if fileOnly {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.3f\t–\t–\t–\t–\t–\t–\t–\t\n", sys, repo, t.Instances,
					t.File.At[1], t.File.At[3], t.File.At[5], t.File.MRR)
				return
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.3f\t%.2f\t%.2f\t%.2f\t%.2f\t%.3f\t%s\t%s\t\n", sys, repo, t.Instances,
				t.File.At[1], t.File.At[3], t.File.At[5], t.File.MRR, t.Module.At[5], t.Module.At[10],
				t.Function.At[5], t.Function.At[10], t.Function.MRR, millis(l.P50), millis(l.P95))
		}
		row("grit", "all", s.Grit, s.Latency, false)
		row("bm25", "all", s.BM25, bench.Latency{}, true)
		row("grit", fmt.Sprintf("macro (%d repos)", len(s.Repos)), s.GritMacro, bench.Latency{}, false)
		row("bm25", fmt.Sprintf("macro (%d repos)", len(s.Repos)), s.BM25Macro, bench.Latency{}, true)
		for _, r := range s.Repos {
			row("grit", r.Repo, r.Grit, r.Latency, false)
			row("bm25", r.Repo, r.BM25, bench.Latency{}, true)
		}
		tw.Flush()
		fmt.Fprintf(w, "\nper language:\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "system\tlanguage\tn\tfile@1\tfile@3\tfile@5\tfile MRR\tmod@5\tmod@10\tfunc@5\tfunc@10\tfunc MRR\tp50 ms\tp95 ms\t")
		for _, l := range s.Languages {
			name := fmt.Sprintf("%s (%d repos)", l.Language, l.Repos)
			row("grit", name, l.Grit, l.Latency, false)
			row("bm25", name, l.BM25, bench.Latency{}, true)
		}
		tw.Flush()
	}
	if rep.MissingBlobs > 0 {
		fmt.Fprintf(w, "\n%d files left out over all instances: their blobs are missing from the mirror\n", rep.MissingBlobs)
	}
	if len(rep.Failed) > 0 {
		fmt.Fprintf(w, "\n%d instances failed:\n", len(rep.Failed))
		for _, f := range rep.Failed {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
}

// millis formats a latency column; a macro average has none (a mean of
// repositories' percentiles is not a percentile), shown as a dash.
func millis(ms float64) string {
	if ms == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", ms)
}
