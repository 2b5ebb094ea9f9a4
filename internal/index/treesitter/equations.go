package treesitter

import "github.com/grit-dev/grit/internal/index"

// mergeEquations makes a function written as equations one definition:
// consecutive functions of one qualified name in one scope (Haskell's
// `total [] = 0` then `total (x:xs) = …`, one tree-sitter node each)
// become the first, its range reaching the end of the last, so the
// editor replaces the whole function. defs are in source order; the
// definitions nested in an equation (where-bound helpers) are kept.
func mergeEquations(defs []index.Def) []index.Def {
	out := defs[:0]
	var open []int // indices in out of the definitions whose range is open
	for _, d := range defs {
		prev := -1 // the last definition closed at d's level
		for len(open) > 0 && out[open[len(open)-1]].End <= d.Start {
			prev = open[len(open)-1]
			open = open[:len(open)-1]
		}
		if prev >= 0 && d.Kind == index.KindFunction && out[prev].Kind == d.Kind && out[prev].QName == d.QName {
			p := &out[prev]
			p.End, p.EndLine, p.EndCol = d.End, d.EndLine, d.EndCol
			open = append(open, prev)
			continue
		}
		out = append(out, d)
		open = append(open, len(out)-1)
	}
	return out
}
