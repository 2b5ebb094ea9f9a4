package search

import (
	"math"
	"path"
	"slices"
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
	stems := map[string]int{}   // file name without extension → files so named
	for _, f := range c.files {
		stems[fileStem(f.path)]++
	}
	for i, f := range c.files {
		x := &fileC[i]
		if v, ok := exact[f.path]; ok {
			x.path = v
			continue
		}
		if inArea(f.path, qi.areas) {
			x.path = 1 // the title names its part of the project
			continue
		}
		// Words: the file stem counts PathStemShare, the directories the
		// rest, each part weighted by its rarity. A file name that
		// genericStemFiles files repeat (index.js, mod.rs, __init__.py)
		// names a role, not a topic: its directory is the file's name.
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
		stemToks, dirToks := f.stemToks, f.dirToks
		if dir := path.Dir(f.path); stems[fileStem(f.path)] >= genericStemFiles && dir != "." {
			stemToks = nameTokens(path.Base(dir))
			dirToks = append(slices.Clip(f.dirToks), f.stemToks...)
		}
		x.path = PathStemShare*share(stemToks) + (1-PathStemShare)*share(dirToks)
	}
}

// inArea reports whether a file is in one of the areas a title names
// (titleAreas): its name without extensions, or one of its directories,
// or a run of them, is the area.
func inArea(p string, areas []string) bool {
	if len(areas) == 0 {
		return false
	}
	key := areaKey(p)
	segs := strings.Split(key, "/")
	if b := path.Base(p); strings.Contains(b, ".") {
		segs[len(segs)-1] = areaKey(b[:strings.IndexByte(b, '.')])
	}
	for _, a := range areas {
		n := strings.Count(a, "/") + 1
		for i := 0; i+n <= len(segs); i++ {
			if strings.Join(segs[i:i+n], "/") == a {
				return true
			}
		}
	}
	return false
}

// fileStem is a path's file name without its extension.
func fileStem(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(b, path.Ext(b))
}
