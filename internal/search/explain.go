package search

import (
	"fmt"
	"strings"
)

// explain says in words why a candidate scores what it does, strongest
// contribution first.
func (c *Corpus) explain(x *candidate, s Signals) []string {
	type line struct {
		v    float64
		text string
	}
	var ls []line
	add := func(v float64, format string, args ...any) {
		if v != 0 {
			ls = append(ls, line{v, fmt.Sprintf("%+.2f ", v) + fmt.Sprintf(format, args...)})
		}
	}
	add(s.Symbol, "symbol: %s", x.symWhy)
	add(s.DefBoost, "definition boost: this is where the name is defined (×%.1f on symbol)", DefinitionBoost)
	add(s.Path, "path: the file's path matches the task (%.2f of a full match)", x.path)
	if len(x.contentTerms) > 0 {
		add(s.Content, "content: the task's identifiers %s occur in it", quoteAll(x.contentTerms))
	}
	add(s.Lexical, "lexical: BM25 of the task's words, %.2f of the best", x.lex)
	add(s.Spread, "spread: %s", x.spreadWhy)
	add(s.Recency, "recency: touched in the last %d commits", RecentCommits)
	add(s.Traceback, "traceback: %s", x.tbWhy)
	add(s.File, "file: in a file scoring %.2f of the best file", x.fileCtx)
	add(s.Size, "size: its length places it at %.2f among its file's functions (1 the longest)", x.size)
	add(s.Package, "package: others of the best files share its directory %s/", x.pkgDir)
	add(s.TestPenalty, "demoted: a test, documentation, example, setup, generated or vendored file the task is not about (×%.1f)", TestDemotion)
	out := make([]string, 0, len(ls))
	// Keep the order of the signals, strongest first.
	for len(ls) > 0 {
		best := 0
		for i := range ls {
			if abs(ls[i].v) > abs(ls[best].v) {
				best = i
			}
		}
		out = append(out, ls[best].text)
		ls = append(ls[:best], ls[best+1:]...)
	}
	return out
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func quoteAll(ts []string) string {
	q := make([]string, len(ts))
	for i, t := range ts {
		q[i] = "`" + t + "`"
	}
	return strings.Join(q, ", ")
}
