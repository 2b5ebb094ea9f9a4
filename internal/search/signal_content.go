package search

import (
	"context"
	"math"
	"sort"
	"strings"
)

// contentTerms picks the task's rarest code identifiers for content search.
func (c *Corpus) contentTerms(qi queryInfo) []string {
	type tw struct {
		t string
		r float64
	}
	var ts []tw
	for _, id := range qi.ex.Idents {
		if id.Weight < SnippetWeight || len(id.Name) < 3 {
			continue
		}
		l := strings.ToLower(id.Name)
		if c.fileBM25.DF(l) == 0 || isStop(l) {
			continue
		}
		ts = append(ts, tw{id.Name, c.rarity(l)})
	}
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].r != ts[j].r {
			return ts[i].r > ts[j].r
		}
		return ts[i].t < ts[j].t
	})
	var out []string
	for _, t := range ts {
		if len(out) == maxContentTerms {
			break
		}
		out = append(out, t.t)
	}
	return out
}

// scoreContent is signal 3: where the rarest task identifiers occur (whole
// word, exact case), each occurrence credited to its innermost enclosing
// definition and its file. A definition holding the three rarest terms
// scores 1. The search runs in process over the corpus's identifier
// postings, or with ripgrep when the corpus holds no source (large
// repositories).
func (c *Corpus) scoreContent(ctx context.Context, qi queryInfo, cands, fileC []candidate) error {
	terms := c.contentTerms(qi)
	if len(terms) == 0 {
		return nil
	}
	idf := map[string]float64{}
	var idfs []float64
	for _, t := range terms {
		idf[t] = c.fileBM25.IDF(strings.ToLower(t))
		idfs = append(idfs, idf[t])
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(idfs)))
	full := 0.0
	for i := 0; i < len(idfs) && i < 3; i++ {
		full += idfs[i]
	}
	if full == 0 {
		return nil
	}
	defTerms := map[int][]string{}
	fileTerms := map[int][]string{}
	if c.idents != nil {
		for _, t := range terms {
			p := c.idents[t]
			if p == nil {
				continue
			}
			for _, fi := range p.files {
				fileTerms[int(fi)] = append(fileTerms[int(fi)], t)
			}
			for _, di := range p.defs {
				defTerms[int(di)] = append(defTerms[int(di)], t)
			}
		}
	} else {
		matches, err := GrepTerms(ctx, c.root, terms, c.allPaths)
		if err != nil {
			return err
		}
		for _, m := range matches {
			fi, ok := c.fileIdx[m.Path]
			if !ok {
				continue
			}
			fileTerms[fi] = appendNew(fileTerms[fi], m.Term)
			if di := c.innermost(fi, m.Offset); di >= 0 {
				defTerms[di] = appendNew(defTerms[di], m.Term)
			}
		}
	}
	score := func(ts []string) (float64, []string) {
		s := 0.0
		for _, t := range ts {
			s += idf[t]
		}
		sort.Strings(ts)
		return math.Min(1, s/full), ts
	}
	for di, ts := range defTerms {
		cands[di].content, cands[di].contentTerms = score(ts)
	}
	for fi, ts := range fileTerms {
		fileC[fi].content, fileC[fi].contentTerms = score(ts)
	}
	return nil
}

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
