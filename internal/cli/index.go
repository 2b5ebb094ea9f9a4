package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
)

type indexFlags struct {
	json        bool
	maxFileSize int64
	budget      time.Duration
}

func newIndexCmd(e *env) *cobra.Command {
	var f indexFlags
	cmd := &cobra.Command{
		Use:   "index [PATH]",
		Short: "Index a repository into .grit/index.db (incremental)",
		Long: `Index walks the repository at PATH (default: the current directory) and stores
every definition, call site, import and cross-file reference in PATH/.grit/index.db.

It honours .gitignore files (nested ones too), .git/info/exclude and .gritignore;
skips binary files, files over --max-file-size and vendored or generated trees
(node_modules, vendor, .venv, dist, build, ...). Re-running is incremental: files
whose size and mtime are unchanged are not read, and only edges that depend on a
changed file are recomputed. A damaged index is moved aside and rebuilt.

The report gives files seen, parsed, reused and removed, the reuse rate and the
time, and every skipped file with its reason. A file indexed only in part
(definitions nested deeper than 32 levels, names over 256 bytes, qualified
names over 1 KiB, more than 20,000 definitions) gets a note saying so.`,
		Example: `  grit index                 # index the current repository
  grit index ~/src/requests  # index another one
  grit index --json | jq .parsed`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := "."
			if len(args) == 1 {
				root = args[0]
			}
			if err := checkDir(root); err != nil {
				return err
			}
			opts := index.Options{MaxFileSize: f.maxFileSize, FileBudget: f.budget, Warn: warner(e)}
			if !f.json && isTTY(e.Err) {
				opts.Progress = newProgress(e.Err).update
			}
			ix, st, err := app.UpdateIndex(e.ctx, root, opts)
			if opts.Progress != nil {
				fmt.Fprint(e.Err, "\r\033[K")
			}
			if err != nil {
				return err
			}
			defer ix.Close()
			if f.json {
				return writeJSON(e.Out, st)
			}
			printStats(e.Out, ix.Root(), st)
			return nil
		},
	}
	cmd.Flags().BoolVar(&f.json, "json", false, "print the report as JSON")
	cmd.Flags().Int64Var(&f.maxFileSize, "max-file-size", 1<<20, "skip files larger than this many bytes")
	cmd.Flags().DurationVar(&f.budget, "file-budget", 2*time.Second, "skip a file whose parse takes more CPU time than this (a busy machine does not count)")
	return cmd
}

// checkDir gives a clear error for a missing, non-directory or unreadable path.
func checkDir(p string) error {
	fi, err := os.Stat(p)
	switch {
	case os.IsNotExist(err):
		return withCode(ExitNotFound, fmt.Errorf("%s: no such directory", p))
	case err != nil:
		return err
	case !fi.IsDir():
		return usageErrorf("%s is not a directory (give the repository's root)", p)
	}
	if _, err := os.ReadDir(p); err != nil {
		return fmt.Errorf("%s: cannot read the directory: %w", p, err)
	}
	return nil
}

func printStats(w io.Writer, root string, st index.Stats) {
	fmt.Fprintf(w, "indexed %s: %d files seen, %d parsed, %d reused, %d removed (reuse %.0f%%), %d definitions in %s\n",
		root, st.Seen, st.Parsed, st.Reused, st.Removed, 100*st.ReuseRate, st.Defs, st.Duration.Round(time.Millisecond))
	for _, s := range st.Skipped {
		fmt.Fprintf(w, "  skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, s := range st.Capped {
		fmt.Fprintf(w, "  note: %s indexed in part: %s\n", s.Path, s.Reason)
	}
}

func warner(e *env) func(string) {
	return func(msg string) { fmt.Fprintf(e.Err, "grit: warning: %s\n", msg) }
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// progress draws "files/s, count, ETA" on a terminal line.
type progress struct {
	w     io.Writer
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer) *progress { return &progress{w: w, start: time.Now()} }

func (p *progress) update(done, total int) {
	now := time.Now()
	if done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	rate := float64(done) / max(el, 1e-3)
	eta := time.Duration(float64(total-done)/max(rate, 1e-3)) * time.Second
	fmt.Fprintf(p.w, "\r\033[Kindexing %d/%d files, %.0f files/s, ETA %s", done, total, rate, eta.Round(time.Second))
}

// repoRoot finds the repository root for a file argument: the nearest
// ancestor with .grit or .git, else the current directory.
func repoRoot(file string) (root, rel string, err error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", "", err
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		for _, m := range []string{".grit", ".git"} {
			if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
				r, err := filepath.Rel(dir, abs)
				return dir, filepath.ToSlash(r), err
			}
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", "", err
	}
	r, err := filepath.Rel(wd, abs)
	return wd, filepath.ToSlash(r), err
}
