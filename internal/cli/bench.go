package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
	"github.com/grit-dev/grit/internal/search"
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
		newBenchFixCmd,
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
	ColdMS       float64 `json:"cold_ms"`         // in-process time of a cold index
	ColdWallMS   float64 `json:"cold_wall_ms"`    // the whole `grit index` process
	ColdCPUMS    float64 `json:"cold_cpu_ms"`     // its user+system CPU time
	WarmMS       float64 `json:"warm_ms"`         // no change
	WarmWallMS   float64 `json:"warm_wall_ms"`    // the whole process of that run
	WarmCPUMS    float64 `json:"warm_cpu_ms"`     // of the whole process
	WarmOwnCPUMS float64 `json:"warm_own_cpu_ms"` // the run's own CPU time (index.Stats.CPU), median of the runs
	Touch3MS     float64 `json:"touch3_ms"`       // three files edited
	Touch3WallMS float64 `json:"touch3_wall_ms"`  // the whole process of that run
	Touch3CPUMS  float64 `json:"touch3_cpu_ms"`   // of the whole process
	Edit1MS      float64 `json:"edit1_ms"`        // one file edited
	Edit1WallMS  float64 `json:"edit1_wall_ms"`   // the whole process of that run
	Edit1CPUMS   float64 `json:"edit1_cpu_ms"`    // of the whole process
	Edit1Bytes   int64   `json:"edit1_bytes"`     // the size of that file (the middle one in path order)
	StartMS      float64 `json:"start_ms"`        // the whole 'grit version' process: start-up and exit, no work
	// The same runs of this binary file itself rather than of the copy the
	// runs above use (copyExe): the kernel may map the one the Go linker
	// wrote in 2 MB pages while it stays in the page cache.
	DirectStartMS     float64 `json:"direct_start_ms"`
	DirectWarmMS      float64 `json:"direct_warm_ms"`
	DirectEdit1MS     float64 `json:"direct_edit1_ms"`
	DirectEdit1WallMS float64 `json:"direct_edit1_wall_ms"`
	HugeTextKiB       int64   `json:"huge_text_kib"`        // the copy's pages mapped 2 MB at a time (FilePmdMapped), at most
	DirectHugeTextKiB int64   `json:"direct_huge_text_kib"` // this binary's
	PeakRSSKiB        int64   `json:"peak_rss_kib"`         // max over the runs
	PeakAnonKiB       int64   `json:"peak_anon_kib"`        // anonymous part, max over the runs, sampled every 5 ms
	BaseRSSKiB        int64   `json:"base_rss_kib"`         // of 'grit version': what the binary costs before any work
	DBBytes           int64   `json:"db_bytes"`             // index.db + WAL
	DBRatio           float64 `json:"db_ratio"`             // DBBytes / SourceBytes
	BareParseMS       float64 `json:"bare_parse_ms"`        // tree-sitter alone, same files, same workers
	BareRatio         float64 `json:"bare_ratio"`           // ColdMS / BareParseMS
	BareCPUMS         float64 `json:"bare_parse_cpu_ms"`
	BareCPURatio      float64 `json:"bare_cpu_ratio"` // ColdCPUMS / BareCPUMS: steadier than wall time on a loaded machine
	ExtractMS         float64 `json:"extract_ms"`     // parse + extraction, no database, same workers
	ExtractCPUMS      float64 `json:"extract_cpu_ms"`
	Workers           int     `json:"workers"`
	CtagsMS           float64 `json:"ctags_ms,omitempty"`
	CtagsRatio        float64 `json:"ctags_ratio,omitempty"`        // ColdMS / CtagsMS
	GitStatusMS       float64 `json:"git_status_ms,omitempty"`      // median of benchReps runs, the whole process
	GitStatusCPUMS    float64 `json:"git_status_cpu_ms,omitempty"`  // median user+system CPU time of those runs
	WarmGitRatio      float64 `json:"warm_git_ratio,omitempty"`     // WarmMS / GitStatusMS
	WarmGitCPURatio   float64 `json:"warm_git_cpu_ratio,omitempty"` // WarmOwnCPUMS / GitStatusCPUMS
	// WarmProcCPUMS is the median CPU time of the warm runs' whole
	// processes (start-up and exit included, which WarmOwnCPUMS leaves out):
	// what a no-change run costs the machine, as git status's CPU does.
	WarmProcCPUMS       float64 `json:"warm_process_cpu_ms"`
	WarmGitProcCPURatio float64 `json:"warm_git_process_cpu_ratio,omitempty"` // WarmProcCPUMS / GitStatusCPUMS
	PeersSkipped        string  `json:"peers_skipped,omitempty"`
}

func newBenchIndexCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "index REPO",
		Short: "Time cold, warm and incremental indexing of REPO, with peers",
		Long: `Bench index measures, in one run on the same tree: a cold index (the database
removed first), a warm run with no change, a run after editing three files and
one after editing one file (each edit is undone afterwards), the peak RSS of the
indexing processes and, sampled, its anonymous part (the rest is the binary's
own pages, which the kernel maps more or less of from run to run), the database
size against the source size, and as peers the time of bare tree-sitter parsing
of the same files, of ctags -R and of git status.
Parsing with the index's extraction but no database splits the cold time into
parsing, extracting and storing.

Each index run is a separate 'grit index' process; times are the index's own
measurement, and the whole process's time is shown beside it: what a user
waits for adds the process's start-up, which 'grit version' shows alone, and
its exit (the database's checkpoint). The index runs use a copy of this
binary written the way an installer writes one; the start-up, warm and
one-file runs are then repeated with this binary file itself, which the
kernel may map in larger pages if the Go linker wrote it recently (its line
says how much). The cold index and the bare
parse are each the best of three runs, taken in turn; the warm and edit times
are the median of five. The edits append a comment line to files and restore
them byte for byte.`,
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

// noteMemory keeps the peaks of a run's memory.
func (r *benchIndexReport) noteMemory(run childRun) {
	r.PeakRSSKiB, r.PeakAnonKiB = max(r.PeakRSSKiB, run.rss), max(r.PeakAnonKiB, run.anon)
	r.HugeTextKiB = max(r.HugeTextKiB, run.hugeText)
}

// benchReps is how many times the warm and edit runs are repeated; their
// median is reported (one short run is at the mercy of the machine's load).
// coldRounds is how many cold index and bare parse runs are taken in turn.
// Variables so that a test can run each once.
var benchReps, coldRounds = 5, 3

// childTime is one index run: its own measurement and its process's cost.
type childTime struct {
	d   time.Duration
	run childRun
}

// medianRun returns the median time of runs (in ms), and that run's
// process wall and CPU time.
func medianRun(runs []childTime) (msTime, wallMS, cpuMS float64) {
	slices.SortFunc(runs, func(a, b childTime) int { return cmp.Compare(a.d, b.d) })
	m := runs[len(runs)/2]
	return search.Millis(m.d), search.Millis(m.run.wall), search.Millis(m.run.cpu)
}

// childRun is what one child process cost.
type childRun struct {
	wall, cpu time.Duration // cpu: user + system
	rss       int64         // peak, KiB: VmHWM sampled, or getrusage's for a run too short to sample
	anon      int64         // peak anonymous memory, KiB, sampled (0: unknown)
	hugeText  int64         // file pages mapped 2 MB at a time, KiB, read once (0: none or unknown)
}

// indexRun runs `grit index --json root` as a child process.
func indexRun(ctx context.Context, root string) (index.Stats, childRun, error) {
	var st index.Stats
	out, run, err := gritRun(ctx, "index", "--json", root)
	if err != nil {
		return st, run, err
	}
	if err := json.Unmarshal(out, &st); err != nil {
		return st, run, fmt.Errorf("grit index --json output: %w", err)
	}
	return st, run, nil
}

// benchExe is the binary gritRun runs: a copy of this one made by
// copyExe, or this one.
var benchExe string

// copyExe copies this grit binary into a temporary directory and has
// gritRun run the copy; the returned func removes it. The kernel maps a
// binary fresh from the Go linker into a process by larger blocks than one
// written the usual way: 49 MiB of grit's pages against 32 MiB in a cold
// index of sympy, which is page cache and not the index's memory.
func copyExe() (func(), error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "grit-bench-")
	if err != nil {
		return nil, err
	}
	done := func() { benchExe = ""; os.RemoveAll(dir) }
	src, err := os.Open(self)
	if err != nil {
		done()
		return nil, err
	}
	defer src.Close()
	dst, err := os.OpenFile(filepath.Join(dir, "grit"), os.O_CREATE|os.O_WRONLY, 0o755)
	if err == nil {
		// Written through write(2), not copy_file_range: the kernel maps
		// that copy the usual way.
		_, err = io.Copy(struct{ io.Writer }{dst}, struct{ io.Reader }{src})
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		done()
		return nil, fmt.Errorf("copy the grit binary: %w", err)
	}
	benchExe = dst.Name()
	return done, nil
}

// gritRun runs this grit binary (or benchExe) with args and measures it.
func gritRun(ctx context.Context, args ...string) ([]byte, childRun, error) {
	var run childRun
	exe := benchExe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, run, err
		}
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	// Named grit whatever the file is called: a test binary run as grit
	// (TestBenchIndex) is told so by its name.
	cmd.Args[0] = "grit"
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, run, fmt.Errorf("grit %v: %w", args, err)
	}
	stop := make(chan struct{})
	sampled := make(chan [3]int64, 1)
	go func() {
		hwm, anon, huge := peakMem(cmd.Process.Pid, stop)
		sampled <- [3]int64{hwm, anon, huge}
	}()
	err := cmd.Wait()
	run.wall = time.Since(start)
	close(stop)
	mem := <-sampled
	run.rss, run.anon, run.hugeText = mem[0], mem[1], mem[2]
	if err != nil {
		return nil, run, fmt.Errorf("grit %v: %w\n%s", args, err, errb.String())
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		if run.rss == 0 { // no /proc: the kernel's figure, which may count ours (see peakMem)
			run.rss = ru.Maxrss // KiB on Linux
		}
		run.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return out.Bytes(), run, nil
}

// peakMem samples a process's /proc/PID/status (Linux) every 5 ms until
// stop and returns the most it saw of VmHWM, its peak resident memory, and
// of RssAnon, its anonymous part, in KiB (0 where there is no such file),
// and FilePmdMapped from one read of /proc/PID/smaps_rollup at the second
// sample: how much of the binary the kernel maps in 2 MB pages.
// getrusage's peak for a child is no use here: Go starts children with
// vfork, and the kernel counts the parent's resident memory at that moment
// (this benchmark's, which parsed the whole repository itself) as the
// child's. The peak also counts the binary's own mapped pages (copyExe).
func peakMem(pid int, stop <-chan struct{}) (hwm, anon, huge int64) {
	path := fmt.Sprintf("/proc/%d/status", pid)
	field := func(data []byte, name string) int64 {
		_, rest, ok := bytes.Cut(data, []byte(name))
		if !ok {
			return 0
		}
		line, _, _ := bytes.Cut(rest, []byte("\n"))
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(string(line)), " kB"), 10, 64)
		return kb
	}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for i := 0; ; i++ {
		if data, err := os.ReadFile(path); err == nil {
			hwm = max(hwm, field(data, "VmHWM:"))
			anon = max(anon, field(data, "RssAnon:"))
		}
		if i == 1 { // the binary is mapped and running by now
			if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid)); err == nil {
				huge = field(data, "FilePmdMapped:")
			}
		}
		select {
		case <-stop:
			return hwm, anon, huge
		case <-t.C:
		}
	}
}

// selfCPU is this process's user + system CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchIndex(ctx context.Context, e *env, root string) (*benchIndexReport, error) {
	r := &benchIndexReport{Repo: root, Workers: runtime.GOMAXPROCS(0)}
	db := index.DBPath(root)
	for _, sfx := range []string{"", "-wal", "-shm"} {
		os.Remove(db + sfx)
	}
	step := func(name string) { fmt.Fprintf(e.Err, "bench: %s...\n", name) }
	done, err := copyExe()
	if err != nil {
		return nil, err
	}
	defer done()
	// What every run pays before any work: the process starting (the Go
	// runtime and every linked package's initialisation) and exiting.
	r.StartMS = startUp(ctx, func(run childRun) { r.BaseRSSKiB = max(r.BaseRSSKiB, run.rss) })
	// The cold index and the bare parse it is compared with each get the
	// best of three runs, taken in turn (cold, bare, cold, bare, ...): on a
	// shared machine one run of either swings by 15%, and load that comes
	// and goes then weighs on both alike.
	cold := func() error {
		for _, sfx := range []string{"", "-wal", "-shm"} {
			os.Remove(db + sfx)
		}
		s, run, err := indexRun(ctx, root)
		if err != nil {
			return err
		}
		r.noteMemory(run)
		if r.ColdMS == 0 || search.Millis(s.Duration) < r.ColdMS {
			r.ColdMS, r.ColdWallMS, r.ColdCPUMS, r.Files, r.Defs = search.Millis(s.Duration), search.Millis(run.wall), search.Millis(run.cpu), s.Seen, s.Defs
		}
		return nil
	}
	step("cold index")
	if err := cold(); err != nil {
		return nil, err
	}
	step("warm index")
	if err := benchWarm(ctx, r, root); err != nil {
		return nil, err
	}

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
	if err := benchEdits(ctx, r, root, files, step); err != nil {
		return nil, err
	}
	if err := benchDirect(ctx, r, root, files); err != nil {
		return nil, err
	}
	for _, sfx := range []string{"", "-wal"} {
		if fi, err := os.Stat(db + sfx); err == nil {
			r.DBBytes += fi.Size()
		}
	}
	if r.SourceBytes > 0 {
		r.DBRatio = float64(r.DBBytes) / float64(r.SourceBytes)
	}
	bare := func() error {
		cpu0 := selfCPU()
		d, err := treesitter.BareParse(ctx, root, paths, r.Workers)
		if err != nil {
			return err
		}
		if cpu := search.Millis(selfCPU() - cpu0); r.BareParseMS == 0 || search.Millis(d) < r.BareParseMS {
			r.BareParseMS, r.BareCPUMS = search.Millis(d), cpu
		}
		return nil
	}
	for i := range coldRounds {
		step(fmt.Sprintf("bare tree-sitter parse (%d of %d)", i+1, coldRounds))
		if err := bare(); err != nil {
			return nil, err
		}
		if i < coldRounds-1 {
			step(fmt.Sprintf("cold index (%d of %d)", i+2, coldRounds))
			if err := cold(); err != nil {
				return nil, err
			}
		}
	}
	if r.BareParseMS > 0 {
		r.BareRatio = r.ColdMS / r.BareParseMS
	}
	if r.BareCPUMS > 0 {
		r.BareCPURatio = r.ColdCPUMS / r.BareCPUMS
	}
	step("parse + extraction")
	cpu0 := selfCPU()
	ext, err := treesitter.ParseExtract(ctx, root, paths, r.Workers)
	if err != nil {
		return nil, err
	}
	r.ExtractMS, r.ExtractCPUMS = search.Millis(ext), search.Millis(selfCPU()-cpu0)
	benchPeers(ctx, r, root, step)
	return r, nil
}

// benchWarm times benchReps no-change index runs: the median run's times,
// and the medians of their own and their whole processes' CPU.
func benchWarm(ctx context.Context, r *benchIndexReport, root string) error {
	var warm []childTime
	var ownCPU, procCPU []float64
	for range benchReps {
		st, run, err := indexRun(ctx, root)
		if err != nil {
			return err
		}
		warm = append(warm, childTime{st.Duration, run})
		ownCPU = append(ownCPU, search.Millis(st.CPU))
		procCPU = append(procCPU, search.Millis(run.cpu))
		r.noteMemory(run)
	}
	r.WarmMS, r.WarmWallMS, r.WarmCPUMS = medianRun(warm)
	slices.Sort(ownCPU)
	slices.Sort(procCPU)
	r.WarmOwnCPUMS, r.WarmProcCPUMS = ownCPU[len(ownCPU)/2], procCPU[len(procCPU)/2]
	return nil
}

// benchEdits times incremental index runs after three edited files and
// after one (the median of benchReps each), when there are three files.
func benchEdits(ctx context.Context, r *benchIndexReport, root string, files []index.File, step func(string)) error {
	if len(files) >= 3 {
		for _, c := range []struct {
			name                       string
			n                          int
			field, wallField, cpuField *float64
		}{{"three edited files", 3, &r.Touch3MS, &r.Touch3WallMS, &r.Touch3CPUMS}, {"one edited file", 1, &r.Edit1MS, &r.Edit1WallMS, &r.Edit1CPUMS}} {
			step(c.name)
			picked := editedFiles(root, files, c.n)
			if c.n == 1 {
				r.Edit1Bytes = files[len(files)/2].Size
			}
			var runs []childTime
			for range benchReps {
				d, run, err := editRun(ctx, root, picked)
				if err != nil {
					return err
				}
				runs = append(runs, childTime{d, run})
				r.noteMemory(run)
			}
			*c.field, *c.wallField, *c.cpuField = medianRun(runs)
		}
	}
	return nil
}

// benchPeers times what the cold index is compared with, where it is
// installed: ctags -R over the tree and git status; PeersSkipped says
// which were not.
func benchPeers(ctx context.Context, r *benchIndexReport, root string, step func(string)) {
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
				r.CtagsMS = search.Millis(d)
				r.CtagsRatio = r.ColdMS / r.CtagsMS
			}
		}
	} else {
		r.PeersSkipped = "ctags not installed; "
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		step("git status")
		if err := benchGitStatus(ctx, r, root); err != nil {
			r.PeersSkipped += "git status: " + err.Error()
		}
	} else {
		r.PeersSkipped += "git status: not a git repository"
	}
}

// benchGitStatus times `git status` the way the warm index is timed: the
// median of benchReps runs (the first, which may refresh git's own index,
// not counted), wall and user+system CPU.
func benchGitStatus(ctx context.Context, r *benchIndexReport, root string) error {
	var wall, cpu []float64
	for i := range benchReps + 1 {
		c := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain")
		start := time.Now()
		if err := c.Run(); err != nil {
			return err
		}
		if i == 0 {
			continue
		}
		wall = append(wall, search.Millis(time.Since(start)))
		cpu = append(cpu, search.Millis(c.ProcessState.UserTime()+c.ProcessState.SystemTime()))
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	r.GitStatusMS, r.GitStatusCPUMS = wall[len(wall)/2], cpu[len(cpu)/2]
	if r.GitStatusMS > 0 {
		r.WarmGitRatio = r.WarmMS / r.GitStatusMS
	}
	if r.GitStatusCPUMS > 0 {
		r.WarmGitCPURatio = r.WarmOwnCPUMS / r.GitStatusCPUMS
		r.WarmGitProcCPURatio = r.WarmProcCPUMS / r.GitStatusCPUMS
	}
	return nil
}

// benchDirect repeats the start-up, warm and one-file runs with this binary
// file itself instead of its copy. The copy's pages were written by
// write(2), as an installer or a restore from a backup writes them, and the
// kernel maps them 4 KB at a time; the Go linker writes its output through
// a memory map, and on a kernel that caches files in large folios (this
// host's Linux 6.18 with ext4 does) the binary is then mapped in 2 MB pages
// until those folios are dropped. docs/design.md has what that did to
// start-up here. Both are measured; neither is the only real one.
func benchDirect(ctx context.Context, r *benchIndexReport, root string, files []index.File) error {
	saved := benchExe
	benchExe = ""
	defer func() { benchExe = saved }()
	r.DirectStartMS = startUp(ctx, func(run childRun) { r.DirectHugeTextKiB = max(r.DirectHugeTextKiB, run.hugeText) })
	var warm, edits []childTime
	for range benchReps {
		st, run, err := indexRun(ctx, root)
		if err != nil {
			return err
		}
		warm = append(warm, childTime{st.Duration, run})
		if len(files) >= 3 {
			d, run, err := editRun(ctx, root, editedFiles(root, files, 1))
			if err != nil {
				return err
			}
			edits = append(edits, childTime{d, run})
		}
	}
	r.DirectWarmMS, _, _ = medianRun(warm)
	if len(edits) > 0 {
		r.DirectEdit1MS, r.DirectEdit1WallMS, _ = medianRun(edits)
	}
	return nil
}

// startUp is the median of benchReps runs of 'grit version' (0 if none
// ran); note sees each run.
func startUp(ctx context.Context, note func(childRun)) float64 {
	var starts []childTime
	for range benchReps {
		if _, run, err := gritRun(ctx, "version"); err == nil {
			note(run)
			starts = append(starts, childTime{run.wall, run})
		}
	}
	if len(starts) == 0 {
		return 0
	}
	t, _, _ := medianRun(starts)
	return t
}

// editedFiles picks n of files (in path order) spread evenly, the middle one
// for n = 1, as paths under root.
func editedFiles(root string, files []index.File, n int) []string {
	var picked []string
	for i := range n {
		picked = append(picked, filepath.Join(root, filepath.FromSlash(files[(2*i+1)*len(files)/(2*n)].Path)))
	}
	return picked
}

// editRun appends a comment to each file, indexes, then restores the files
// (and the index) exactly.
func editRun(ctx context.Context, root string, files []string) (time.Duration, childRun, error) {
	type saved struct {
		data []byte
		mode os.FileMode
		mt   time.Time
	}
	orig := map[string]saved{}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return 0, childRun{}, err
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, childRun{}, err
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
			return 0, childRun{}, err
		}
	}
	st, run, err := indexRun(ctx, root)
	if err != nil {
		return 0, run, err
	}
	restore()
	if _, _, err := indexRun(ctx, root); err != nil {
		return 0, run, err
	}
	return st.Duration, run, nil
}

func printBenchIndex(e *env, r *benchIndexReport) {
	w := e.Out
	fmt.Fprintf(w, "repo            %s: %d files, %.1f MB source, %d definitions\n", r.Repo, r.Files, float64(r.SourceBytes)/1e6, r.Defs)
	fmt.Fprintf(w, "cold index      %8.0f ms  (process %0.f ms, CPU %.0f ms)\n", r.ColdMS, r.ColdWallMS, r.ColdCPUMS)
	fmt.Fprintf(w, "bare parse      %8.0f ms  (tree-sitter alone, %d workers, CPU %.0f ms): index is %.2f× (CPU %.2f×)\n",
		r.BareParseMS, r.Workers, r.BareCPUMS, r.BareRatio, r.BareCPURatio)
	if r.BareParseMS > 0 && r.BareCPUMS > 0 {
		fmt.Fprintf(w, "parse+extract   %8.0f ms  (no database, CPU %.0f ms): %.2f× bare parse (CPU %.2f×); storing is the rest\n",
			r.ExtractMS, r.ExtractCPUMS, r.ExtractMS/r.BareParseMS, r.ExtractCPUMS/r.BareCPUMS)
	}
	if r.CtagsMS > 0 {
		fmt.Fprintf(w, "ctags -R        %8.0f ms  index is %.2f×\n", r.CtagsMS, r.CtagsRatio)
	}
	if r.GitStatusMS > 0 {
		fmt.Fprintf(w, "git status      %8.1f ms  (CPU %.1f ms)\n", r.GitStatusMS, r.GitStatusCPUMS)
	}
	fmt.Fprintf(w, "warm, no change %8.1f ms  (own CPU %.1f ms; process %.0f ms, CPU %.0f ms)", r.WarmMS, r.WarmOwnCPUMS, r.WarmWallMS, r.WarmCPUMS)
	if r.GitStatusMS > 0 {
		fmt.Fprintf(w, ": %.2f× git status (CPU %.2f×; the whole process's CPU, median %.1f ms, %.2f×)",
			r.WarmGitRatio, r.WarmGitCPURatio, r.WarmProcCPUMS, r.WarmGitProcCPURatio)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "3 files edited  %8.1f ms  (process %.0f ms, CPU %.0f ms)\n", r.Touch3MS, r.Touch3WallMS, r.Touch3CPUMS)
	fmt.Fprintf(w, "1 file edited   %8.1f ms  (process %.0f ms, CPU %.0f ms; the file is %.1f KB)\n", r.Edit1MS, r.Edit1WallMS, r.Edit1CPUMS, float64(r.Edit1Bytes)/1e3)
	if r.StartMS > 0 {
		fmt.Fprintf(w, "start-up        %8.1f ms  ('grit version': a process's start and exit, in each process time above)\n", r.StartMS)
	}
	if r.DirectStartMS > 0 {
		fmt.Fprintf(w, "this binary     start-up %.1f ms, warm %.1f ms, 1 file edited %.1f ms (process %.0f ms): the same runs of this file itself, not of\n",
			r.DirectStartMS, r.DirectWarmMS, r.DirectEdit1MS, r.DirectEdit1WallMS)
		fmt.Fprintf(w, "                the copy written with write(2) that the runs above use (mapped in 2 MB pages: %.0f MiB of it, %.0f MiB of the copy)\n",
			float64(r.DirectHugeTextKiB)/1024, float64(r.HugeTextKiB)/1024)
	}
	fmt.Fprintf(w, "peak RSS        %8.1f MiB  ('grit version' alone: %.1f MiB)\n", float64(r.PeakRSSKiB)/1024, float64(r.BaseRSSKiB)/1024)
	if r.PeakAnonKiB > 0 {
		fmt.Fprintf(w, "  anonymous     %8.1f MiB  (sampled; the rest is the binary's mapped pages)\n", float64(r.PeakAnonKiB)/1024)
	}
	fmt.Fprintf(w, "database        %8.1f MB  (%.2f× the source)\n", float64(r.DBBytes)/1e6, r.DBRatio)
	if r.PeersSkipped != "" {
		fmt.Fprintf(w, "skipped peers: %s\n", r.PeersSkipped)
	}
}
