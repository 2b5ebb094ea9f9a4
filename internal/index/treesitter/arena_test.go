package treesitter

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestArenaMatchesMalloc parses every fixture, in every language, with the
// per-file arena and with malloc, and wants identical results; also with an
// arena of one chunk, so that larger files spill to malloc halfway through
// a parse; and every supported file of $GRIT_BENCH_REPO when it is set.
func TestArenaMatchesMalloc(t *testing.T) {
	p := New()
	ctx := context.Background()
	check := func(name string, src []byte) {
		t.Helper()
		file, _, _ := strings.Cut(name, " (")
		useArena = false
		want, werr := p.Parse(ctx, file, src)
		useArena = true
		got, gerr := p.Parse(ctx, file, src)
		if werr != nil || gerr != nil {
			t.Errorf("parse(%q): arena error %v, malloc error %v", name, gerr, werr)
			return
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("parse(%q): arena differs from malloc (-malloc +arena):\n%s", name, diff)
		}
	}
	defer func() { useArena = true }()

	var fixtures []txtar.File
	for _, file := range []string{"testdata/walker.txtar", "../testdata/repo.txtar"} {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fixtures = append(fixtures, ar.Files...)
	}
	err := filepath.WalkDir("testdata/langs", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(path)
		fixtures = append(fixtures, txtar.File{Name: path, Data: src})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A large file: its tree needs more than the arena's first chunk.
	var big strings.Builder
	for i := range 3000 {
		big.WriteString("def f" + strings.Repeat("x", i%50) + "(a, b=[1, 2, {3: 4}]):\n    return g(a).h[b] + 'text'\n\n")
	}
	fixtures = append(fixtures, txtar.File{Name: "big.py", Data: []byte(big.String())})

	for _, f := range fixtures {
		if p.Lang(f.Name) != "" {
			check(f.Name, f.Data)
		}
	}
	before := arenaSpills()
	old := setArenaLimit(1)
	for _, f := range fixtures {
		if p.Lang(f.Name) != "" {
			check(f.Name+" (spilling)", f.Data)
		}
	}
	setArenaLimit(old)
	if arenaSpills() == before {
		t.Errorf("no parse spilled out of a one-chunk arena: the spill path went untested")
	}

	root := os.Getenv("GRIT_BENCH_REPO")
	if root == "" {
		return
	}
	n := 0
	repoFiles(t, root, func(path string) bool { return p.Lang(path) != "" }, func(path string, src []byte) {
		check(path, src)
		check(path+" (first half)", src[:len(src)/2])
		n++
	})
	t.Logf("%d files of %s compared", n, root)
}

// TestArenaKeepBounded parses on many goroutines at once: the arenas left
// idle keep at most GRIT_ARENA_KEEP_ALL mapped between them.
func TestArenaKeepBounded(t *testing.T) {
	p := New()
	p.Budget = time.Minute // many parses share the cores: the default 2 s is wall time
	var src strings.Builder
	for i := range 2000 {
		src.WriteString("def f" + strings.Repeat("x", i%40) + "(a, b=[1, 2]):\n    return g(a).h[b] + 'text'\n\n")
	}
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				if _, err := p.Parse(context.Background(), "m.py", []byte(src.String())); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if idle := arenaIdleBytes(); idle == 0 || idle > 32<<20 {
		t.Errorf("idle arenas keep %d bytes mapped, want some and at most 32 MiB", idle)
	}
}
