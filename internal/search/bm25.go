package search

import (
	"math"
	"slices"
)

// BM25 parameters: the usual Okapi values (Robertson et al.), the ones the
// published baselines use.
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

// BM25 is an Okapi BM25 model over a fixed set of documents, kept as
// postings lists so scoring touches only documents that hold a query term.
// Add documents first; Score may then run concurrently.
type BM25 struct {
	post  map[string][]posting
	lens  []int
	total int
}

type posting struct {
	doc int32
	tf  int32
}

// NewBM25 returns an empty model.
func NewBM25() *BM25 { return &BM25{post: map[string][]posting{}} }

// Add appends a document given as its tokens and returns its number.
func (m *BM25) Add(tokens []string) int {
	tf := make(map[string]int, len(tokens)/2+1)
	for _, t := range tokens {
		tf[t]++
	}
	return m.AddTF(tf, len(tokens))
}

// AddTF appends a document given as term frequencies and its length.
func (m *BM25) AddTF(tf map[string]int, length int) int {
	return m.addTFPlus(tf, nil, 0, length)
}

// addTFPlus is AddTF of tf plus w for each occurrence of a term in extra
// (a few terms: a path's, a name's), without building the merged map.
func (m *BM25) addTFPlus(tf map[string]int, extra []string, w, length int) int {
	doc := len(m.lens)
	count := func(t string) (n int) {
		for _, e := range extra {
			if e == t {
				n += w
			}
		}
		return n
	}
	for t, n := range tf {
		m.post[t] = append(m.post[t], posting{int32(doc), int32(n + count(t))})
	}
	for i, t := range extra {
		if _, ok := tf[t]; ok || slices.Contains(extra[:i], t) {
			continue
		}
		m.post[t] = append(m.post[t], posting{int32(doc), int32(count(t))})
	}
	m.lens = append(m.lens, length)
	m.total += length
	return doc
}

// Len is the number of documents.
func (m *BM25) Len() int { return len(m.lens) }

// DF is the number of documents holding term t.
func (m *BM25) DF(t string) int { return len(m.post[t]) }

// IDF is ln(1 + (N − df + 0.5)/(df + 0.5)), always positive.
func (m *BM25) IDF(t string) float64 {
	n := float64(len(m.lens))
	df := float64(len(m.post[t]))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// Score returns every document's BM25 score for the distinct query terms
// (each counted once), indexed by document number.
func (m *BM25) Score(terms []string) []float64 {
	return m.ScoreWeighted(terms, nil)
}

// ScoreWeighted is Score with each distinct term's contribution multiplied
// by its weight (1 when weights lacks it).
func (m *BM25) ScoreWeighted(terms []string, weights map[string]float64) []float64 {
	scores := make([]float64, len(m.lens))
	if len(m.lens) == 0 {
		return scores
	}
	avg := float64(m.total) / float64(len(m.lens))
	if avg == 0 {
		avg = 1
	}
	seen := map[string]bool{}
	for _, t := range terms {
		ps := m.post[t]
		if seen[t] || len(ps) == 0 {
			continue
		}
		seen[t] = true
		idf := m.IDF(t)
		if w, ok := weights[t]; ok {
			idf *= w
		}
		for _, p := range ps {
			f := float64(p.tf)
			norm := BM25K1 * (1 - BM25B + BM25B*float64(m.lens[p.doc])/avg)
			scores[p.doc] += idf * f * (BM25K1 + 1) / (f + norm)
		}
	}
	return scores
}
