package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestBenchLocateReal runs `bench locate` over real mirrors when
// GRIT_BENCH_MIRRORS names their directory (slow; skipped otherwise).
// GRIT_BENCH_LIMIT, GRIT_BENCH_FILTER, GRIT_BENCH_WORK and GRIT_BENCH_RESULTS
// set --limit, --repo-filter, --work and --out.
func TestBenchLocateReal(t *testing.T) {
	mirrors := os.Getenv("GRIT_BENCH_MIRRORS")
	if mirrors == "" {
		t.Skip("set GRIT_BENCH_MIRRORS to run the localisation benchmark")
	}
	data := filepath.Join("..", "..", "..", "shared", "bench", "dev.jsonl")
	if d := os.Getenv("GRIT_BENCH_DATA"); d != "" {
		data = d
	}
	f := benchLocateFlags{data: data, repos: mirrors, work: os.Getenv("GRIT_BENCH_WORK"), out: os.Getenv("GRIT_BENCH_RESULTS"),
		repoFilter: os.Getenv("GRIT_BENCH_FILTER"), verbose: os.Getenv("GRIT_BENCH_VERBOSE") != ""}
	if f.work == "" {
		f.work = t.TempDir()
	}
	f.limit, _ = strconv.Atoi(os.Getenv("GRIT_BENCH_LIMIT"))
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), Stdio: Stdio{Out: &out, Err: &errb}}
	if err := runBenchLocate(e, f); err != nil {
		t.Fatalf("bench locate: %v\n%s", err, errb.String())
	}
	t.Logf("\n%s", out.String())
}
