package search

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/grit-dev/grit/internal/index"
)

// Run ranks ix's definitions and files for q. ix should be up to date (the
// caller runs ix.Update). An empty or stop-word-only query returns an empty
// Result whose Note says why.
func Run(ctx context.Context, ix *index.Index, q Query) (*Result, error) {
	start := time.Now()
	c, err := Prepare(ctx, ix)
	if err != nil {
		return nil, err
	}
	return c.Search(ctx, ix, q, start)
}

// candidate is one definition's raw signals (0–1 each) and why.
type candidate struct {
	sym, path, content, lex, spread, recency, tb float64
	pkg                                          float64 // files: the package signal (packageEvidence)
	pkgDir                                       string  // files: the directory whose files gave pkg
	lexFile                                      float64 // files: the whole-file BM25 part of lex
	fileCtx                                      float64 // definitions: their file's score over the best file's
	size                                         float64 // definitions: their length's place in their file (sizeRanks)
	exactDef                                     bool
	symWhy, spreadWhy, tbWhy                     string
	contentTerms                                 []string
}

// Search ranks the corpus for q. ix answers the graph queries of the spread
// signal; start is when the caller began timing.
func (c *Corpus) Search(ctx context.Context, ix *index.Index, q Query, start time.Time) (*Result, error) {
	// Postings and graph lists may be slices of the corpus file's mapping,
	// which is unmapped once the corpus is unreachable: the corpus must
	// outlive every such slice in use here, even when another goroutine
	// replaces it in the cache meanwhile.
	defer runtime.KeepAlive(c)
	k := q.K
	if k <= 0 {
		k = 10
	}
	qi := c.analyse(q)
	res := &Result{Query: q.Text, Tokens: qi.terms, Frames: qi.frames, Hits: []Hit{}, Files: []FileHit{}}
	if res.Tokens == nil {
		res.Tokens = []string{}
	}
	inRepo := 0
	for _, f := range qi.frames {
		if f.Rel != "" {
			inRepo++
		}
	}
	if len(qi.terms) == 0 && len(qi.ex.Idents) == 0 && inRepo == 0 {
		res.Note = "the query has no searchable words (empty, only stop words, or not text)"
		if strings.TrimSpace(q.Text) == "" && strings.TrimSpace(q.Traceback) == "" {
			res.Note = "empty query: say what to find"
		}
		res.TookMS = Millis(time.Since(start))
		return res, nil
	}
	if strings.TrimSpace(q.Traceback) != "" && len(ParseTraceback(q.Traceback)) == 0 {
		qi.note = append(qi.note, "the --traceback text holds no stack frames; it was searched as words")
	}
	if len(c.defs) == 0 && len(c.files) == 0 {
		res.Note = "the index is empty: no source files were indexed under " + c.root
		res.TookMS = Millis(time.Since(start))
		return res, nil
	}

	cands, fileC, defLex, err := c.scoreSignals(ctx, qi)
	if err != nil {
		return nil, err
	}
	r := c.rankFiles(qi, cands, fileC)
	hits := c.rankDefs(q, qi, cands, defLex, r, k)
	files := c.listFiles(q, fileC, r, k)
	putCandidates(cands)
	putCandidates(fileC)
	res.Hits, res.Files = hits, files
	if len(hits) == 0 && len(files) == 0 {
		qi.note = append(qi.note, "nothing in the index matches the query's words")
	}
	res.Note = strings.Join(qi.note, "; ")
	res.TookMS = Millis(time.Since(start))
	return res, nil
}

// scoreSignals computes every raw signal of every definition and file;
// defLex is the definitions' own lexical scores.
func (c *Corpus) scoreSignals(ctx context.Context, qi queryInfo) (cands, fileC []candidate, defLex []float64, err error) {
	cands = getCandidates(len(c.defs))
	fileC = getCandidates(len(c.files))

	c.scoreSymbols(qi, cands)
	c.scorePaths(qi, fileC)
	if err := c.scoreContent(ctx, qi, cands, fileC); err != nil {
		return nil, nil, nil, err
	}
	defLex = c.scoreLexical(qi, cands, fileC)
	c.scoreTraceback(qi, cands, fileC)
	if err := c.scoreErrors(ctx, qi, cands, fileC); err != nil {
		return nil, nil, nil, err
	}
	if err := c.scoreLiterals(ctx, qi, cands, fileC); err != nil {
		return nil, nil, nil, err
	}
	for i, f := range c.files {
		fileC[i].recency = c.recent[f.path]
	}
	// File-level signals reach each of the file's definitions.
	for i := range cands {
		f := &fileC[c.defFile[i]]
		cands[i].path, cands[i].recency = f.path, f.recency
	}
	c.scoreSpread(cands, fileC)
	return cands, fileC, defLex, nil
}

// candidatePool keeps the candidate slices of finished searches: one per
// definition is megabytes on a large repository, and allocating them anew
// for every query was most of a warm search's garbage.
var candidatePool sync.Pool // of *[]candidate

// getCandidates returns n zeroed candidates.
func getCandidates(n int) []candidate {
	if p, ok := candidatePool.Get().(*[]candidate); ok && cap(*p) >= n {
		s := (*p)[:n]
		clear(s)
		return s
	}
	return make([]candidate, n)
}

// putCandidates gives s back once nothing refers to it.
func putCandidates(s []candidate) { candidatePool.Put(&s) }

// fileRanking is the files in score order and what decides their place.
type fileRanking struct {
	forder    []int             // files with a positive score, best first
	fileScore []float64         // file → its score
	demoted   func(fi int) bool // tests, docs, generated … the task is not about
}

// rankFiles scores the files: their own signals plus their best
// definition's symbol match, the package signal among the best, and the
// demotions.
func (c *Corpus) rankFiles(qi queryInfo, cands, fileC []candidate) fileRanking {
	gen := map[int]bool{} // files among the best found generated or vendored
	demoted := func(fi int) bool {
		f := c.files[fi]
		if qi.named[f.path] && (!f.isTest || qi.aboutTests) {
			return false
		}
		return f.isTest && !qi.aboutTests || f.isAux || f.isGen || f.isMinor || gen[fi]
	}

	// Files: their own signals plus their best definition's symbol match.
	for i := range c.files {
		f := &fileC[i]
		best := -1
		for j := c.files[i].first; j < c.files[i].first+c.files[i].n; j++ {
			if cands[j].sym == 0 {
				continue
			}
			if best < 0 || cands[j].sym > cands[best].sym || cands[j].sym == cands[best].sym && cands[j].exactDef && !cands[best].exactDef {
				best = j
			}
		}
		if best >= 0 {
			f.sym, f.exactDef, f.symWhy = cands[best].sym, cands[best].exactDef, cands[best].symWhy
			if more, n := c.moreNames(cands, i, best); more > 0 {
				sym := math.Min(1, f.sym+more)
				if add := WeightSymbol * (sym - f.sym); add >= 0.005 {
					f.symWhy += fmt.Sprintf("; %d more names it defines match too (+%.2f)", n, add)
				}
				f.sym = sym
			}
		}
	}
	c.markGenerated(fileC, gen)
	fileScore := make([]float64, len(c.files))
	var forder []int
	for i := range fileC {
		fileScore[i] = total(c.signals(&fileC[i], demoted(i)))
		if fileScore[i] > 0 {
			forder = append(forder, i)
		}
	}
	byScore := func(a, b int) bool {
		x, y := forder[a], forder[b]
		if fileScore[x] != fileScore[y] {
			return fileScore[x] > fileScore[y]
		}
		return c.files[x].path < c.files[y].path
	}
	sort.SliceStable(forder, byScore)
	if c.packageEvidence(forder, fileScore, fileC, demoted) {
		for _, i := range forder[:min(len(forder), packagePool)] {
			fileScore[i] = total(c.signals(&fileC[i], demoted(i)))
		}
		sort.SliceStable(forder, byScore)
	}

	return fileRanking{forder: forder, fileScore: fileScore, demoted: demoted}
}

// rankDefs scores the definitions with their file's standing and returns
// the best k, ordered.
func (c *Corpus) rankDefs(q Query, qi queryInfo, cands []candidate, defLex []float64, r fileRanking, k int) []Hit {
	forder, fileScore, demoted := r.forder, r.fileScore, r.demoted
	// Definitions: each gets its file's standing (the file signal).
	if len(forder) > 0 {
		if top := fileScore[forder[0]]; top > 0 {
			for i := range cands {
				cands[i].fileCtx = math.Max(0, fileScore[c.defFile[i]]/top)
				cands[i].size = float64(c.sizeRank[i])
			}
		}
	}
	c.scoreOperations(qi, cands)
	// Each inherits its file's path, lexical and recency signals. Rank
	// those with evidence of their own, and every definition of the best
	// files.
	inTop := map[int]bool{}
	for j := 0; j < len(forder) && j < fillerFiles; j++ {
		inTop[forder[j]] = true
	}
	scores := make([]float64, len(cands))
	var order []int
	for i := range cands {
		x := &cands[i]
		own := x.sym > 0 || x.content > 0 || x.tb > 0 || x.spread > 0 || defLex[i] > 0
		fi := c.defFile[i]
		if !own && !inTop[fi] {
			continue
		}
		if sc := total(c.signals(x, demoted(fi))); sc > 0 {
			scores[i] = sc
			order = append(order, i)
		}
	}
	// Keep everything scoring at least the 4k-th best, so ties at the cut
	// are all ordered by the full tie-break.
	if len(order) > 4*k {
		top := topN(len(order), 4*k, func(j int) float64 { return scores[order[j]] })
		cut := scores[order[top[len(top)-1]]]
		kept := order[:0]
		for _, i := range order {
			if scores[i] >= cut {
				kept = append(kept, i)
			}
		}
		order = kept
	}
	hits := make([]Hit, 0, len(order))
	for _, i := range order {
		sg := c.signals(&cands[i], demoted(c.defFile[i]))
		h := Hit{Def: c.defs[i], Score: scores[i], Signals: sg}
		if q.Explain {
			h.Explain = c.explain(&cands[i], sg)
		}
		hits = append(hits, h)
	}
	sortHits(hits)
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// listFiles lists the best k files, code before demoted files.
func (c *Corpus) listFiles(q Query, fileC []candidate, r fileRanking, k int) []FileHit {
	forder, fileScore, demoted := r.forder, r.fileScore, r.demoted
	files := make([]FileHit, 0, 4*k)
	listed := codeFirst(forder, demoted)
	for j := 0; j < len(listed) && j < 4*k; j++ {
		i := listed[j]
		sg := c.signals(&fileC[i], demoted(i))
		fh := FileHit{Path: c.files[i].path, Score: fileScore[i], Signals: sg}
		if q.Explain {
			fh.Explain = c.explain(&fileC[i], sg)
		}
		files = append(files, fh)
	}
	if len(files) > k {
		files = files[:k]
	}
	return files
}
