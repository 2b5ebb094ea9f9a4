package search

import (
	"context"
	"crypto/sha256"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/span"
)

// Corpus is what the search precomputes from one state of an index: the
// definitions grouped by file, BM25 models over files (path + content) and
// over definitions (qualified name + own text), name frequencies, the file
// graph and git recency. It is immutable once built and safe for concurrent
// use; Prepare rebuilds it when the index's files change, re-tokenizing only
// files whose content hash changed.
type Corpus struct {
	root       string
	finger     string // content hashes of the indexed files
	quick      string // quickFinger when last checked
	files      []corpusFile
	fileIdx    map[string]int // path → index in files
	fileSet    map[string]bool
	defs       []index.Def // grouped by file (files order), each file's sorted by start, then longest first
	defFile    []int       // def → file index
	parentOf   []int       // def → enclosing def, -1 at top level
	byID       map[int64]int
	calls      [][]int32   // def → callers and callees (corpus indices), sorted
	nameToks   [][]string  // def → lower-cased name parts
	nameIDF    [][]float64 // def → idf of each name part in the definition corpus
	nameIDFSum []float64
	lowerName  []string // def → lower-cased name
	sameName   []int32  // def → the first definition of its name
	parentName []string // def → enclosing definition's name, or the file stem at top level
	byName     map[string][]int
	byLower    map[string][]int
	// bySegment maps a capitalised segment of an underscored name to the
	// definitions so named: "SeqFormula" → _print_SeqFormula.
	bySegment map[string][]int
	fileBM25  *BM25
	defBM25   *BM25
	// graph is the file graph as the index gave it (heaviest first),
	// compact (files by number, see edgeFile); fileNeighbours reads it.
	// The names that make an edge are not kept: no signal reads them.
	// edgeExtra names the ends that are not corpus files, numbered from
	// len(files) on.
	graph     []graphEdge
	edgeExtra []string
	extraIdx  map[string]int32 // edgeExtra's numbers, while edges are added
	recent    map[string]float64
	allPaths  []string
	// nameTok maps a lower-cased name part, stemmed, to the definitions whose name has it.
	nameTok map[string][]int32
	// idents holds each identifier's occurrences, for in-process content
	// search (source reads the few files it picks from disk); nil when the
	// repository's source exceeds maxCorpusSource (ripgrep searches the
	// disk then).
	idents map[string]*identPost

	// stamp is defStamp of the index the definitions came from.
	stamp string
	// unsure: some file's bytes were not the ones the index hashed (edited
	// since indexing, or unreadable); such a corpus is not persisted.
	unsure bool
	// mapped holds the file mappings the corpus's arrays and sources point
	// into (see corpus_disk.go), so they stay mapped while it is in use.
	mapped []*mapping
}

// identPost is where one identifier occurs: the innermost definitions that
// hold it and the files, each sorted and distinct.
type identPost struct {
	defs  []int32
	files []int32
}

// maxCorpusSource bounds the source a Corpus indexes for in-process
// content search; larger repositories are searched with ripgrep.
const maxCorpusSource = 64 << 20

type corpusFile struct {
	path       string
	hash       string
	size       int // bytes read when tokenized (0 when unreadable)
	pathTokens []string
	isTest     bool
	isAux      bool     // documentation, examples, benchmarks, build and setup scripts
	stemToks   []string // name parts of the file name (without extension)
	dirToks    []string // name parts of its directories
	first      int      // first def index
	n          int      // number of defs
}

// fileDoc is the tokenized content of one file version, cached by hash.
type fileDoc struct {
	tf     map[string]int
	length int
	defs   []defDoc // parallel to the file's defs in corpus order
	nDefs  int
	size   int // len of the source
	// idents maps each identifier of the file to the innermost definitions
	// (file-local index, -1 at module level) holding an occurrence.
	idents map[string][]int32
	// unread: the file could not be read; verified: its bytes have the
	// content hash the index recorded (only then may they be persisted).
	unread, verified bool
}

type defDoc struct {
	tf     map[string]int
	length int
}

// corpusCache holds the last Corpus per index root, so a long-lived process
// (the explorer, the MCP server, the bench) prepares once per index state.
type corpusCache struct {
	mu      sync.Mutex // guards corpora
	corpora map[string]*Corpus
}

var cache = &corpusCache{corpora: map[string]*Corpus{}}

// Prepare returns the Corpus for ix's current state. It is the last one
// prepared for the same root in this process when the indexed files are
// unchanged, else the one persisted on disk (.grit/search.corpus, see
// corpus_disk.go) when it was made from the same index state. After a
// change it updates the nearest one it has, re-tokenizing only the files
// whose content hash changed, and persists the result; with none it builds
// from scratch. The cache on disk never fails a search: an unreadable,
// damaged or foreign one is ignored and one that cannot be written is
// skipped.
func Prepare(ctx context.Context, ix *index.Index) (*Corpus, error) {
	root := ix.Root()
	quick, err := quickFinger(ctx, ix)
	if err != nil {
		return nil, err
	}
	cache.mu.Lock()
	c := cache.corpora[root]
	cache.mu.Unlock()
	if c != nil && c.quick == quick {
		return c, nil
	}
	files, err := ix.Files(ctx)
	if err != nil {
		return nil, fmt.Errorf("list indexed files: %w", err)
	}
	finger := fileFinger(files)
	if c != nil && c.finger == finger {
		c2 := *c
		c2.quick = quick
		cache.put(root, &c2)
		return &c2, nil
	}
	stamp, err := defStamp(ctx, ix)
	if err != nil {
		return nil, err
	}
	base := c
	if base == nil {
		// A fresh process: the corpus on disk, if it was made from this
		// state of the index, is the answer; else it is the base to patch.
		recentc := make(chan map[string]float64, 1)
		go func() {
			r, _ := RecentFiles(ctx, root)
			recentc <- r
		}()
		base = readCorpus(ctx, ix)
		if base != nil && base.finger == finger && base.stamp == stamp {
			base.complete()
			base.quick = quick
			base.recent = <-recentc
			cache.put(root, base)
			return base, nil
		}
	}
	c = nil
	if base != nil {
		c, err = patchCorpus(ctx, ix, base, files, stamp)

		if err != nil && ctx.Err() != nil {
			return nil, err
		}
	}
	if c == nil {
		if c, err = buildCorpus(ctx, ix, files); err != nil {
			return nil, err
		}
		if s, err := defStamp(ctx, ix); err != nil || s != c.stamp {
			c.stamp = "" // the index changed while the corpus was built: do not keep it
		}
	}
	c.finger, c.quick = finger, quick
	if c.stamp != "" && c.stamp == stamp {
		saveCorpus(c)
	}
	cache.put(root, c)
	return c, nil
}

func (cc *corpusCache) put(root string, c *Corpus) {
	cc.mu.Lock()
	cc.corpora[root] = c
	cc.mu.Unlock()
}

// fileFinger is a digest of the indexed files' paths and content hashes.
func fileFinger(files []index.File) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%s\n", f.Path, f.Hash)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// quickFinger summarises the indexed files in one aggregate query: their
// number, total size, the sum of their modification times and the largest
// row id. Any write the index records changes a file's mtime (and so the
// sum), so an unchanged summary means an unchanged corpus; a changed one is
// checked against the content hashes before anything is rebuilt.
func quickFinger(ctx context.Context, ix *index.Index) (string, error) {
	db := ix.DB()
	if db == nil {
		return "", nil
	}
	var n, size, mtimes, maxID int64
	err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(size), 0), coalesce(sum(mtime % 1000000007), 0), coalesce(max(id), 0) FROM files WHERE skip = ''`).Scan(&n, &size, &mtimes, &maxID)
	if err != nil {
		return "", fmt.Errorf("check the index for changes: %w", err)
	}
	return fmt.Sprintf("%d/%d/%d/%d", n, size, mtimes, maxID), nil
}

// defStamp summarises the indexed definitions' row ids: their number and
// sum. Unchanged files keep their definitions' rows, so a corpus whose
// definitions give the same stamp holds the ids the index holds; an index
// rebuilt from scratch (or moved aside) gives another.
func defStamp(ctx context.Context, ix *index.Index) (string, error) {
	db := ix.DB()
	if db == nil {
		return "", nil
	}
	var n, sum int64
	err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(d.id), 0) FROM defs d JOIN files f ON f.id = d.file_id WHERE f.skip = ''`).Scan(&n, &sum)
	if err != nil {
		return "", fmt.Errorf("check the index for changes: %w", err)
	}
	return fmt.Sprintf("%d/%d", n, sum), nil
}

// stampOf is defStamp of a corpus's definitions.
func stampOf(defs []index.Def) string {
	var sum int64
	for _, d := range defs {
		sum += d.ID
	}
	return fmt.Sprintf("%d/%d", len(defs), sum)
}

// sideLoads reads the file graph, the call graph and git recency on their
// own goroutines, since they are independent of the tokenizing.
type sideLoads struct {
	edgesc  chan edgesResult
	callsc  chan callsResult
	recentc chan map[string]float64
}

type edgesResult struct {
	edges []index.FileEdge
	err   error
}

type callsResult struct {
	pairs [][2]int64
	err   error
}

// startSideLoads starts the reads; edges or calls false skips that one
// (its result is then empty).
func startSideLoads(ctx context.Context, ix *index.Index, edges, calls bool) *sideLoads {
	s := &sideLoads{edgesc: make(chan edgesResult, 1), callsc: make(chan callsResult, 1), recentc: make(chan map[string]float64, 1)}
	go func() {
		if !edges {
			s.edgesc <- edgesResult{}
			return
		}
		e, err := ix.AllEdges(ctx)
		s.edgesc <- edgesResult{e, err}
	}()
	go func() {
		if !calls {
			s.callsc <- callsResult{}
			return
		}
		p, err := callPairs(ctx, ix)
		s.callsc <- callsResult{p, err}
	}()
	root := ix.Root()
	go func() {
		r, _ := RecentFiles(ctx, root)
		s.recentc <- r
	}()
	return s
}

// wait returns the three results.
func (s *sideLoads) wait() (edgesResult, callsResult, map[string]float64) {
	return <-s.edgesc, <-s.callsc, <-s.recentc
}

// layoutCorpus lays out a corpus of files (sorted by path) and their
// definitions, defs holding counts[i] of file i's in turn (each file's
// sorted by start, then longest first): the files, which file holds each
// definition and which encloses it. It keeps defs.
//
// A file base holds too (by path) keeps base's name parts of its path.
func layoutCorpus(root string, files []index.File, defs []index.Def, counts []int, base *Corpus) *Corpus {
	c := &Corpus{
		root:    root,
		fileIdx: make(map[string]int, len(files)),
		fileSet: make(map[string]bool, len(files)),
		defs:    defs,
	}
	c.files = make([]corpusFile, 0, len(files))
	c.allPaths = make([]string, 0, len(files))
	c.defFile = make([]int, 0, len(defs))
	first := 0
	for i, f := range files {
		var cf corpusFile
		oi, ok := -1, false
		if base != nil {
			oi, ok = base.fileIdx[f.Path]
		}
		if ok {
			cf = base.files[oi]
		} else {
			segs := strings.Split(strings.TrimSuffix(f.Path, path.Ext(f.Path)), "/")
			var dirToks []string
			for _, s := range segs[:len(segs)-1] {
				dirToks = append(dirToks, nameTokens(s)...)
			}
			cf = corpusFile{stemToks: nameTokens(segs[len(segs)-1]), dirToks: dirToks, pathTokens: pathTokens(f.Path), isTest: IsTestPath(f.Path), isAux: IsAuxPath(f.Path)}
		}
		cf.path, cf.hash, cf.size, cf.first, cf.n = f.Path, f.Hash, 0, first, counts[i]
		c.fileIdx[f.Path] = len(c.files)
		c.fileSet[f.Path] = true
		c.files = append(c.files, cf)
		c.allPaths = append(c.allPaths, f.Path)
		for range counts[i] {
			c.defFile = append(c.defFile, len(c.files)-1)
		}
		first += counts[i]
	}
	// Enclosing definitions, by byte containment within each file.
	c.parentOf = make([]int, len(c.defs))
	for _, f := range c.files {
		var stack []int
		for i := f.first; i < f.first+f.n; i++ {
			d := c.defs[i]
			for len(stack) > 0 && c.defs[stack[len(stack)-1]].End <= d.Start {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 {
				c.parentOf[i] = stack[len(stack)-1]
			} else {
				c.parentOf[i] = -1
			}
			stack = append(stack, i)
		}
	}
	c.stamp = stampOf(c.defs)
	return c
}

// newCorpus lays out a corpus (see layoutCorpus) and indexes its
// definitions by id and name.
func newCorpus(root string, files []index.File, defs []index.Def, counts []int, base *Corpus) *Corpus {
	c := layoutCorpus(root, files, defs, counts, base)
	c.indexDefs()
	return c
}

// indexDefs indexes the definitions by id, name, lower-cased name and
// capitalised name segment. The definitions of one name share its
// lower-cased form (and, in deriveNames, its parts): sameName[i] is the
// first definition named as i is.
func (c *Corpus) indexDefs() {
	c.byID = make(map[int64]int, len(c.defs))
	c.byName = make(map[string][]int, len(c.defs)/2)
	c.byLower = make(map[string][]int, len(c.defs)/2)
	c.bySegment = map[string][]int{}
	c.lowerName = make([]string, len(c.defs))
	c.sameName = make([]int32, len(c.defs))
	for i, d := range c.defs {
		c.byID[d.ID] = i
		ds := append(c.byName[d.Name], i)
		c.byName[d.Name] = ds
		first := ds[0]
		c.sameName[i] = int32(first)
		l := c.lowerName[first]
		if first == i {
			l = strings.ToLower(d.Name)
		}
		c.lowerName[i] = l
		c.byLower[l] = append(c.byLower[l], i)
		if strings.Contains(d.Name, "_") {
			for _, seg := range strings.Split(d.Name, "_") {
				if seg != "" && seg[0] >= 'A' && seg[0] <= 'Z' && seg != d.Name {
					c.bySegment[seg] = append(c.bySegment[seg], i)
				}
			}
		}
	}
}

// sortDefs puts one file's definitions in corpus order: by start, then
// longest first.
func sortDefs(ds []index.Def) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Start != ds[j].Start {
			return ds[i].Start < ds[j].Start
		}
		return ds[i].End > ds[j].End
	})
}

// tokenizeFiles tokenizes the files at the given corpus indices in
// parallel, reading them from disk. A file that cannot be read (removed
// since indexing) contributes its path only; the next Update catches up.
func (c *Corpus) tokenizeFiles(ctx context.Context, which []int) []*fileDoc {
	docs := make([]*fileDoc, len(which))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(8, len(which)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				f := c.files[which[k]]
				src, err := span.ReadFile(filepath.Join(c.root, filepath.FromSlash(f.path)), 0)
				if err != nil {
					docs[k] = &fileDoc{tf: map[string]int{}, defs: make([]defDoc, f.n), nDefs: f.n, unread: true}
					continue
				}
				docs[k] = tokenizeFile(src, c.defs[f.first:f.first+f.n], c.parentOf[f.first:f.first+f.n], f.first)
				docs[k].verified = hashOf(src) == f.hash
			}
		}()
	}
	for k := range which {
		if ctx.Err() != nil {
			break
		}
		work <- k
	}
	close(work)
	wg.Wait()
	return docs
}

// hashOf is the index's content hash of src.
func hashOf(src []byte) string {
	h := sha256.Sum256(src)
	return hex.EncodeToString(h[:])
}

// buildCorpus builds a corpus from scratch.
func buildCorpus(ctx context.Context, ix *index.Index, files []index.File) (*Corpus, error) {
	side := startSideLoads(ctx, ix, true, true)
	all, err := ix.AllDefs(ctx)
	if err != nil {
		side.wait()
		return nil, fmt.Errorf("load definitions: %w", err)
	}
	byPath := map[string][]index.Def{}
	for _, d := range all {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	files = slices.Clone(files)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	flat := make([]index.Def, 0, len(all))
	counts := make([]int, len(files))
	for i, f := range files {
		ds := byPath[f.Path]
		sortDefs(ds)
		flat = append(flat, ds...)
		counts[i] = len(ds)
	}
	c := newCorpus(ix.Root(), files, flat, counts, nil)
	which := make([]int, len(c.files))
	for i := range which {
		which[i] = i
	}
	docs := c.tokenizeFiles(ctx, which)
	er, cr, recent := side.wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if er.err != nil {
		return nil, fmt.Errorf("load file graph: %w", er.err)
	}
	if cr.err != nil {
		return nil, fmt.Errorf("load call graph: %w", cr.err)
	}
	c.fileBM25 = NewBM25()
	c.defBM25 = NewBM25()
	for i, f := range c.files {
		d := docs[i]
		c.fileBM25.addTFPlus(d.tf, f.pathTokens, 1, d.length+len(f.pathTokens))
		for j := 0; j < f.n; j++ {
			dd := d.defs[j]
			qt := Tokenize(c.defs[f.first+j].QName)
			// The name says more than one use in the body: its terms count twice.
			c.defBM25.addTFPlus(dd.tf, qt, 2, dd.length+2*len(qt))
		}
	}
	c.fileBM25.freeze()
	c.defBM25.freeze()
	c.deriveNames()
	c.buildIdents(docs)
	c.setCallGraph(cr.pairs)
	c.setEdgeList(er.edges)
	c.recent = recent
	for _, d := range docs {
		if d.unread || !d.verified {
			c.unsure = true // what was read is not what the index hashed
		}
	}
	return c, nil
}

// deriveNames computes the definitions' name parts and their rarity in the
// definition model. The parts of a name may be given already (nameToks of
// each name's first definition, as decoded from disk).
func (c *Corpus) deriveNames() {
	if c.nameToks == nil {
		c.nameToks = make([][]string, len(c.defs))
	}
	c.nameTok = map[string][]int32{}
	c.nameIDF = make([][]float64, len(c.defs))
	c.nameIDFSum = make([]float64, len(c.defs))
	c.parentName = make([]string, len(c.defs))
	idfMemo := map[string]float64{}
	for i, d := range c.defs {
		if p := c.parentOf[i]; p >= 0 {
			c.parentName[i] = c.defs[p].Name
		} else if i > 0 && c.defFile[i-1] == c.defFile[i] && c.parentOf[i-1] < 0 {
			c.parentName[i] = c.parentName[i-1] // the same file's stem
		} else {
			c.parentName[i] = strings.TrimSuffix(path.Base(d.Path), path.Ext(d.Path))
		}
		// The parts of a name and their rarity are its first definition's
		// (shared, never written).
		if f := int(c.sameName[i]); f < i {
			c.nameToks[i], c.nameIDF[i], c.nameIDFSum[i] = c.nameToks[f], c.nameIDF[f], c.nameIDFSum[f]
		} else {
			ts := c.nameToks[i]
			if ts == nil {
				ts = nameTokens(d.Name)
			}
			idf := make([]float64, len(ts))
			sum := 0.0
			for j, t := range ts {
				v, ok := idfMemo[t]
				if !ok {
					v = c.defBM25.IDF(t)
					idfMemo[t] = v
				}
				idf[j] = v
				sum += v
			}
			c.nameToks[i], c.nameIDF[i], c.nameIDFSum[i] = ts, idf, sum
		}
		for j, t := range c.nameToks[i] {
			if !slices.Contains(c.nameToks[i][:j], t) {
				c.nameTok[stem(t)] = append(c.nameTok[stem(t)], int32(i))
			}
		}
	}
}

// graphEdge is an edge of the file graph by file number (see edgeFile).
type graphEdge struct {
	from, to int32
	w        float64
}

// setEdgeList keeps the file graph as the index gives it (heaviest first).
func (c *Corpus) setEdgeList(list []index.FileEdge) {
	es := make([]graphEdge, len(list))
	for i, e := range list {
		es[i] = c.graphEdge(e)
	}
	c.graph = es
}

// graphEdge is e by file number.
func (c *Corpus) graphEdge(e index.FileEdge) graphEdge {
	return graphEdge{c.edgeFile(e.From), c.edgeFile(e.To), e.Weight}
}

// edgeFile numbers an end of a file-graph edge: its index in files, else
// one in edgeExtra, added if new.
func (c *Corpus) edgeFile(p string) int32 {
	if i, ok := c.fileIdx[p]; ok {
		return int32(i)
	}
	if c.extraIdx == nil {
		c.extraIdx = make(map[string]int32, len(c.edgeExtra))
		for k, x := range c.edgeExtra {
			c.extraIdx[x] = int32(len(c.files) + k)
		}
	}
	if i, ok := c.extraIdx[p]; ok {
		return i
	}
	c.edgeExtra = append(c.edgeExtra, p)
	c.extraIdx[p] = int32(len(c.files) + len(c.edgeExtra) - 1)
	return c.extraIdx[p]
}

// edgePath is the path of file-graph end i.
func (c *Corpus) edgePath(i int32) string {
	if int(i) < len(c.files) {
		return c.files[i].path
	}
	return c.edgeExtra[int(i)-len(c.files)]
}

// fileNeighbours returns, for each of the files (corpus numbers), the
// other ends of its first limit edges in the graph's order (heaviest
// first), both directions merged: an edge to itself counts twice, an end
// that is not a corpus file counts but is numbered len(files) or more.
// One pass over the graph answers every file, stopping once each has
// limit; a search asks it for a few seed files.
func (c *Corpus) fileNeighbours(files []int, limit int) [][]int32 {
	out := make([][]int32, len(files))
	full := 0
	add := func(k int, other int32) {
		if len(out[k]) < limit {
			out[k] = append(out[k], other)
			if len(out[k]) == limit {
				full++
			}
		}
	}
	for _, e := range c.graph {
		if full == len(files) {
			break
		}
		for k, f := range files {
			if int(e.from) == f {
				add(k, e.to)
			}
			if int(e.to) == f {
				add(k, e.from)
			}
		}
	}
	return out
}

// edgeAt is edge i of the file graph in the index's order.
func (c *Corpus) edgeAt(i int) index.FileEdge {
	e := c.graph[i]
	return index.FileEdge{From: c.edgePath(e.from), To: c.edgePath(e.to), Weight: e.w}
}

// tokenizeFile tokenizes a whole file and each definition's own text:
// a function's whole body (nested functions included, as a change inside
// them is a change to it), a class's body without its methods.
func tokenizeFile(src []byte, defs []index.Def, parents []int, base int) *fileDoc {
	memo := map[string][]string{}
	tf := map[string]int{}
	n := 0
	idents := map[string][]int32{}
	var stack []int // open definitions (file-local), innermost last
	next := 0
	scanIdentsAt(src, func(id string, off int) {
		for _, t := range identTokensMemo(memo, id) {
			tf[t]++
			n++
		}
		for len(stack) > 0 && defs[stack[len(stack)-1]].End <= off {
			stack = stack[:len(stack)-1]
		}
		for next < len(defs) && defs[next].Start <= off {
			for len(stack) > 0 && defs[stack[len(stack)-1]].End <= defs[next].Start {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && defs[stack[len(stack)-1]].End <= off {
			stack = stack[:len(stack)-1]
		}
		in := int32(-1)
		if len(stack) > 0 {
			in = int32(stack[len(stack)-1])
		}
		ps := idents[id]
		if len(ps) == 0 || ps[len(ps)-1] != in {
			idents[id] = append(ps, in)
		}
	})
	for id, ps := range idents {
		if len(ps) > 1 {
			slices.Sort(ps)
			idents[id] = slices.Compact(ps)
		}
	}
	fd := &fileDoc{tf: tf, length: n, defs: make([]defDoc, len(defs)), nDefs: len(defs), size: len(src), idents: idents}
	for i, d := range defs {
		s, e := clamp(d.Start, len(src)), clamp(d.End, len(src))
		if s >= e {
			fd.defs[i] = defDoc{tf: map[string]int{}}
			continue
		}
		dtf := map[string]int{}
		dn := 0
		emit := func(id string) {
			for _, t := range identTokensMemo(memo, id) {
				dtf[t]++
				dn++
			}
		}
		if d.Kind == index.KindClass {
			// Own text: the class minus its direct child definitions.
			pos := s
			for j := i + 1; j < len(defs) && defs[j].Start < e; j++ {
				if parents[j]-base != i {
					continue
				}
				cs := clamp(defs[j].Start, len(src))
				if cs > pos {
					scanIdents(src[pos:cs], emit)
				}
				pos = max(pos, clamp(defs[j].End, len(src)))
			}
			if pos < e {
				scanIdents(src[pos:e], emit)
			}
		} else {
			scanIdents(src[s:e], emit)
		}
		fd.defs[i] = defDoc{tf: dtf, length: dn}
	}
	return fd
}

func clamp(x, n int) int {
	if x < 0 {
		return 0
	}
	if x > n {
		return n
	}
	return x
}

func identTokensMemo(memo map[string][]string, id string) []string {
	if t, ok := memo[id]; ok {
		return t
	}
	t := appendIdentTokens(nil, id) // id is an identifier: no need for identRE
	memo[id] = t
	return t
}

// scanIdents calls f for each ASCII identifier in src (fast path of identRE).
func scanIdents(src []byte, f func(string)) {
	scanIdentsAt(src, func(id string, _ int) { f(id) })
}

// scanIdentsAt is scanIdents with each identifier's byte offset.
func scanIdentsAt(src []byte, f func(string, int)) {
	i := 0
	for i < len(src) {
		b := src[i]
		if b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
			j := i + 1
			for j < len(src) {
				c := src[j]
				if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
					j++
					continue
				}
				break
			}
			if j-i <= 80 {
				f(string(src[i:j]), i)
			}
			i = j
			continue
		}
		if b >= '0' && b <= '9' {
			for i < len(src) && (src[i] == '_' || src[i] >= '0' && src[i] <= '9' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z') {
				i++
			}
			continue
		}
		i++
	}
}

// pathTokens splits a path into its directory and file-stem tokens
// ("sympy/core/mul.py" → sympy, core, mul); extensions are dropped.
func pathTokens(p string) []string {
	p = strings.TrimSuffix(p, path.Ext(p))
	var out []string
	for _, seg := range strings.Split(p, "/") {
		for _, t := range appendTokens(nil, seg) {
			out = append(out, t)
		}
		// keep stop-word-looking segment names ("core", "test") that Tokenize drops
		l := strings.ToLower(strings.Trim(seg, "_"))
		if len(l) >= 2 && !isNumber(l) && isStop(l) {
			out = append(out, l)
		}
	}
	return out
}

// buildIdents merges the files' identifier occurrences into the corpus's
// postings, unless the source is too large (then content search runs
// ripgrep over the disk).
func (c *Corpus) buildIdents(docs []*fileDoc) {
	total := 0
	for fi, d := range docs {
		c.files[fi].size = d.size
		total += d.size
	}
	if total > maxCorpusSource {
		return
	}
	c.idents = map[string]*identPost{}
	for fi, d := range docs {
		f := c.files[fi]
		for id, ps := range d.idents {
			p := c.idents[id]
			if p == nil {
				p = &identPost{}
				c.idents[id] = p
			}
			p.files = append(p.files, int32(fi))
			for _, local := range ps {
				if local >= 0 && int(local) < f.n {
					p.defs = append(p.defs, int32(f.first)+local)
				}
			}
		}
	}
}

// source reads file fi from disk for content search, which picks the few
// files to read through the identifier postings; an unreadable file reads
// as empty. The corpus does not hold the repository's bytes: they are on
// disk already, and the files the index hashed are the ones there (a
// search updates the index first).
func (c *Corpus) source(fi int) []byte {
	b, err := span.ReadFile(filepath.Join(c.root, filepath.FromSlash(c.files[fi].path)), 0)
	if err != nil {
		return nil
	}
	return b
}

// auxDirs and auxFiles name the parts of a repository that are not its
// code: documentation, examples, benchmarks, release and CI scripts, build
// and setup files.
var (
	auxDirs  = map[string]bool{"doc": true, "docs": true, "example": true, "examples": true, "benchmark": true, "benchmarks": true, "bench": true, "asv_bench": true, "scripts": true, "release": true, ".github": true, ".ci": true, ".circleci": true}
	auxFiles = map[string]bool{"setup.py": true, "conf.py": true, "noxfile.py": true, "fabfile.py": true, "pavement.py": true, "setupegg.py": true, "versioneer.py": true}
)

// IsAuxPath reports whether a repository path is documentation, an example,
// a benchmark, a release or CI script, or a build/setup file.
func IsAuxPath(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		if auxDirs[strings.ToLower(s)] {
			return true
		}
	}
	return auxFiles[strings.ToLower(segs[len(segs)-1])]
}

// IsTestPath reports whether a repository path is a test file: under a
// test/tests/testing directory, or named test_*, *_test, *_tests, conftest,
// *.spec.* or *.test.*.
func IsTestPath(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		switch strings.ToLower(s) {
		case "test", "tests", "testing", "__tests__":
			return true
		}
	}
	base := strings.ToLower(segs[len(segs)-1])
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") ||
		stem == "conftest" || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, ".test") || stem == "tests"
}

// callPairs reads every resolved caller → callee pair of the index in one
// query, so the spread signal walks the call graph in memory. It reads the
// index's calls table directly; an index method returning all definition
// edges would keep the schema private. A pair may come more than once (two
// names resolved to one callee): setCallGraph drops repeats, cheaper than
// a DISTINCT that has SQLite sort the table first.
func callPairs(ctx context.Context, ix *index.Index) ([][2]int64, error) {
	db := ix.DB()
	if db == nil {
		return nil, nil
	}
	var out [][2]int64
	// Read raw: database/sql's per-row work costs more than the query.
	err := db.ScanRaw(ctx, `SELECT caller_id, callee_id FROM calls WHERE caller_id != 0 AND callee_id != 0`, func(v []driver.Value) error {
		a, _ := v[0].(int64)
		b, _ := v[1].(int64)
		out = append(out, [2]int64{a, b})
		return nil
	})
	return out, err
}

// setCallGraph links each definition to its callers and callees.
func (c *Corpus) setCallGraph(pairs [][2]int64) {
	c.calls = make([][]int32, len(c.defs))
	for _, p := range pairs {
		i, ok1 := c.byID[p[0]]
		j, ok2 := c.byID[p[1]]
		if !ok1 || !ok2 || i == j {
			continue
		}
		c.calls[i] = append(c.calls[i], int32(j))
		c.calls[j] = append(c.calls[j], int32(i))
	}
	for i := range c.calls {
		s := c.calls[i]
		slices.Sort(s)
		c.calls[i] = slices.Compact(s)
	}
}
