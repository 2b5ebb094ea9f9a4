package search

import (
	"math"
	"testing"
)

// TestPackageEvidence: of two files scoring alike, the one whose directory
// holds more of the best files gets the larger package signal; a lone
// module of another directory and demoted files get none.
func TestPackageEvidence(t *testing.T) {
	paths := []string{
		"lib/assume/ask.py",        // 0: best file, one sibling
		"lib/expr/matexpr.py",      // 1: three siblings
		"lib/assume/sets.py",       // 2: scores as 1 does, one sibling
		"lib/expr/matmul.py",       // 3
		"lib/expr/inverse.py",      // 4
		"lib/expr/tests/test_x.py", // 5: demoted
		"lib/expr/transpose.py",    // 6
		"lib/sum.py",               // 7: alone in its directory
	}
	scores := []float64{2.0, 1.6, 1.6, 1.5, 1.4, 1.3, 1.2, 1.1}
	c := &Corpus{}
	for _, p := range paths {
		c.files = append(c.files, corpusFile{path: p})
	}
	fileC := make([]candidate, len(paths))
	forder := []int{0, 1, 2, 3, 4, 5, 6, 7}
	demoted := func(i int) bool { return i == 5 }
	if !c.packageEvidence(forder, scores, fileC, demoted) {
		t.Fatal("packageEvidence reported no file got the signal")
	}
	want := func(others float64) float64 { return others / (packagePool * 2.0) }
	for i, w := range map[int]float64{
		0: want(1.6),
		1: want(1.5 + 1.4 + 1.2),
		2: want(2.0),
		6: want(1.6 + 1.5 + 1.4),
		5: 0,
		7: 0,
	} {
		if math.Abs(fileC[i].pkg-w) > 1e-12 {
			t.Errorf("%s: pkg = %v, want %v", paths[i], fileC[i].pkg, w)
		}
	}
	if fileC[1].pkg <= fileC[2].pkg {
		t.Errorf("matexpr.py (three siblings) pkg %v <= sets.py (one sibling, the best file) %v", fileC[1].pkg, fileC[2].pkg)
	}
	if fileC[1].pkgDir != "lib/expr" {
		t.Errorf("pkgDir = %q, want lib/expr", fileC[1].pkgDir)
	}

	// Only the packagePool best files give or get it.
	long := make([]int, packagePool+2)
	many := make([]float64, len(long))
	c2 := &Corpus{}
	for i := range long {
		long[i] = i
		many[i] = 1
		c2.files = append(c2.files, corpusFile{path: "pkg/m" + string(rune('a'+i)) + ".py"})
	}
	fc := make([]candidate, len(long))
	c2.packageEvidence(long, many, fc, func(int) bool { return false })
	if got, w := fc[0].pkg, float64(packagePool-1)/packagePool; math.Abs(got-w) > 1e-12 {
		t.Errorf("flat package: pkg = %v, want %v", got, w)
	}
	if fc[packagePool].pkg != 0 {
		t.Errorf("file past the pool: pkg = %v, want 0", fc[packagePool].pkg)
	}
}
