package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// diskFixture is a rank fixture written out and indexed, with its queries.
type diskFixture struct {
	root    string
	ix      *index.Index
	queries []string
}

func openDiskFixture(t *testing.T, name string) *diskFixture {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "rank", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	fx := &diskFixture{root: t.TempDir()}
	for _, f := range ar.Files {
		if f.Name == "queries" {
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				text, _, _ := strings.Cut(line, " => ")
				fx.queries = append(fx.queries, strings.ReplaceAll(text, `\n`, "\n"))
			}
			continue
		}
		writeFile(t, filepath.Join(fx.root, f.Name), string(f.Data))
	}
	fx.ix = openIndex(t, fx.root)
	return fx
}

func openIndex(t *testing.T, root string) *index.Index {
	t.Helper()
	ix, err := index.Open(context.Background(), root, treesitter.New(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var fixtureNames = []string{"algebra", "gosvc", "shop"}

// prepareFresh prepares as a fresh process does; cold: with no corpus on
// disk either.
func prepareFresh(t *testing.T, ix *index.Index, cold bool) *Corpus {
	t.Helper()
	forget(ix.Root())
	if cold {
		os.Remove(corpusPath(ix.Root()))
	}
	c, err := Prepare(context.Background(), ix)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return c
}

// rankings runs every query (and one with a traceback and error text) on
// c, with explanations, as a comparable string per query.
func rankings(t *testing.T, c *Corpus, ix *index.Index, queries []string) []*Result {
	t.Helper()
	var out []*Result
	for _, q := range append(queries, "ValueError: bad total in checkout\nTraceback (most recent call last):\n  File \"x.py\", line 3, in main") {
		res, err := c.Search(context.Background(), ix, Query{Text: q, K: 50, Explain: true}, time.Now())
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		res.TookMS = 0
		out = append(out, res)
	}
	return out
}

// sameCorpus fails unless a and b rank every query alike and hold the same
// definitions, postings and graphs.
func sameCorpus(t *testing.T, what string, a, b *Corpus, ix *index.Index, queries []string) {
	t.Helper()
	if diff := cmp.Diff(rankings(t, a, ix, queries), rankings(t, b, ix, queries)); diff != "" {
		t.Fatalf("%s: rankings differ (-built +other):\n%s", what, diff)
	}
	type view struct {
		Defs       []index.Def
		Edges      []index.FileEdge
		Calls      [][]int32
		Idents     map[string]identPost
		Src        [][]byte
		NameIDF    [][]float64
		Files      []string
		FileModel  string
		DefModel   string
		Recent     map[string]float64
		Finger     string
		ParentName []string
	}
	v := func(c *Corpus) view {
		x := view{Defs: c.defs, Calls: c.calls, Idents: map[string]identPost{}, NameIDF: c.nameIDF,
			FileModel: modelString(c.fileBM25), DefModel: modelString(c.defBM25), Recent: c.recent, Finger: c.finger, ParentName: c.parentName}
		for k, p := range c.idents {
			q := *p
			if len(q.defs) == 0 {
				q.defs = nil
			}
			x.Idents[k] = q
		}
		for i := range c.graph {
			x.Edges = append(x.Edges, c.edgeAt(i))
		}
		for i, f := range c.files {
			x.Files = append(x.Files, fmt.Sprintf("%s %s %d %d %d %q %q %q", f.path, f.hash, f.size, f.first, f.n, f.pathTokens, f.stemToks, f.dirToks))
			if c.idents != nil {
				x.Src = append(x.Src, c.source(i))
			}
		}
		for i := range x.Calls {
			if len(x.Calls[i]) == 0 {
				x.Calls[i] = nil
			}
		}
		return x
	}
	// The views point into the corpora's mappings: keep them mapped.
	defer runtime.KeepAlive(a)
	defer runtime.KeepAlive(b)
	if diff := cmp.Diff(v(a), v(b), cmp.AllowUnexported(identPost{})); diff != "" {
		t.Fatalf("%s: corpora differ (-built +other):\n%s", what, diff)
	}
}

// modelString spells a BM25 model out, term by term.
func modelString(m *BM25) string {
	m.freeze()
	var b strings.Builder
	fmt.Fprintf(&b, "%d docs, total %d, lens %v\n", m.Len(), m.total, m.lens)
	for i := 0; i < m.terms(); i++ {
		fmt.Fprintf(&b, "%s %v\n", m.term(i), m.postingsOf(i, nil))
	}
	return b.String()
}

// TestCorpusDiskIdentity: a corpus read from disk ranks exactly as the one
// built in memory; after an edit, an added and a removed file, the corpus
// patched from the one on disk ranks exactly as one built from scratch.
func TestCorpusDiskIdentity(t *testing.T) {
	for _, name := range fixtureNames {
		t.Run(name, func(t *testing.T) {
			fx := openDiskFixture(t, name)
			built := prepareFresh(t, fx.ix, true)
			if len(built.mapped) != 0 {
				t.Fatal("a cold Prepare read a corpus from disk")
			}
			if _, err := os.Stat(corpusPath(fx.root)); err != nil {
				t.Fatalf("the corpus was not persisted: %v", err)
			}
			loaded := prepareFresh(t, fx.ix, false)
			if len(loaded.mapped) == 0 {
				t.Fatal("a warm Prepare did not read the corpus from disk")
			}
			sameCorpus(t, "loaded", built, loaded, fx.ix, fx.queries)

			files, err := fx.ix.Files(context.Background())
			if err != nil || len(files) < 2 {
				t.Fatalf("files: %v, %v", files, err)
			}
			steps := []struct {
				name string
				do   func()
			}{
				{"comment appended", func() { appendTo(t, filepath.Join(fx.root, files[0].Path), "\n# checkout total coupon\n") }},
				{"body edited", func() {
					appendTo(t, filepath.Join(fx.root, files[1].Path), "\n\ndef apply_refund_total(cart):\n    return cart.total - cart.refund\n")
				}},
				{"file added", func() {
					writeFile(t, filepath.Join(fx.root, "extra", "refunds.py"), "class Refund:\n    def total(self, cart):\n        return apply_refund_total(cart)\n")
				}},
				{"file removed", func() { os.Remove(filepath.Join(fx.root, files[len(files)-1].Path)) }},
			}
			for _, st := range steps {
				st.do()
				if _, err := fx.ix.Update(context.Background()); err != nil {
					t.Fatal(err)
				}
				patched := prepareFresh(t, fx.ix, false)
				if len(patched.mapped) == 0 {
					t.Fatalf("%s: the corpus was not patched from the one on disk", st.name)
				}
				again := prepareFresh(t, fx.ix, false) // the patched one, persisted
				rebuilt := prepareFresh(t, fx.ix, true)
				sameCorpus(t, st.name+": patched", rebuilt, patched, fx.ix, fx.queries)
				sameCorpus(t, st.name+": persisted", rebuilt, again, fx.ix, fx.queries)
			}
		})
	}
}

// TestCorpusInProcess: a long-lived process's cache follows the index when
// it changes underneath.
func TestCorpusInProcess(t *testing.T) {
	fx := openDiskFixture(t, "shop")
	first := prepareFresh(t, fx.ix, true)
	same, err := Prepare(context.Background(), fx.ix)
	if err != nil || same != first {
		t.Fatalf("an unchanged index was prepared again: %v", err)
	}
	appendTo(t, filepath.Join(fx.root, "shop", "cart.py"), "\n\ndef reprice_cart(cart):\n    return cart.subtotal\n")
	if _, err := fx.ix.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	next, err := Prepare(context.Background(), fx.ix)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.byName["reprice_cart"]) != 1 {
		t.Fatal("the cached corpus did not follow the index")
	}
	sameCorpus(t, "in process", prepareFresh(t, fx.ix, true), next, fx.ix, fx.queries)
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// The index sees a change by size and modification time.
	later := time.Now().Add(time.Duration(rand.IntN(1000)+1) * time.Millisecond)
	os.Chtimes(p, later, later)
}

// TestCorpusDiskDamaged: a truncated, random, foreign-version or
// bit-flipped corpus file is ignored; the search answers as from a fresh
// build, and the file is replaced by a good one.
func TestCorpusDiskDamaged(t *testing.T) {
	fx := openDiskFixture(t, "shop")
	built := prepareFresh(t, fx.ix, true)
	good, err := os.ReadFile(corpusPath(fx.root))
	if err != nil {
		t.Fatal(err)
	}
	version := func(v uint32) []byte {
		b := append([]byte{}, good...)
		b[8], b[9], b[10], b[11] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		return b
	}
	flip := func(at int) []byte {
		b := append([]byte{}, good...)
		b[at] ^= 0x40
		return b
	}
	random := make([]byte, len(good))
	for i := range random {
		random[i] = byte(rand.IntN(256))
	}
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"header only", good[:headerSize]},
		{"truncated", good[:len(good)/2]},
		{"one byte short", good[:len(good)-1]},
		{"one byte long", append(append([]byte{}, good...), 0)},
		{"random bytes", random},
		{"random after the magic", append([]byte(corpusMagic), random[8:]...)},
		{"older version", version(corpusVersion - 1)},
		{"newer version", version(corpusVersion + 1)},
		{"meta bit flipped", flip(headerSize + 5)},
		{"arrays bit flipped", flip(len(good) - 100)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(corpusPath(fx.root), tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.name != "arrays bit flipped" && loadCorpus(context.Background(), fx.ix) != nil {
				t.Fatal("a damaged corpus file was read")
			}
			c := prepareFresh(t, fx.ix, false)
			sameCorpus(t, tc.name, built, c, fx.ix, fx.queries)
			if loadCorpus(context.Background(), fx.ix) == nil {
				t.Fatal("the damaged file was not replaced by a good one")
			}
		})
	}
}

// TestCorpusDiskUnwritable: when the corpus cannot be written (here its
// path is taken by a directory, which a rename cannot replace, as a
// read-only or full .grit fails a write) the search still answers, and no
// temporary file is left.
func TestCorpusDiskUnwritable(t *testing.T) {
	fx := openDiskFixture(t, "shop")
	built := prepareFresh(t, fx.ix, true)
	os.Remove(corpusPath(fx.root))
	if err := os.Mkdir(corpusPath(fx.root), 0o755); err != nil {
		t.Fatal(err)
	}
	c := prepareFresh(t, fx.ix, false)
	sameCorpus(t, "unwritable", built, c, fx.ix, fx.queries)
	ents, _ := os.ReadDir(filepath.Join(fx.root, ".grit"))
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if os.Getuid() != 0 { // root writes through permissions
		os.Remove(corpusPath(fx.root))
		dir := filepath.Join(fx.root, ".grit")
		os.Chmod(dir, 0o555)
		defer os.Chmod(dir, 0o755)
		c := prepareFresh(t, fx.ix, false)
		sameCorpus(t, "read-only", built, c, fx.ix, fx.queries)
	}
}

// The helper process: GRIT_CORPUS_HELPER=search|save ROOT.
func TestMain(m *testing.M) {
	if mode := os.Getenv("GRIT_CORPUS_HELPER"); mode != "" {
		os.Exit(corpusHelper(mode, os.Getenv("GRIT_CORPUS_ROOT")))
	}
	os.Exit(m.Run())
}

func corpusHelper(mode, root string) int {
	ctx := context.Background()
	ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer ix.Close()
	switch mode {
	case "search": // index and search a few times, as 'grit search' does
		for i := 0; i < 5; i++ {
			if _, err := ix.Update(ctx); err != nil {
				fmt.Fprintln(os.Stderr, "update:", err)
				return 1
			}
			forget(root)
			if _, err := Run(ctx, ix, Query{Text: "coupon applied twice at checkout"}); err != nil {
				fmt.Fprintln(os.Stderr, "search:", err)
				return 1
			}
		}
	case "save": // write the corpus again and again until killed
		c, err := Prepare(ctx, ix)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("ready")
		for {
			if err := writeCorpus(c); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
	return 0
}

func helper(t *testing.T, mode, root string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GRIT_CORPUS_HELPER="+mode, "GRIT_CORPUS_ROOT="+root)
	return cmd
}

// TestCorpusDiskProcesses: several processes index and search one
// repository at once while it is edited; all succeed, and the corpus left
// on disk ranks as a fresh build.
func TestCorpusDiskProcesses(t *testing.T) {
	fx := openDiskFixture(t, "shop")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := helper(t, "search", fx.root).CombinedOutput(); err != nil {
				errs <- fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	for i := 0; i < 5; i++ {
		appendTo(t, filepath.Join(fx.root, "shop", "cart.py"), fmt.Sprintf("\n\ndef helper_%d(cart):\n    return cart.subtotal * %d\n", i, i))
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, err := fx.ix.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	loaded := prepareFresh(t, fx.ix, false)
	sameCorpus(t, "after processes", prepareFresh(t, fx.ix, true), loaded, fx.ix, fx.queries)
}

// TestCorpusDiskKilled: a writer killed (SIGKILL) at any moment leaves the
// old corpus or the new one, never a damaged one.
func TestCorpusDiskKilled(t *testing.T) {
	fx := openDiskFixture(t, "shop")
	built := prepareFresh(t, fx.ix, true)
	for i := 0; i < 6; i++ {
		cmd := helper(t, "save", fx.root)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		if _, err := out.Read(buf); err != nil {
			t.Fatalf("helper: %v", err)
		}
		time.Sleep(time.Duration(rand.IntN(20_000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		c := loadCorpus(context.Background(), fx.ix)
		if c == nil {
			t.Fatalf("kill %d: the corpus on disk is unreadable", i)
		}
		c.recent = built.recent
		sameCorpus(t, "after kill", built, c, fx.ix, fx.queries)
	}
}
