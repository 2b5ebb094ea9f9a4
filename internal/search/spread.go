package search

import (
	"fmt"
	"math"
	"sort"
)

// scoreSpread is signal 5: structural spread. The spreadSeeds definitions
// with the best direct evidence (symbol, content, lexical, traceback) pass
// their share of the best such score to their callers, callees, enclosing
// definition and members, one hop at full strength and, from the first
// spreadSeeds2 seeds, a second hop at SpreadSecondHop. Files pass theirs
// along the file reference graph, one hop, scaled by the receiving file's
// own evidence over the best seed's: a neighbour with no evidence of its
// own gets nothing, so the graph reorders the files the task's words
// found rather than lifting every file the best ones import.
func (c *Corpus) scoreSpread(cands, fileC []candidate) {
	base := func(x *candidate) float64 {
		b := WeightSymbol*x.sym + WeightContent*x.content + WeightLexical*x.lex + WeightTraceback*x.tb
		if x.exactDef {
			b += (DefinitionBoost - 1) * WeightSymbol * x.sym
		}
		return b
	}
	seeds := topN(len(cands), spreadSeeds, func(i int) float64 {
		if c.files[c.defFile[i]].isTest {
			return 0
		}
		return base(&cands[i])
	})
	if len(seeds) > 0 {
		maxBase := base(&cands[seeds[0]])
		spread := map[int]float64{}
		from := map[int]int{}
		give := func(to int, v float64, src int) {
			if v > spread[to] {
				spread[to], from[to] = v, src
			}
		}
		// As for files below: a neighbour gets the seed's share times its
		// own standing against the best seed's, so the graph reorders the
		// definitions the task's words found instead of lifting every
		// member and callee of the best ones alike.
		own := func(n int) float64 { return math.Min(1, base(&cands[n])/maxBase) }
		for si, s := range seeds {
			share := base(&cands[s]) / maxBase
			ns := c.neighbours(s)
			for _, n := range ns {
				give(n, share*own(n), s)
				if si < spreadSeeds2 {
					ns2 := c.neighbours(n)
					for _, n2 := range ns2 {
						if n2 != s {
							give(n2, share*SpreadSecondHop*own(n2), s)
						}
					}
				}
			}
		}
		for i, v := range spread {
			if isSeed(seeds, i) {
				continue
			}
			cands[i].spread = v
			cands[i].spreadWhy = fmt.Sprintf("near %s", c.defs[from[i]].QName)
		}
	}
	fbase := func(x *candidate) float64 {
		return WeightSymbol*x.sym + WeightPath*x.path + WeightContent*x.content + WeightLexical*x.lex + WeightTraceback*x.tb
	}
	fseeds := topN(len(fileC), 5, func(i int) float64 {
		if c.files[i].isTest {
			return 0
		}
		return fbase(&fileC[i])
	})
	if len(fseeds) > 0 {
		maxBase := fbase(&fileC[fseeds[0]])
		near := c.fileNeighbours(fseeds, fileSpreadEdges)
		for k, s := range fseeds {
			share := fbase(&fileC[s]) / maxBase
			for _, o := range near[k] {
				ti := int(o)
				if ti >= len(c.files) || ti == s || isSeed(fseeds, ti) {
					continue
				}
				// Association amplifies a file's own evidence, it does
				// not stand in for it: a neighbour gets the seed's share
				// times its own standing against the best seed's.
				v := share * math.Min(1, fbase(&fileC[ti])/maxBase)
				if v > fileC[ti].spread {
					fileC[ti].spread = v
					fileC[ti].spreadWhy = "refers to or is referred to by " + c.files[s].path
				}
			}
		}
	}
}

func isSeed(seeds []int, i int) bool {
	for _, s := range seeds {
		if s == i {
			return true
		}
	}
	return false
}

// topN returns the indices of the n largest positive scores, best first,
// ties broken by index. It keeps a sorted window of n, so a pass over many
// scores costs little more than reading them.
func topN(count, n int, score func(int) float64) []int {
	type is struct {
		i int
		s float64
	}
	win := make([]is, 0, n+1)
	for i := 0; i < count; i++ {
		s := score(i)
		if s <= 0 || len(win) == n && s <= win[n-1].s {
			continue
		}
		j := len(win)
		win = append(win, is{i, s})
		for j > 0 && win[j-1].s < s {
			win[j] = win[j-1]
			j--
		}
		win[j] = is{i, s}
		if len(win) > n {
			win = win[:n]
		}
	}
	out := make([]int, len(win))
	for j, x := range win {
		out[j] = x.i
	}
	return out
}

// neighbours lists the corpus definitions one hop from definition i: its
// callees and callers (resolved by the index), its enclosing definition and
// its direct members. Sorted, without i.
func (c *Corpus) neighbours(i int) []int {
	set := map[int]bool{}
	for _, j := range c.calls[i] {
		set[int(j)] = true
	}
	if p := c.parentOf[i]; p >= 0 {
		set[p] = true
	}
	d := c.defs[i]
	f := c.files[c.defFile[i]]
	for j := i + 1; j < f.first+f.n && c.defs[j].Start < d.End; j++ {
		if c.parentOf[j] == i {
			set[j] = true
		}
	}
	delete(set, i)
	out := make([]int, 0, len(set))
	for j := range set {
		out = append(out, j)
	}
	sort.Ints(out)
	return out
}
