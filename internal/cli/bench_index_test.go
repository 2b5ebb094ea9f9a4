package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestBenchIndex runs `grit bench index --json` end to end on a small
// repository: every run is a real child process (this test binary, copied
// and run as grit through TestMain). It checks that each measure is there
// and consistent, and that the edited files come back byte for byte with
// their modification times.
func TestBenchIndex(t *testing.T) {
	// One run of each (the median of one is that run): some twenty child
	// processes, each a race-instrumented binary under go test -race.
	defer func(reps, rounds int) { benchReps, coldRounds = reps, rounds }(benchReps, coldRounds)
	benchReps, coldRounds = 1, 1
	root := t.TempDir()
	orig := map[string][]byte{}
	for i := range 4 {
		rel := filepath.Join("pkg", fmt.Sprintf("mod%d.py", i))
		src := fmt.Appendf(nil, "import os\n\n\ndef helper_%d(x):\n    return os.path.join(x, %q)\n\n\nclass Thing%d:\n    def run(self):\n        return helper_%d(self)\n", i, rel, i, i)
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		orig[path] = src
	}

	// A git repository, so that git status is timed beside the warm runs.
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "fixture"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}

	out, errs, code := runGrit(t, "", "bench", "index", "--json", root)
	if code != ExitOK {
		t.Fatalf("grit bench index: exit %d\n%s", code, errs)
	}
	var r benchIndexReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("grit bench index --json: %v\n%s", err, out)
	}
	if r.Files != 4 || r.Defs != 12 {
		t.Errorf("files, defs = %d, %d; want 4, 12", r.Files, r.Defs)
	}
	for name, v := range map[string]float64{
		"cold_ms": r.ColdMS, "warm_ms": r.WarmMS, "touch3_ms": r.Touch3MS, "edit1_ms": r.Edit1MS,
		"start_ms": r.StartMS, "bare_parse_ms": r.BareParseMS, "db_ratio": r.DBRatio, "edit1_bytes": float64(r.Edit1Bytes),
		"direct_start_ms": r.DirectStartMS, "direct_warm_ms": r.DirectWarmMS, "direct_edit1_ms": r.DirectEdit1MS,
		"warm_own_cpu_ms": r.WarmOwnCPUMS, "git_status_ms": r.GitStatusMS, "warm_git_ratio": r.WarmGitRatio,
		"warm_process_cpu_ms": r.WarmProcCPUMS, "warm_git_process_cpu_ratio": r.WarmGitProcCPURatio,
	} {
		if v <= 0 {
			t.Errorf("%s = %v, want > 0", name, v)
		}
	}
	// A process takes longer than the index run inside it.
	for name, m := range map[string][2]float64{
		"cold": {r.ColdMS, r.ColdWallMS}, "warm": {r.WarmMS, r.WarmWallMS},
		"touch3": {r.Touch3MS, r.Touch3WallMS}, "edit1": {r.Edit1MS, r.Edit1WallMS},
		"direct edit1": {r.DirectEdit1MS, r.DirectEdit1WallMS},
	} {
		if m[1] < m[0] {
			t.Errorf("%s: process %.2f ms < its index run %.2f ms", name, m[1], m[0])
		}
	}
	// A process costs at least the CPU of the index run inside it.
	if r.WarmProcCPUMS < r.WarmOwnCPUMS {
		t.Errorf("warm: process CPU %.2f ms < its index run's %.2f ms", r.WarmProcCPUMS, r.WarmOwnCPUMS)
	}
	if r.PeakRSSKiB <= 0 || r.BaseRSSKiB <= 0 {
		t.Errorf("peak RSS %d KiB, base %d KiB: want both measured", r.PeakRSSKiB, r.BaseRSSKiB)
	}
	for path, src := range orig {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(src) {
			t.Errorf("%s not restored:\n%s", path, got)
		}
		if fi, err := os.Stat(path); err != nil || !fi.ModTime().Equal(time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)) {
			t.Errorf("%s: modification time not restored (%v)", path, err)
		}
	}
}
