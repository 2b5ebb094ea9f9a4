package search

import "math"

// scoreLexical is signal 4: BM25 of the task's words (code terms weighted
// CodeTermWeight) over files (path and content) and over definitions
// (qualified name and own text), each divided by its best score. A file's
// lexical signal mixes its own score and its best definition's,
// LexicalFileShare : LexicalSymbolShare, so a file holding one very relevant
// function is not lost in a long module; a definition's mixes its file's
// and its own DefLexicalFileShare : the rest. It returns each definition's
// own part.
func (c *Corpus) scoreLexical(qi queryInfo, cands, fileC []candidate) []float64 {
	fs := c.fileBM25.ScoreWeighted(qi.terms, qi.termW)
	ds := c.defBM25.ScoreWeighted(qi.terms, qi.termW)
	fmax, dmax := maxOf(fs), maxOf(ds)
	if dmax > 0 {
		for i := range ds {
			ds[i] /= dmax
		}
	}
	for i := range fileC {
		if fmax > 0 {
			fileC[i].lexFile = fs[i] / fmax
		}
		best := 0.0
		f := c.files[i]
		for j := f.first; j < f.first+f.n; j++ {
			best = math.Max(best, ds[j])
		}
		fileC[i].lex = LexicalFileShare*fileC[i].lexFile + LexicalSymbolShare*best
	}
	for i := range cands {
		cands[i].lex = DefLexicalFileShare*fileC[c.defFile[i]].lexFile + (1-DefLexicalFileShare)*ds[i]
	}
	return ds
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}
