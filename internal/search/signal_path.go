package search

import (
	"math"
	"strings"
)

// scorePaths is signal 2: the task's paths, dotted module names and words
// against file paths.
func (c *Corpus) scorePaths(qi queryInfo, fileC []candidate) {
	// Written paths and dotted module names resolve to files outright.
	exact := map[string]float64{}
	for _, p := range qi.ex.Paths {
		for _, f := range ResolveFrames([]Frame{{Path: p}}, c.fileSet) {
			if f.Rel != "" {
				exact[f.Rel] = 1
			}
		}
	}
	for _, d := range qi.ex.Dotted {
		parts := strings.Split(d, ".")
		for l := len(parts); l >= 2; l-- {
			mod := strings.Join(parts[:l], "/")
			found := false
			for _, cand := range []string{mod + ".py", mod + "/__init__.py"} {
				for _, f := range ResolveFrames([]Frame{{Path: cand}}, c.fileSet) {
					if f.Rel != "" && len(strings.Split(f.Rel, "/")) >= 2 {
						exact[f.Rel] = math.Max(exact[f.Rel], 1)
						found = true
					}
				}
				if !found {
					if _, ok := c.fileIdx["src/"+cand]; ok {
						exact["src/"+cand] = 1
						found = true
					}
				}
			}
			if found {
				break
			}
		}
	}
	rar := map[string]float64{} // rarity of the path words the task hits
	for i, f := range c.files {
		x := &fileC[i]
		if v, ok := exact[f.path]; ok {
			x.path = v
			continue
		}
		// Words: the file stem counts 0.7, the directories 0.3, each part
		// weighted by its rarity.
		share := func(toks []string) float64 {
			var hit, all float64
			for _, t := range toks {
				if t == "init" || t == "py" {
					continue
				}
				all += 1
				if qi.termSet[t] || qi.stemSet[stem(t)] {
					r, ok := rar[t]
					if !ok {
						r = c.rarity(t)
						rar[t] = r
					}
					hit += r
				}
			}
			if all == 0 {
				return 0
			}
			return hit / all
		}
		x.path = 0.7*share(f.stemToks) + 0.3*share(f.dirToks)
	}
}
