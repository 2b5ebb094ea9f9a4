package search

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/grit-dev/grit/internal/index"
)

// maxSymbolQueries is how many changed files patchCorpus reads the
// definitions of one by one; past it, one read of every definition is
// cheaper.
const maxSymbolQueries = 32

// patchCorpus updates base to the index's current files, re-tokenizing
// only the files added or whose content hash changed: the BM25 models and
// identifier postings are merged (renumbered, the changed files' documents
// swapped in), the definitions of unchanged files kept, and the file graph
// re-derived only from the changed files when no file was added or removed
// and none changed the set of names it defines (nothing else moves an edge
// then). It returns nil and no error when it cannot patch (the index was
// rebuilt underneath, the base holds no identifier postings): build from
// scratch then.
//
// long: each part of the corpus is patched in turn, in dependency order.
func patchCorpus(ctx context.Context, ix *index.Index, base *Corpus, files []index.File, stamp string) (*Corpus, error) {
	if base.idents == nil || base.fileBM25.post != nil || base.defBM25.post != nil {
		return nil, nil
	}
	files = slices.Clone(files)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	oldOf := make([]int, len(files)) // new file → base file, −1 when changed or new
	var changed []int
	samePaths := len(files) == len(base.files)
	for i, f := range files {
		oi, ok := base.fileIdx[f.Path]
		samePaths = samePaths && ok
		if ok && base.files[oi].hash == f.Hash {
			oldOf[i] = oi
			continue
		}
		oldOf[i] = -1
		changed = append(changed, i)
	}
	if len(changed) == len(files) {
		return nil, nil
	}
	newDefs := make(map[int][]index.Def, len(changed))
	all := len(changed) > maxSymbolQueries
	for _, i := range changed {
		if all {
			break
		}
		ds, err := ix.Symbols(ctx, files[i].Path)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			all = true // removed meanwhile: read them all
			break
		}
		sortDefs(ds)
		if tied(ds) {
			all = true // the order of equal ranges is the full read's
			break
		}
		newDefs[i] = ds
	}
	if all {
		defs, err := ix.AllDefs(ctx)
		if err != nil {
			return nil, fmt.Errorf("load definitions: %w", err)
		}
		byPath := map[string][]index.Def{}
		for _, d := range defs {
			byPath[d.Path] = append(byPath[d.Path], d)
		}
		for _, i := range changed {
			ds := byPath[files[i].Path]
			sortDefs(ds)
			newDefs[i] = ds
		}
	}
	n := len(base.defs)
	for _, ds := range newDefs {
		n += len(ds)
	}
	flat := make([]index.Def, 0, n)
	counts := make([]int, len(files))
	for i, oi := range oldOf {
		ds := newDefs[i]
		if oi >= 0 {
			f := base.files[oi]
			ds = base.defs[f.first : f.first+f.n]
		}
		flat = append(flat, ds...)
		counts[i] = len(ds)
	}
	c := newCorpus(ix.Root(), files, flat, counts, base)
	if c.stamp != stamp {
		return nil, nil // the index's rows are not the base's: rebuilt, or changed meanwhile
	}
	// The file graph moves only where references or definitions moved.
	localEdges := samePaths
	for _, i := range changed {
		if !localEdges {
			break
		}
		oi := base.fileIdx[files[i].Path]
		f := base.files[oi]
		localEdges = sameNames(base.defs[f.first:f.first+f.n], newDefs[i])
	}
	side := startSideLoads(ctx, ix, !localEdges, true)
	var fromChanged []index.FileEdge
	var edgeErr error
	if localEdges {
		for _, i := range changed {
			es, err := ix.EdgesFrom(ctx, files[i].Path)
			if err != nil {
				edgeErr = err
				break
			}
			fromChanged = append(fromChanged, es...)
		}
	}
	docs := c.tokenizeFiles(ctx, changed)
	er, cr, recent := side.wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if edgeErr != nil {
		return nil, fmt.Errorf("load file graph: %w", edgeErr)
	}
	if er.err != nil {
		return nil, fmt.Errorf("load file graph: %w", er.err)
	}
	if cr.err != nil {
		return nil, fmt.Errorf("load call graph: %w", cr.err)
	}

	fileRemap := make([]int32, len(base.files))
	defRemap := make([]int32, len(base.defs))
	for i := range fileRemap {
		fileRemap[i] = -1
	}
	for i := range defRemap {
		defRemap[i] = -1
	}
	for i, oi := range oldOf {
		if oi < 0 {
			continue
		}
		fileRemap[oi] = int32(i)
		bf, nf := base.files[oi], c.files[i]
		for j := 0; j < bf.n; j++ {
			defRemap[bf.first+j] = int32(nf.first + j)
		}
	}
	var fileDocs, defDocs []bm25Doc
	for k, i := range changed {
		f, d := c.files[i], docs[k]
		fileDocs = append(fileDocs, bm25Doc{doc: int32(i), tf: d.tf, extra: f.pathTokens, w: 1, length: d.length + len(f.pathTokens)})
		for j := 0; j < f.n; j++ {
			qt := Tokenize(c.defs[f.first+j].QName)
			defDocs = append(defDocs, bm25Doc{doc: int32(f.first + j), tf: d.defs[j].tf, extra: qt, w: 2, length: d.defs[j].length + 2*len(qt)})
		}
		if d.unread || !d.verified {
			c.unsure = true
		}
	}
	c.unsure = c.unsure || base.unsure
	c.fileBM25 = base.fileBM25.merge(fileRemap, fileDocs, len(c.files))
	c.defBM25 = base.defBM25.merge(defRemap, defDocs, len(c.defs))
	// A name's parts are the same in any corpus: take base's where it has them.
	c.nameToks = make([][]string, len(c.defs))
	for oi, i := range defRemap {
		if i >= 0 && base.nameToks != nil {
			c.nameToks[i] = base.nameToks[oi]
		}
	}
	c.deriveNames()
	c.patchIdents(base, oldOf, changed, docs, fileRemap, defRemap)
	c.setCallGraph(cr.pairs)
	if localEdges {
		// The same files in the same order: base's file numbers hold.
		// Both lists are in the index's order: merge them.
		isChanged := make([]bool, len(c.files))
		for _, i := range changed {
			isChanged[i] = true
		}
		sortEdges(fromChanged)
		c.edgeExtra = slices.Clone(base.edgeExtra)
		es := make([]graphEdge, 0, len(base.graph)+len(fromChanged))
		j := 0
		for _, e := range base.graph {
			if isChanged[e.from] {
				continue
			}
			for j < len(fromChanged) && c.edgeBefore(fromChanged[j], e) {
				es = append(es, c.graphEdge(fromChanged[j]))
				j++
			}
			es = append(es, e)
		}
		for _, e := range fromChanged[j:] {
			es = append(es, c.graphEdge(e))
		}
		c.graph = es
	} else {
		c.setEdgeList(er.edges)
	}
	c.recent = recent
	c.mapped = base.mapped // unchanged files' postings may point into them
	return c, nil
}

// patchIdents sets the file sizes and identifier postings of c from base's,
// renumbered, and the changed files' docs; as buildIdents, it keeps no
// postings when the source is too large.
func (c *Corpus) patchIdents(base *Corpus, oldOf, changed []int, docs []*fileDoc, fileRemap, defRemap []int32) {
	total := 0
	for i, oi := range oldOf {
		if oi >= 0 {
			c.files[i].size = base.files[oi].size
		}
	}
	for k, i := range changed {
		c.files[i].size = docs[k].size
	}
	for _, f := range c.files {
		total += f.size
	}
	if total > maxCorpusSource {
		return
	}
	n := 0
	for _, p := range base.idents {
		n += len(p.files) + len(p.defs)
	}
	pool := make([]int32, 0, n)
	take := func(xs []int32, remap []int32) []int32 {
		start := len(pool)
		for _, x := range xs {
			if r := remap[x]; r >= 0 {
				pool = append(pool, r)
			}
		}
		return pool[start:len(pool):len(pool)]
	}
	c.idents = make(map[string]*identPost, len(base.idents))
	posts := make([]identPost, 0, len(base.idents))
	for id, p := range base.idents {
		files := take(p.files, fileRemap)
		if len(files) == 0 {
			continue
		}
		posts = append(posts, identPost{files: files, defs: take(p.defs, defRemap)})
		c.idents[id] = &posts[len(posts)-1]
	}
	touched := map[*identPost]bool{}
	for k, fi := range changed {
		f := c.files[fi]
		for id, ps := range docs[k].idents {
			p := c.idents[id]
			if p == nil {
				p = &identPost{}
				c.idents[id] = p
			}
			touched[p] = true
			p.files = append(p.files, int32(fi))
			for _, local := range ps {
				if local >= 0 && int(local) < f.n {
					p.defs = append(p.defs, int32(f.first)+local)
				}
			}
		}
	}
	for p := range touched {
		slices.Sort(p.files)
		slices.Sort(p.defs)
	}
}

// tied reports whether two of a file's definitions (in corpus order) have
// the same byte range.
func tied(ds []index.Def) bool {
	for i := 1; i < len(ds); i++ {
		if ds[i].Start == ds[i-1].Start && ds[i].End == ds[i-1].End {
			return true
		}
	}
	return false
}

// sameNames reports whether two versions of a file define the same set of
// names.
func sameNames(a, b []index.Def) bool {
	set := make(map[string]bool, len(a))
	for _, d := range a {
		set[d.Name] = true
	}
	other := make(map[string]bool, len(b))
	for _, d := range b {
		if !set[d.Name] {
			return false
		}
		other[d.Name] = true
	}
	return len(other) == len(set)
}

// sortEdges orders a file graph as the index does: heaviest first, then by
// paths.
func sortEdges(out []index.FileEdge) {
	sort.Slice(out, func(i, j int) bool { return edgeBefore(out[i], out[j]) })
}

// edgeBefore reports whether a comes before c's edge e in the index's
// order of file edges.
func (c *Corpus) edgeBefore(a index.FileEdge, e graphEdge) bool {
	return edgeBefore(a, index.FileEdge{From: c.edgePath(e.from), To: c.edgePath(e.to), Weight: e.w})
}

// edgeBefore is the index's order of file edges.
func edgeBefore(a, b index.FileEdge) bool {
	if a.Weight != b.Weight {
		return a.Weight > b.Weight
	}
	if a.From != b.From {
		return a.From < b.From
	}
	return a.To < b.To
}
