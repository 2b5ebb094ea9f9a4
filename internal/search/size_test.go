package search

import (
	"math"
	"testing"

	"github.com/grit-dev/grit/internal/index"
)

// TestSizeRanks: a function's size signal is its length's place among its
// own file's functions, ties sharing their places; classes get none, and
// another file's functions do not count.
func TestSizeRanks(t *testing.T) {
	def := func(kind string, lines int) index.Def {
		return index.Def{Kind: kind, StartLine: 1, EndLine: 1 + lines}
	}
	defs := []index.Def{
		def(index.KindClass, 50),    // 0: a class spans its methods
		def(index.KindMethod, 10),   // 1
		def(index.KindFunction, 2),  // 2: the shortest
		def(index.KindFunction, 10), // 3: ties with 1
		def(index.KindFunction, 1),  // 4: another file's only function
	}
	files := []corpusFile{{first: 0, n: 4}, {first: 4, n: 1}}
	got := sizeRanks(defs, files)
	for i, want := range []float64{0, 2.0 / 3, 1.0 / 6, 2.0 / 3, 0.5} {
		if math.Abs(float64(got[i])-want) > 1e-6 {
			t.Errorf("def %d: size rank %v, want %v", i, got[i], want)
		}
	}
}
