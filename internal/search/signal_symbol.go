package search

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/grit-dev/grit/internal/index"
)

// scoreSymbols is signal 1: identifiers of the task against definition names.
//
// A name written in the task scores its context weight (Ident.Weight) times
// its rarity in the repository (a name used in every file says little) times
// how unique the definition is (one of 30 `__init__`s less than the only
// `col_insert`); builtin-looking names are discounted by CommonNameDiscount.
// "Parent.name" written as a dotted name, or both parts named, scores 1.
// Otherwise a multi-part name scores half the square of the share of its
// parts (by idf) that the task mentions. Only definitions reachable from the
// task's names and words are visited.
func (c *Corpus) scoreSymbols(qi queryInfo, cands []candidate) {
	seen := make([]bool, len(c.defs))
	var visit []int
	mark := func(i int) {
		if !seen[i] {
			seen[i] = true
			visit = append(visit, i)
		}
	}
	for name := range qi.identW {
		for _, i := range c.byName[name] {
			mark(i)
		}
	}
	for lower := range qi.identLower {
		for _, i := range c.byLower[lower] {
			mark(i)
		}
	}
	for t := range qi.stemSet {
		for _, i := range c.nameTok[t] {
			mark(int(i))
		}
	}
	for name := range qi.calls {
		for _, i := range c.byName[name] {
			if c.defs[i].Kind == index.KindClass {
				for _, j := range c.constructors(i) {
					mark(j)
				}
			}
		}
	}
	for _, i := range visit {
		c.scoreSymbol(qi, i, &cands[i])
	}
	c.scoreDispatch(qi, cands)
}

// scoreDispatch credits dispatch methods named after a class the task
// names: a printer's or visitor's `_print_SeqFormula`, an `_eval_Foo`
// handler. Such a method is where the class's behaviour in that module is
// written, so it gets DispatchShare of the class's own symbol score.
func (c *Corpus) scoreDispatch(qi queryInfo, cands []candidate) {
	for name, w := range qi.identW {
		ds := c.bySegment[name]
		if len(ds) == 0 || w < SnippetWeight {
			continue
		}
		cls := -1
		for _, i := range c.byName[name] {
			if c.defs[i].Kind == index.KindClass {
				cls = i
				break
			}
		}
		if cls < 0 {
			continue
		}
		v := DispatchShare * c.nameScore(cls, w)
		for _, i := range ds {
			if x := &cands[i]; v > x.sym {
				x.sym, x.exactDef, x.symWhy = v, false, "a dispatch method for "+name+", which the task names"
			}
		}
	}
}

func (c *Corpus) scoreSymbol(qi queryInfo, i int, x *candidate) {
	d := c.defs[i]
	name := d.Name
	w := qi.identW[name]
	why := "named in the task"
	if w == 0 && len(qi.identLower) > 0 {
		if wl := qi.identLower[c.lowerName[i]]; wl > 0 {
			w = 0.5 * wl
			why = "named in the task (other case)"
			if qi.options[c.lowerName[i]] {
				// An option has no case of its own: ImportMode is
				// --import-mode as much as import_mode is.
				w, why = wl, "named by an option the task writes"
			}
		}
	}
	if w > 0 && IsCommonName(name) {
		w *= CommonNameDiscount
	}
	best := 0.0
	if w > 0 {
		best = c.nameScore(i, w)
		x.exactDef = w >= 1
		x.symWhy = why
		if parent := c.parentName[i]; parent != "" {
			if qi.pairs[parent+"."+name] {
				best, x.symWhy, x.exactDef = 1, "written as "+parent+"."+name, true
			} else if wp := qi.identW[parent]; wp >= 1 && w >= 1 && c.parentOf[i] >= 0 {
				if v := 0.9; v > best {
					best, x.symWhy = v, "it and its class "+parent+" are both named"
				}
			}
		}
	}
	if p := c.parentOf[i]; p >= 0 && (name == "__init__" || name == "__new__") && c.defs[p].Kind == index.KindClass {
		if wc := qi.calls[c.defs[p].Name]; wc > 0 {
			if cs := ConstructorShare * c.nameScore(p, wc); cs > best {
				best, x.symWhy, x.exactDef = cs, "constructor of "+c.defs[p].Name+", which the task calls", wc >= 1
			}
		}
	}
	if best == 0 {
		toks := c.nameToks[i]
		if len(toks) >= 2 {
			var hit float64
			var matched []string
			for j, t := range toks {
				if qi.termSet[t] || qi.stemSet[stem(t)] {
					hit += c.nameIDF[i][j]
					if st := stem(t); !slices.Contains(matched, st) {
						matched = append(matched, st)
					}
				}
			}
			if all := c.nameIDFSum[i]; all > 0 && hit > 0 {
				cov := hit / all
				best = 0.5 * cov * cov
				x.symWhy = "its name's words appear in the task"
				if len(matched) >= 2 && !together(qi.stemPos, matched) {
					best *= ScatteredNameShare
					x.symWhy = "its name's words appear in the task, apart"
				}
			}
		}
	}
	x.sym = best
}

// nameScore is the symbol score of definition i for its name written with
// context weight w: discounted by how common the name is in the repository
// (rarity) and by how many definitions share it.
func (c *Corpus) nameScore(i int, w float64) float64 {
	uniq := 1 / (1 + math.Log(float64(len(c.byName[c.defs[i].Name]))))
	return w * (0.35 + 0.65*c.rarity(c.lowerName[i])) * (0.5 + 0.5*uniq)
}

// moreNames is the evidence file fi's other definitions add to its best
// one's symbol score: each further distinct name that matches the task
// adds its score times MoreNamesDecay to the power of its place (best
// first), so the second name adds half its score, the third a quarter. It
// returns the sum and how many names added to it.
func (c *Corpus) moreNames(cands []candidate, fi, best int) (float64, int) {
	f := c.files[fi]
	byName := map[string]float64{} // each other name's best match
	for j := f.first; j < f.first+f.n; j++ {
		if name := c.defs[j].Name; cands[j].sym > 0 && name != c.defs[best].Name {
			byName[name] = max(byName[name], cands[j].sym)
		}
	}
	others := slices.Collect(maps.Values(byName))
	slices.SortFunc(others, func(a, b float64) int { return cmp.Compare(b, a) })
	sum, w := 0.0, MoreNamesDecay
	for _, o := range others {
		sum += w * o
		w *= MoreNamesDecay
	}
	return sum, len(others)
}

// constructors are class i's own __init__ and __new__ methods.
func (c *Corpus) constructors(i int) []int {
	var out []int
	f := c.files[c.defFile[i]]
	for j := i + 1; j < f.first+f.n && c.defs[j].Start < c.defs[i].End; j++ {
		if c.parentOf[j] == i && (c.defs[j].Name == "__init__" || c.defs[j].Name == "__new__") {
			out = append(out, j)
		}
	}
	return out
}
