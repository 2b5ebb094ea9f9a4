package search

// Fusion: weighting the raw signals into one score and ordering the results.

import "sort"

// signals weights a candidate's raw signals into contributions.
func (c *Corpus) signals(x *candidate, demote bool) Signals {
	s := Signals{
		Symbol:    WeightSymbol * x.sym,
		Path:      WeightPath * x.path,
		Content:   WeightContent * x.content,
		Lexical:   WeightLexical * x.lex,
		Spread:    WeightSpread * x.spread,
		Recency:   WeightRecency * x.recency,
		Traceback: WeightTraceback * x.tb,
		File:      WeightFile * x.fileCtx,
		Package:   WeightPackage * x.pkg,
		Size:      WeightSize * x.size,
	}
	if x.exactDef {
		s.DefBoost = (DefinitionBoost - 1) * s.Symbol
	}
	if demote {
		s.TestPenalty = -(1 - TestDemotion) * total(s)
	}
	return s
}

func total(s Signals) float64 {
	return s.Symbol + s.Path + s.Content + s.Lexical + s.Spread + s.Recency + s.Traceback + s.File + s.Package + s.Size + s.DefBoost + s.TestPenalty
}

// codeFirst is the order files are listed in: every file that is not
// demoted, then the demoted ones (tests when the task is not about tests,
// documentation, examples, setup scripts), each part by score. A demoted
// file is rarely where the fix for such a task goes, yet one that mentions
// the task's names in every line can score twice the code it exercises and
// keep its place above it at TestDemotion; listed after the code, it still
// shows what exercises the code without taking a code file's place. The
// scores are unchanged, so the definitions' file signal, the file spread
// and the package signal see the same order as before. forder is sorted
// by score and is not modified.
func codeFirst(forder []int, demoted func(int) bool) []int {
	out := make([]int, 0, len(forder))
	for _, i := range forder {
		if !demoted(i) {
			out = append(out, i)
		}
	}
	for _, i := range forder {
		if demoted(i) {
			out = append(out, i)
		}
	}
	return out
}

// specific is the part of a hit's score that is about the definition itself
// rather than its file: the tie-breaker that puts a symbol match above a
// file-level one.
func specific(s Signals) float64 { return s.Symbol + s.DefBoost + s.Content + s.Traceback }

func sortHits(hits []Hit) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if sa, sb := specific(a.Signals), specific(b.Signals); sa != sb {
			return sa > sb
		}
		if a.Def.Path != b.Def.Path {
			return a.Def.Path < b.Def.Path
		}
		if a.Def.Start != b.Def.Start {
			return a.Def.Start < b.Def.Start
		}
		return a.Def.QName < b.Def.QName
	})
}
