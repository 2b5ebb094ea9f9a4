package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
)

// newBenchCmd is `grit bench`: each benchmark is a subcommand.
func newBenchCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure Grit on real repositories",
		Long: `Bench runs Grit's benchmarks. Each prints what it measured in one run on one
tree, and the same as JSON with --json.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	for _, sub := range []func(*env) *cobra.Command{
		newBenchIndexCmd,
		newBenchEditsCmd,
		newBenchLocateCmd,
		// Bench subcommands register here, one line each.
	} {
		cmd.AddCommand(sub(e))
	}
	return cmd
}

// benchIndexReport is `grit bench index --json`.
type benchIndexReport struct {
	Repo         string  `json:"repo"`
	Files        int     `json:"files"`
	SourceBytes  int64   `json:"source_bytes"`
	Defs         int     `json:"defs"`
	ColdMS       float64 `json:"cold_ms"`       // in-process time of a cold index
	ColdWallMS   float64 `json:"cold_wall_ms"`  // the whole `grit index` process
	WarmMS       float64 `json:"warm_ms"`       // no change
	Touch3MS     float64 `json:"touch3_ms"`     // three files edited
	Edit1MS      float64 `json:"edit1_ms"`      // one file edited
	PeakRSSKiB   int64   `json:"peak_rss_kib"`  // max over the runs
	DBBytes      int64   `json:"db_bytes"`      // index.db + WAL
	DBRatio      float64 `json:"db_ratio"`      // DBBytes / SourceBytes
	BareParseMS  float64 `json:"bare_parse_ms"` // tree-sitter alone, same files, same workers
	BareRatio    float64 `json:"bare_ratio"`    // ColdMS / BareParseMS
	Workers      int     `json:"workers"`
	CtagsMS      float64 `json:"ctags_ms,omitempty"`
	CtagsRatio   float64 `json:"ctags_ratio,omitempty"` // ColdMS / CtagsMS
	GitStatusMS  float64 `json:"git_status_ms,omitempty"`
	PeersSkipped string  `json:"peers_skipped,omitempty"`
}

func newBenchIndexCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "index REPO",
		Short: "Time cold, warm and incremental indexing of REPO, with peers",
		Long: `Bench index measures, in one run on the same tree: a cold index (the database
removed first), a warm run with no change, a run after editing three files and
one after editing one file (each edit is undone afterwards), the peak RSS of the
indexing processes, the database size against the source size, and as peers the
time of bare tree-sitter parsing of the same files, of ctags -R and of git status.

Each index run is a separate 'grit index' process; times are the index's own
measurement (the whole process is in cold_wall_ms). The edits append a comment
line to files and restore them byte for byte.`,
		Example: `  grit bench index ~/src/sympy
  grit bench index --json ~/src/requests | jq .cold_ms`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			if err := checkDir(root); err != nil {
				return err
			}
			r, err := benchIndex(e.ctx, e, root)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.Out, r)
			}
			printBenchIndex(e, r)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

// indexRun runs `grit index --json root` as a child process.
func indexRun(ctx context.Context, root string) (index.Stats, time.Duration, int64, error) {
	exe, err := os.Executable()
	if err != nil {
		return index.Stats{}, 0, 0, err
	}
	cmd := exec.CommandContext(ctx, exe, "index", "--json", root)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return index.Stats{}, 0, 0, fmt.Errorf("grit index %s: %w\n%s", root, err, errb.String())
	}
	wall := time.Since(start)
	var st index.Stats
	if err := json.Unmarshal(out.Bytes(), &st); err != nil {
		return st, 0, 0, fmt.Errorf("grit index --json output: %w", err)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss // KiB on Linux
	}
	return st, wall, rss, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func benchIndex(ctx context.Context, e *env, root string) (*benchIndexReport, error) {
	r := &benchIndexReport{Repo: root, Workers: runtime.GOMAXPROCS(0)}
	db := index.DBPath(root)
	for _, sfx := range []string{"", "-wal", "-shm"} {
		os.Remove(db + sfx)
	}
	step := func(name string) { fmt.Fprintf(e.Err, "bench: %s...\n", name) }
	step("cold index")
	st, wall, rss, err := indexRun(ctx, root)
	if err != nil {
		return nil, err
	}
	r.ColdMS, r.ColdWallMS, r.PeakRSSKiB, r.Files, r.Defs = ms(st.Duration), ms(wall), rss, st.Seen, st.Defs
	step("warm index")
	st, _, rss, err = indexRun(ctx, root)
	if err != nil {
		return nil, err
	}
	r.WarmMS, r.PeakRSSKiB = ms(st.Duration), max(r.PeakRSSKiB, rss)

	ix, err := app.OpenIndex(ctx, root, index.Options{})
	if err != nil {
		return nil, err
	}
	files, err := ix.Files(ctx)
	ix.Close()
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
		r.SourceBytes += f.Size
	}
	if len(files) >= 3 {
		for _, c := range []struct {
			name  string
			n     int
			field *float64
		}{{"three edited files", 3, &r.Touch3MS}, {"one edited file", 1, &r.Edit1MS}} {
			step(c.name)
			var picked []string
			for i := 0; i < c.n; i++ {
				picked = append(picked, filepath.Join(root, filepath.FromSlash(files[(2*i+1)*len(files)/(2*c.n)].Path)))
			}
			d, prss, err := editRun(ctx, root, picked)
			if err != nil {
				return nil, err
			}
			*c.field, r.PeakRSSKiB = ms(d), max(r.PeakRSSKiB, prss)
		}
	}
	for _, sfx := range []string{"", "-wal"} {
		if fi, err := os.Stat(db + sfx); err == nil {
			r.DBBytes += fi.Size()
		}
	}
	if r.SourceBytes > 0 {
		r.DBRatio = float64(r.DBBytes) / float64(r.SourceBytes)
	}
	step("bare tree-sitter parse")
	bare, err := app.BareParse(ctx, root, paths, r.Workers)
	if err != nil {
		return nil, err
	}
	r.BareParseMS = ms(bare)
	if r.BareParseMS > 0 {
		r.BareRatio = r.ColdMS / r.BareParseMS
	}
	if _, err := exec.LookPath("ctags"); err == nil {
		step("ctags -R")
		tmp, err := os.CreateTemp("", "grit-bench-tags-*")
		if err == nil {
			tmp.Close()
			start := time.Now()
			cerr := exec.CommandContext(ctx, "ctags", "-R", "-f", tmp.Name(), "--exclude=.grit", root).Run()
			d := time.Since(start)
			os.Remove(tmp.Name())
			if cerr == nil {
				r.CtagsMS = ms(d)
				r.CtagsRatio = r.ColdMS / r.CtagsMS
			}
		}
	} else {
		r.PeersSkipped = "ctags not installed; "
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		step("git status")
		start := time.Now()
		if exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain").Run() == nil {
			r.GitStatusMS = ms(time.Since(start))
		}
	} else {
		r.PeersSkipped += "git status: not a git repository"
	}
	return r, nil
}

// editRun appends a comment to each file, indexes, then restores the files
// (and the index) exactly.
func editRun(ctx context.Context, root string, files []string) (time.Duration, int64, error) {
	type saved struct {
		data []byte
		mode os.FileMode
		mt   time.Time
	}
	orig := map[string]saved{}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return 0, 0, err
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, 0, err
		}
		orig[f] = saved{data, fi.Mode(), fi.ModTime()}
	}
	restore := func() {
		for f, s := range orig {
			os.WriteFile(f, s.data, s.mode)
			os.Chtimes(f, s.mt, s.mt)
		}
	}
	defer restore()
	for f, s := range orig {
		comment := "\n# grit bench\n"
		if filepath.Ext(f) != ".py" && filepath.Ext(f) != ".rb" {
			comment = "\n// grit bench\n"
		}
		if err := os.WriteFile(f, append(append([]byte{}, s.data...), comment...), s.mode); err != nil {
			return 0, 0, err
		}
	}
	st, _, rss, err := indexRun(ctx, root)
	if err != nil {
		return 0, 0, err
	}
	restore()
	if _, _, _, err := indexRun(ctx, root); err != nil {
		return 0, 0, err
	}
	return st.Duration, rss, nil
}

func printBenchIndex(e *env, r *benchIndexReport) {
	w := e.Out
	fmt.Fprintf(w, "repo            %s: %d files, %.1f MB source, %d definitions\n", r.Repo, r.Files, float64(r.SourceBytes)/1e6, r.Defs)
	fmt.Fprintf(w, "cold index      %8.0f ms  (process %0.f ms)\n", r.ColdMS, r.ColdWallMS)
	fmt.Fprintf(w, "bare parse      %8.0f ms  (tree-sitter alone, %d workers): index is %.2f×\n", r.BareParseMS, r.Workers, r.BareRatio)
	if r.CtagsMS > 0 {
		fmt.Fprintf(w, "ctags -R        %8.0f ms  index is %.2f×\n", r.CtagsMS, r.CtagsRatio)
	}
	if r.GitStatusMS > 0 {
		fmt.Fprintf(w, "git status      %8.1f ms\n", r.GitStatusMS)
	}
	fmt.Fprintf(w, "warm, no change %8.1f ms\n", r.WarmMS)
	fmt.Fprintf(w, "3 files edited  %8.1f ms\n", r.Touch3MS)
	fmt.Fprintf(w, "1 file edited   %8.1f ms\n", r.Edit1MS)
	fmt.Fprintf(w, "peak RSS        %8.1f MiB\n", float64(r.PeakRSSKiB)/1024)
	fmt.Fprintf(w, "database        %8.1f MB  (%.2f× the source)\n", float64(r.DBBytes)/1e6, r.DBRatio)
	if r.PeersSkipped != "" {
		fmt.Fprintf(w, "skipped peers: %s\n", r.PeersSkipped)
	}
}
