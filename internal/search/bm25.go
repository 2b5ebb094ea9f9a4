package search

import (
	"encoding/binary"
	"math"
	"slices"
	"sort"
	"strings"
	"unsafe"
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
//
// A model has two forms. While documents are added its postings are a map
// from term to list. Frozen (freeze, or decoded from the search corpus on
// disk), the terms are one sorted dictionary and the postings one array, as
// in a search engine's inverted index: a term is found by binary search, and
// the arrays may live in a read-only file mapping. Both forms score alike.
type BM25 struct {
	post  map[string][]posting // term → postings in document order; nil once frozen
	lens  []int32              // document → length
	total int

	// The frozen form: term i is dict[termOff[i]:termOff[i+1]] (terms in
	// byte order) and its postings are postings[postOff[i]:postOff[i+1]];
	// or, as read from disk, packed[byteOff[i]:byteOff[i+1]] codes those
	// postOff[i+1]-postOff[i] postings as uvarint pairs (the gap from the
	// previous document, the frequency), decoded when a query reads them.
	dict     []byte
	termOff  []uint32
	postOff  []uint32
	postings []posting
	packed   []byte
	byteOff  []uint32
}

// posting is one document holding a term.
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
	if m.post == nil {
		m.thaw()
	}
	doc := len(m.lens)
	docPostings(tf, extra, w, func(t string, n int) {
		m.post[t] = append(m.post[t], posting{int32(doc), int32(n)})
	})
	m.lens = append(m.lens, int32(length))
	m.total += length
	return doc
}

// docPostings calls f with each distinct term of a document given as tf
// plus w for each occurrence of a term in extra, and its frequency: the
// terms of tf first (in map order), then those only in extra.
func docPostings(tf map[string]int, extra []string, w int, f func(t string, n int)) {
	count := func(t string) (n int) {
		for _, e := range extra {
			if e == t {
				n += w
			}
		}
		return n
	}
	for t, n := range tf {
		f(t, n+count(t))
	}
	for i, t := range extra {
		if _, ok := tf[t]; ok || slices.Contains(extra[:i], t) {
			continue
		}
		f(t, count(t))
	}
}

// Len is the number of documents.
func (m *BM25) Len() int { return len(m.lens) }

// DF is the number of documents holding term t.
func (m *BM25) DF(t string) int {
	if m.post != nil {
		return len(m.post[t])
	}
	i, ok := m.find(t)
	if !ok {
		return 0
	}
	return int(m.postOff[i+1] - m.postOff[i])
}

// IDF is ln(1 + (N − df + 0.5)/(df + 0.5)), always positive.
func (m *BM25) IDF(t string) float64 {
	n := float64(len(m.lens))
	df := float64(m.DF(t))
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
		ps := m.lookup(t)
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

// lookup returns t's postings.
func (m *BM25) lookup(t string) []posting {
	if m.post != nil {
		return m.post[t]
	}
	i, ok := m.find(t)
	if !ok {
		return nil
	}
	return m.postingsOf(i, nil)
}

// postingsOf returns the frozen model's postings of term i, decoded into
// scratch's array when packed (a damaged list ends early rather than
// point outside).
func (m *BM25) postingsOf(i int, scratch []posting) []posting {
	if m.packed == nil {
		return m.postings[m.postOff[i]:m.postOff[i+1]]
	}
	n := int(m.postOff[i+1] - m.postOff[i])
	out := scratch[:0]
	if cap(out) < n {
		out = make([]posting, 0, n)
	}
	b := m.packed[m.byteOff[i]:m.byteOff[i+1]]
	doc := uint64(0)
	for len(b) > 0 && len(out) < n {
		gap, n := binary.Uvarint(b)
		if n <= 0 {
			break
		}
		tf, k := binary.Uvarint(b[n:])
		if k <= 0 {
			break
		}
		b = b[n+k:]
		doc += gap
		if doc >= uint64(len(m.lens)) || tf > math.MaxInt32 {
			break
		}
		out = append(out, posting{int32(doc), int32(tf)})
	}
	return out
}

// pack codes a frozen model's postings as packed and byteOff hold them.
func (m *BM25) pack() (packed []byte, byteOff []uint32) {
	byteOff = make([]uint32, 0, m.terms()+1)
	packed = make([]byte, 0, 3*int(m.postOff[len(m.postOff)-1]))
	var scratch []posting
	for i := range m.terms() {
		byteOff = append(byteOff, uint32(len(packed)))
		prev := int32(0)
		scratch = m.postingsOf(i, scratch)
		for _, p := range scratch {
			packed = binary.AppendUvarint(packed, uint64(p.doc-prev))
			packed = binary.AppendUvarint(packed, uint64(p.tf))
			prev = p.doc
		}
	}
	byteOff = append(byteOff, uint32(len(packed)))
	return packed, byteOff
}

// find is the index of t in the frozen dictionary.
func (m *BM25) find(t string) (int, bool) {
	n := m.terms()
	i := sort.Search(n, func(i int) bool { return m.term(i) >= t })
	return i, i < n && m.term(i) == t
}

// term is the frozen dictionary's i-th term, without a copy: dict is never
// written once frozen.
func (m *BM25) term(i int) string {
	b := m.dict[m.termOff[i]:m.termOff[i+1]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// terms is the number of distinct terms of a frozen model.
func (m *BM25) terms() int { return max(len(m.termOff)-1, 0) }

// freeze turns a model into its frozen form.
func (m *BM25) freeze() {
	if m.post == nil {
		return
	}
	keys := make([]string, 0, len(m.post))
	size, np := 0, 0
	for t, ps := range m.post {
		keys = append(keys, t)
		size += len(t)
		np += len(ps)
	}
	slices.Sort(keys)
	var dict strings.Builder
	dict.Grow(size)
	m.termOff = make([]uint32, 0, len(keys)+1)
	m.postOff = make([]uint32, 0, len(keys)+1)
	m.postings = make([]posting, 0, np)
	for _, t := range keys {
		m.termOff = append(m.termOff, uint32(dict.Len()))
		m.postOff = append(m.postOff, uint32(len(m.postings)))
		dict.WriteString(t)
		m.postings = append(m.postings, m.post[t]...)
	}
	m.termOff = append(m.termOff, uint32(dict.Len()))
	m.postOff = append(m.postOff, uint32(len(m.postings)))
	m.dict = []byte(dict.String())
	m.post = nil
}

// thaw turns a frozen model back into the map form, to add documents.
func (m *BM25) thaw() {
	m.post = map[string][]posting{}
	for i := 0; i < m.terms(); i++ {
		m.post[strings.Clone(m.term(i))] = slices.Clone(m.postingsOf(i, nil))
	}
	m.dict, m.termOff, m.postOff, m.postings, m.packed, m.byteOff = nil, nil, nil, nil, nil, nil
}

// bm25Doc is a document to merge into a frozen model: term frequencies
// as for addTFPlus, and its number in the merged model.
type bm25Doc struct {
	doc    int32
	tf     map[string]int
	extra  []string
	w      int
	length int
}

// merge returns a frozen model holding m's documents renumbered by remap
// (−1 drops one; the numbering must keep their order) and docs (sorted by
// number), n documents in all. It equals the model built by adding the same
// documents in number order, and touches each posting once.
func (m *BM25) merge(remap []int32, docs []bm25Doc, n int) *BM25 {
	m.freeze()
	out := &BM25{lens: make([]int32, n)}
	for o, l := range m.lens {
		if d := remap[o]; d >= 0 {
			out.lens[d] = l
		}
	}
	add := map[string][]posting{}
	for _, d := range docs {
		out.lens[d.doc] = int32(d.length)
		docPostings(d.tf, d.extra, d.w, func(t string, f int) {
			add[t] = append(add[t], posting{d.doc, int32(f)})
		})
	}
	for _, l := range out.lens {
		out.total += int(l)
	}
	keys := make([]string, 0, len(add))
	for t := range add {
		keys = append(keys, t)
	}
	slices.Sort(keys)
	out.termOff = make([]uint32, 0, m.terms()+len(keys)+1)
	out.postOff = make([]uint32, 0, m.terms()+len(keys)+1)
	out.postings = make([]posting, 0, int(m.postOff[len(m.postOff)-1])+len(keys)*2)
	dict := make([]byte, 0, len(m.dict)+len(keys)*8)
	emit := func(t string, old []posting, extra []posting) {
		start := len(out.postings)
		j := 0
		for _, p := range old {
			d := remap[p.doc]
			if d < 0 {
				continue
			}
			for j < len(extra) && extra[j].doc < d {
				out.postings = append(out.postings, extra[j])
				j++
			}
			out.postings = append(out.postings, posting{d, p.tf})
		}
		out.postings = append(out.postings, extra[j:]...)
		if len(out.postings) == start {
			return
		}
		out.termOff = append(out.termOff, uint32(len(dict)))
		out.postOff = append(out.postOff, uint32(start))
		dict = append(dict, t...)
	}
	i, k := 0, 0
	var scratch []posting
	for i < m.terms() || k < len(keys) {
		switch {
		case k == len(keys) || i < m.terms() && m.term(i) < keys[k]:
			scratch = m.postingsOf(i, scratch)
			emit(m.term(i), scratch, nil)
			i++
		case i == m.terms() || keys[k] < m.term(i):
			emit(keys[k], nil, add[keys[k]])
			k++
		default:
			scratch = m.postingsOf(i, scratch)
			emit(keys[k], scratch, add[keys[k]])
			i++
			k++
		}
	}
	out.termOff = append(out.termOff, uint32(len(dict)))
	out.postOff = append(out.postOff, uint32(len(out.postings)))
	out.dict = dict
	return out
}
