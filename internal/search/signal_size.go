package search

import (
	"slices"

	"github.com/grit-dev/grit/internal/index"
)

// The size signal: of a file's functions, the long ones do more and a fix
// lands in them more often than their share of the file, so a function's
// length, placed among its file's, orders the definitions the task's words
// leave tied. It is computed once per corpus (layoutCorpus) and reaches
// only definitions (rankDefs): a big file is not likelier for being big.

// sizeRanks places each function or method by its length in lines among
// its file's functions: 0 the shortest, 1 the longest, ties sharing the
// middle of their places. Classes and variables get 0.
func sizeRanks(defs []index.Def, files []corpusFile) []float32 {
	out := make([]float32, len(defs))
	var lens []int
	for _, f := range files {
		lens = lens[:0]
		for i := f.first; i < f.first+f.n; i++ {
			if isCallable(defs[i].Kind) {
				lens = append(lens, defs[i].EndLine-defs[i].StartLine)
			}
		}
		if len(lens) == 0 {
			continue
		}
		slices.Sort(lens)
		for i := f.first; i < f.first+f.n; i++ {
			if !isCallable(defs[i].Kind) {
				continue
			}
			n := defs[i].EndLine - defs[i].StartLine
			below, _ := slices.BinarySearch(lens, n)
			upto, _ := slices.BinarySearch(lens, n+1)
			out[i] = float32((float64(below) + float64(upto-below)/2) / float64(len(lens)))
		}
	}
	return out
}

func isCallable(kind string) bool { return kind == index.KindFunction || kind == index.KindMethod }
