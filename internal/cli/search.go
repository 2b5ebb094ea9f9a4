package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/search"
)

type searchFlags struct {
	repo      string
	traceback string
	k         int
	asJSON    bool
	explain   bool
}

func newSearchCmd(e *env) *cobra.Command {
	var f searchFlags
	cmd := &cobra.Command{
		Use:   "search TASK...",
		Short: "Rank the functions and files a task is about (no model)",
		Long: fmt.Sprintf(`Search ranks the definitions (functions, methods, classes) and files of the
repository for a task: issue text, an error message, a pasted traceback. It
indexes incrementally first, then fuses deterministic signals, each
normalised to 0–1 and weighted:

  symbol %.1f     names written in the task against definition names
  path %.1f       paths, dotted module names and words against file paths
  content %.1f    the task's rarest identifiers, credited to the definitions holding
                 them (in process over the cached corpus; ripgrep for large repos)
  lexical %.1f    BM25 over files and definitions
  spread %.1f     callers, callees and members of the strongest hits, each in
                 proportion to its own evidence (the graph reorders, it does not add)
  recency %.1f    files touched in the last 10 commits
  traceback %.1f  frames of Python, pytest, Go and JavaScript traces in the repository,
                 the definitions whose source holds a quoted error message, and
                 those quoting a hyphenated name the task writes (a message id)

A definition also gets its file's standing (file %.1f: its file's score over the
best file's), so the functions of the best files lead the list, and among its
file's functions a share for its length (size %.1f): the long ones do more and
are changed more often. Among the 20 best files, one whose directory holds
others of them gets a share of their scores (package %.1f): the evidence of a
report gathers in the package where the fix is. A method named
after a class the task names (a printer's _print_Foo for Foo) shares the class's
symbol score, and more in the best files. A special method gets a share of its
file's standing when the task performs its operation: str(x) runs __str__,
a == b runs __eq__, instantiating a class runs __init__ and __new__.

Code terms (code spans, snippets, error messages) weigh twice prose words in
BM25. The site that defines a name written as code in prose gets a definition
boost (×2 on symbol); names only in example code, and builtin-looking names,
count less. Issue-template boilerplate (HTML comments, checklists, template
headings, environment and version dumps) and web links are not read (a link
to a file in a code host counts as its path). Test files are demoted unless
the task is about tests, and so are documentation, examples, benchmarks, setup
scripts, generated, vendored, minified or amalgamated files (by directory, file
name, a generator's banner, .gitattributes) and files in a language that holds
under a tenth of the repository's source files (the build and CI scripts of a
project written in another) unless the task names them; demoted files are
listed after all the others, each part by score. The same index
and task always give the same ranking. --explain says why each hit ranks where
it does; --json prints the whole result with every signal's contribution.

Exit status 3 means nothing matched (the note says why).`,
			search.WeightSymbol, search.WeightPath, search.WeightContent, search.WeightLexical,
			search.WeightSpread, search.WeightRecency, search.WeightTraceback,
			search.WeightFile, search.WeightSize, search.WeightPackage),
		Example: `  grit search "Session.resolve_redirects drops the fragment"
  grit search --explain -k 5 "latex() prints Mul with the wrong parentheses"
  pytest 2>&1 | grit search --traceback - "test_auth fails"
  grit search --json --repo ../requests "timeout not honoured" | jq '.hits[0].def.qname'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(e, f, args)
		},
	}
	cmd.Flags().StringVar(&f.repo, "repo", ".", "repository root to search")
	cmd.Flags().StringVar(&f.traceback, "traceback", "", "file holding a traceback or test output (- for stdin)")
	cmd.Flags().IntVarP(&f.k, "k", "k", 10, "number of results")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	cmd.Flags().BoolVar(&f.explain, "explain", false, "say in words why each result ranks where it does")
	return cmd
}

// maxTaskBytes bounds what search reads from --traceback.
const maxTaskBytes = 8 << 20

func runSearch(e *env, f searchFlags, args []string) error {
	if f.k <= 0 {
		return usageErrorf("-k must be positive, got %d", f.k)
	}
	q := locate.Request{Task: strings.Join(args, " "), K: f.k, Explain: f.explain}
	if f.traceback != "" {
		var r io.Reader
		if f.traceback == "-" {
			r = e.In
		} else {
			fh, err := os.Open(f.traceback)
			if err != nil {
				return usageErrorf("--traceback: %v", err)
			}
			defer fh.Close()
			r = fh
		}
		b, err := io.ReadAll(io.LimitReader(r, maxTaskBytes))
		if err != nil {
			return fmt.Errorf("read traceback: %w", err)
		}
		q.Traceback = string(b)
	}
	if q.Empty() {
		return usageErrorf("search needs a task: grit search \"what to find\" (or --traceback FILE)")
	}
	if !utf8.ValidString(q.Task) {
		q.Task = strings.ToValidUTF8(q.Task, " ")
	}
	if !utf8.ValidString(q.Traceback) {
		q.Traceback = strings.ToValidUTF8(q.Traceback, " ")
	}
	root, err := filepath.Abs(f.repo)
	if err != nil {
		return usageErrorf("--repo %q: %v", f.repo, err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		return usageErrorf("--repo %s: %v", f.repo, err)
	}
	opts := index.Options{Warn: func(msg string) { fmt.Fprintf(e.Err, "grit: warning: %s\n", msg) }}
	if isTTY(e.Err) {
		opts.Progress = func(done, total int) {
			fmt.Fprintf(e.Err, "\rindexing %d/%d", done, total)
			if done == total {
				fmt.Fprint(e.Err, "\r\033[K")
			}
		}
	}
	res, _, err := app.Search(e.ctx, root, q, opts)
	if err != nil {
		return err
	}
	if f.asJSON {
		enc := json.NewEncoder(e.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		printSearch(e.Out, res)
	}
	if len(res.Hits) == 0 && len(res.Files) == 0 {
		if !f.asJSON && res.Note != "" {
			fmt.Fprintf(e.Err, "grit: no results: %s\n", res.Note)
		}
		return quietError{ExitNotFound}
	}
	return nil
}

// printSearch writes the readable ranking: definitions, then files.
func printSearch(w io.Writer, res *search.Result) {
	if res.Note != "" && (len(res.Hits) > 0 || len(res.Files) > 0) {
		fmt.Fprintf(w, "note: %s\n", res.Note)
	}
	inRepo := 0
	for _, fr := range res.Frames {
		if fr.Rel != "" {
			inRepo++
		}
	}
	if len(res.Frames) > 0 {
		fmt.Fprintf(w, "traceback: %d frames, %d in the repository\n", len(res.Frames), inRepo)
	}
	if len(res.Hits) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "#\tLOCATION\tNAME\tKIND\tSCORE\tTOP SIGNALS")
		for i, h := range res.Hits {
			fmt.Fprintf(tw, "%d\t%s:%d\t%s\t%s\t%.3f\t%s\n", i+1, h.Def.Path, h.Def.StartLine, h.Def.QName, h.Def.Kind, h.Score, topSignals(h.Signals))
		}
		tw.Flush()
		for i, h := range res.Hits {
			if len(h.Explain) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n%d. %s (%s:%d)\n", i+1, h.Def.QName, h.Def.Path, h.Def.StartLine)
			for _, x := range h.Explain {
				fmt.Fprintf(w, "   %s\n", x)
			}
		}
	}
	if len(res.Files) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "#\tFILE\tSCORE\tTOP SIGNALS")
		for i, fh := range res.Files {
			fmt.Fprintf(tw, "%d\t%s\t%.3f\t%s\n", i+1, fh.Path, fh.Score, topSignals(fh.Signals))
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\n%.1f ms\n", res.TookMS)
}

// topSignals names the three largest contributions: "symbol 0.80 lexical 0.62 content 0.30".
func topSignals(s search.Signals) string {
	var parts []string
	for _, x := range s.Top(3) {
		parts = append(parts, fmt.Sprintf("%s %.2f", x.Name, x.Value))
	}
	return strings.Join(parts, " ")
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
