package treesitter

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

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

type benchFile struct {
	path string
	src  []byte
}

// benchFiles reads the supported files of $GRIT_BENCH_REPO (a checkout such
// as sympy); the benchmarks skip without it.
func benchFiles(b *testing.B) ([]benchFile, int64) {
	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		b.Skip("GRIT_BENCH_REPO is not set")
	}
	p := New()
	var out []benchFile
	var total int64
	repoFiles(b, root, func(path string) bool { return p.Lang(path) != "" }, func(path string, src []byte) {
		out = append(out, benchFile{path, src})
		total += int64(len(src))
	})
	return out, total
}

// repoFiles calls fn with each regular file under root that keep accepts,
// skipping hidden directories (.git, .grit).
func repoFiles(tb testing.TB, root string, keep func(path string) bool, fn func(path string, src []byte)) {
	tb.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && keep(path) {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fn(path, src)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkParseOnly is bare tree-sitter parsing of every file, one thread.
func BenchmarkParseOnly(b *testing.B) {
	files, total := benchFiles(b)
	p := New()
	b.SetBytes(total)
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		for _, f := range files {
			if err := p.ParseOnly(f.path, f.src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParse is the full extraction of every file, one thread.
func BenchmarkParse(b *testing.B) {
	files, total := benchFiles(b)
	p := New()
	ctx := context.Background()
	b.SetBytes(total)
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		for _, f := range files {
			if _, err := p.Parse(ctx, f.path, f.src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseCursorWalk is BenchmarkParse with the walk's tree built
// through the public cursor instead of by reading subtrees.
func BenchmarkParseCursorWalk(b *testing.B) {
	setRawTree(false)
	defer setRawTree(true)
	BenchmarkParse(b)
}
