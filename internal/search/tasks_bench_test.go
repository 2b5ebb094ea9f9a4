package search

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkSearchTasks ranks $GRIT_BENCH_REPO for every task of
// $GRIT_BENCH_TASKS (JSONL records with a problem_statement, e.g. the
// sympy lines of a dev.jsonl) on a prepared corpus and reports the
// per-query latency's median and 95th percentile (p50-ms, p95-ms): the
// warm-index search latency the issue tracker's targets are stated in.
//
//	grep '"sympy/sympy"' dev.jsonl > /tmp/sympy.jsonl
//	GRIT_BENCH_REPO=~/sympy GRIT_BENCH_TASKS=/tmp/sympy.jsonl \
//	  go test ./internal/search -run '^$' -bench SearchTasks -benchtime 3x
func BenchmarkSearchTasks(b *testing.B) {
	path := os.Getenv("GRIT_BENCH_TASKS")
	if path == "" {
		b.Skip("GRIT_BENCH_TASKS is not set")
	}
	tasks := readTasks(b, path)
	ix, c := benchPrepared(b)
	var took []time.Duration
	for b.Loop() {
		for _, q := range tasks {
			start := time.Now()
			if _, err := c.Search(context.Background(), ix, Query{Text: q, K: 50}, start); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
	}
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}

func readTasks(b *testing.B, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var tasks []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r struct {
			ProblemStatement string `json:"problem_statement"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			b.Fatalf("%s: %v", path, err)
		}
		if r.ProblemStatement != "" {
			tasks = append(tasks, r.ProblemStatement)
		}
	}
	if err := sc.Err(); err != nil || len(tasks) == 0 {
		b.Fatalf("%s: no tasks (%v)", path, err)
	}
	return tasks
}
