package index_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// benchRepo is the repository the index benchmarks run on: $GRIT_BENCH_REPO
// (a checkout such as sympy); they skip without it.
func benchRepo(b *testing.B) string {
	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		b.Skip("GRIT_BENCH_REPO is not set")
	}
	return root
}

// cpuTime is this process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports CPU time per op next to the (load-sensitive) wall time.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkColdIndex indexes $GRIT_BENCH_REPO from scratch.
func BenchmarkColdIndex(b *testing.B) {
	root := benchRepo(b)
	ctx := context.Background()
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(filepath.Join(root, ".grit"))
		b.StartTimer()
		ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Update(ctx); err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkWarmIndex re-indexes $GRIT_BENCH_REPO with nothing changed.
func BenchmarkWarmIndex(b *testing.B) {
	root := benchRepo(b)
	ctx := context.Background()
	ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx); err != nil {
		b.Fatal(err)
	}
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		if _, err := ix.Update(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEditOne re-indexes $GRIT_BENCH_REPO after one file changed (a
// comment appended, then taken away again: each op is one edit).
func BenchmarkEditOne(b *testing.B) {
	root := benchRepo(b)
	ctx := context.Background()
	ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx); err != nil {
		b.Fatal(err)
	}
	files, err := ix.Files(ctx)
	if err != nil || len(files) == 0 {
		b.Fatalf("Files() = %d, %v", len(files), err)
	}
	path := filepath.Join(root, filepath.FromSlash(files[len(files)/2].Path))
	orig, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(path, orig, 0o644)
	edited := append(append([]byte{}, orig...), "\n# edited\n"...)
	i := 0
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		data := edited
		if i%2 == 1 {
			data = orig
		}
		i++
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		st, err := ix.Update(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if st.Parsed != 1 {
			b.Fatalf("Update() parsed %d files, want 1", st.Parsed)
		}
	}
}
