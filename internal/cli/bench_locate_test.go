package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/search/bench"
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

// benchGit runs git in dir with a fixed identity and no user configuration.
func benchGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestBenchLocateDropsNothing runs `grit bench locate` on a small real
// mirror whose first base commit lacks a blob (as snapshots lack big ones),
// whose second turns a file into a directory, and a third instance whose
// base commit the mirror does not have: the first two run (the missing file
// counted), the third is listed with its reason in --json and in --out and
// scores 0; the BM25 peer ranks Go files; the report has the macro average
// and a table per language; --dump-defs carries the best definitions' signals.
func TestBenchLocateDropsNothing(t *testing.T) {
	src := t.TempDir()
	benchGit(t, src, "init", "-q", "-b", "main")
	commit := func(files map[string]string) string {
		// Deletions first, then writes in path order: a map's order is
		// random, and "tools" must be gone before "tools/gen.py" is written.
		paths := slices.Sorted(maps.Keys(files))
		for _, p := range paths {
			if files[p] == "" {
				os.RemoveAll(filepath.Join(src, p))
			}
		}
		for _, p := range paths {
			if files[p] != "" {
				writeFile(t, filepath.Join(src, p), files[p])
			}
		}
		benchGit(t, src, "add", "-A")
		benchGit(t, src, "commit", "-q", "-m", "step")
		return benchGit(t, src, "rev-parse", "HEAD")
	}
	c0 := commit(map[string]string{
		"server/retry.go": "package server\n\n// Backoff waits longer after each failed retry.\nfunc Backoff(attempt int) int { return attempt * attempt }\n",
		"client/dial.go":  "package client\n\nfunc Dial(addr string) error { return nil }\n",
		"data/big.bin":    "pretend this is 5 MiB\n",
		"tools":           "a file that becomes a directory\n",
	})
	c1 := commit(map[string]string{
		"tools":          "",
		"tools/gen.py":   "def generate_stubs(proto):\n    return proto\n",
		"client/dial.go": "package client\n\n// Dial connects; the timeout is ignored.\nfunc Dial(addr string, timeout int) error { return nil }\n",
	})
	mirrors := t.TempDir()
	mirror := filepath.Join(mirrors, "acme+rpc", "repo")
	benchGit(t, src, "clone", "-q", "--bare", src, mirror)
	oid := benchGit(t, src, "rev-parse", c0+":data/big.bin")
	if err := os.Remove(filepath.Join(mirror, "objects", oid[:2], oid[2:])); err != nil {
		t.Fatalf("remove the blob of data/big.bin from the mirror: %v", err)
	}
	recs := []map[string]any{
		{"instance_id": "acme__rpc-1", "repo": "acme/rpc", "base_commit": c0, "language": "go",
			"problem_statement": "Backoff grows too fast after a failed retry", "gold_files": []string{"server/retry.go"},
			"gold_entities_locagent": []string{"server/retry.go:Backoff"}},
		{"instance_id": "acme__rpc-2", "repo": "acme/rpc", "base_commit": c1,
			"problem_statement": "generate_stubs drops the proto", "gold_files": []string{"tools/gen.py"},
			"gold_entities_locagent": []string{"tools/gen.py:generate_stubs"}},
		{"instance_id": "acme__rpc-3", "repo": "acme/rpc", "base_commit": strings.Repeat("ab", 20), "language": "go",
			"problem_statement": "Dial ignores the timeout", "gold_files": []string{"client/dial.go"}},
	}
	var data bytes.Buffer
	for _, r := range recs {
		b, _ := json.Marshal(r)
		data.Write(append(b, '\n'))
	}
	dataFile := filepath.Join(t.TempDir(), "dev.jsonl")
	writeFile(t, dataFile, data.String())
	outFile := filepath.Join(t.TempDir(), "runs.jsonl")

	stdout, stderr, code := runGrit(t, "", "bench", "locate", "--data", dataFile, "--repos", mirrors,
		"--work", t.TempDir(), "--json", "--out", outFile, "--dump-defs", "5")
	if code != ExitOK {
		t.Fatalf("grit bench locate exit %d, stderr %q", code, stderr)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if rep.Instances != 3 || len(rep.Failed) != 1 || !strings.HasPrefix(rep.Failed[0], "acme__rpc-3: checkout: ") {
		t.Errorf("report: %d instances, failed %q; want 3, acme__rpc-3 failed at checkout", rep.Instances, rep.Failed)
	}
	if rep.MissingBlobs != 2 {
		t.Errorf("report missing_blobs = %d, want 2 (data/big.bin at both base commits)", rep.MissingBlobs)
	}
	var all *bench.SetReport
	for i := range rep.Sets {
		if rep.Sets[i].Name == "all" {
			all = &rep.Sets[i]
		}
	}
	if all == nil {
		t.Fatalf("no \"all\" set in %s", stdout)
	}
	if all.Grit.File.N != 3 || all.GritMacro.File.N != 1 || all.GritMacro.File.At[1] != all.Grit.File.At[1] {
		t.Errorf("all: file n = %d, macro over %d repos, macro file@1 %.2f vs micro %.2f; want 3 instances scored, 1 repo, the same figure",
			all.Grit.File.N, all.GritMacro.File.N, all.GritMacro.File.At[1], all.Grit.File.At[1])
	}
	var langs []string
	for _, l := range all.Languages {
		langs = append(langs, fmt.Sprintf("%s:%d", l.Language, l.Grit.Instances))
	}
	if got := strings.Join(langs, " "); got != "go:2 python:1" {
		t.Errorf("languages = %q, want \"go:2 python:1\" (the record's language, else its gold file's)", got)
	}

	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]bench.InstanceResult{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var ir bench.InstanceResult
		if err := json.Unmarshal([]byte(line), &ir); err != nil {
			t.Fatalf("--out line %q: %v", line, err)
		}
		byID[ir.InstanceID] = ir
	}
	if len(byID) != 3 {
		t.Fatalf("--out has %d instances, want 3:\n%s", len(byID), b)
	}
	if ir := byID["acme__rpc-1"]; ir.Error != "" || ir.MissingBlobs != 1 || len(ir.BM25Files) == 0 || ir.BM25Files[0] != "server/retry.go" {
		t.Errorf("acme__rpc-1: error %q, missing_blobs %d, bm25 %q; want it run, 1 blob missing, BM25 ranking server/retry.go first",
			ir.Error, ir.MissingBlobs, ir.BM25Files)
	}
	if ir := byID["acme__rpc-1"]; len(ir.DefScores) == 0 || ir.DefScores[0].Entity != "server/retry.go:Backoff" || ir.DefScores[0].Signals.Symbol == 0 {
		t.Errorf("acme__rpc-1 --dump-defs: %+v; want Backoff first with its symbol signal", ir.DefScores)
	}
	if ir := byID["acme__rpc-2"]; ir.Error != "" || ir.FileRank != 1 || ir.MissingBlobs != 1 {
		t.Errorf("acme__rpc-2 (tools became a directory): error %q, gold file rank %d, missing_blobs %d; want it run, tools/gen.py first, 1 blob missing",
			ir.Error, ir.FileRank, ir.MissingBlobs)
	}
	if ir := byID["acme__rpc-3"]; !strings.HasPrefix(ir.Error, "checkout: ") || len(ir.GoldFiles) != 1 {
		t.Errorf("acme__rpc-3: error %q, gold %q; want its checkout failure and its gold", ir.Error, ir.GoldFiles)
	}

	// The text report shows the macro average and the language table.
	stdout, stderr, code = runGrit(t, "", "bench", "locate", "--data", dataFile, "--repos", mirrors, "--work", t.TempDir())
	if code != ExitOK {
		t.Fatalf("grit bench locate exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"macro (1 repos)", "per language:", "go (1 repos)", "python (1 repos)", "1 instances failed:", "acme__rpc-3: checkout:", "2 files left out"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("bench locate output lacks %q:\n%s", want, stdout)
		}
	}
	// A macro average has no latency: its columns are dashes, not zeros.
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "grit" && f[1] == "macro" && f[len(f)-1] != "–" {
			t.Errorf("grit's macro row ends %q, want a dash for its latency:\n%s", f[len(f)-1], line)
		}
	}
}
