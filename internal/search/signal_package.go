package search

import "path"

// packageEvidence is the package signal, a score regularisation over
// directories (the cluster hypothesis: relevant files sit together): each
// of the packagePool best files that is not demoted gets the sum of the
// scores of the other such files in its own directory, over packagePool
// times the best file's score. A report about one part of a library
// finds evidence in several modules of the package that implements it,
// and of two files scoring alike the one among them is the likelier
// place of the fix; a lone module of another package that happens to
// share the task's words gets nothing. In a flat package every file gets
// about the same, so the order among them stays. forder is sorted by
// fileScore; it reports whether any file got the signal.
func (c *Corpus) packageEvidence(forder []int, fileScore []float64, fileC []candidate, demoted func(int) bool) bool {
	pool := forder[:min(len(forder), packagePool)]
	if len(pool) < 2 || fileScore[pool[0]] <= 0 {
		return false
	}
	top := fileScore[pool[0]]
	sum := map[string]float64{}
	n := map[string]int{}
	for _, i := range pool {
		if !demoted(i) {
			d := path.Dir(c.files[i].path)
			sum[d] += fileScore[i]
			n[d]++
		}
	}
	got := false
	for _, i := range pool {
		if demoted(i) {
			continue
		}
		d := path.Dir(c.files[i].path)
		if n[d] < 2 {
			continue
		}
		fileC[i].pkg, fileC[i].pkgDir = (sum[d]-fileScore[i])/(packagePool*top), d
		got = true
	}
	return got
}
