package search

import (
	"math"
	"strconv"
)

// innermost is the innermost definition of file fi holding byte offset off, or -1.
func (c *Corpus) innermost(fi, off int) int {
	f := c.files[fi]
	best := -1
	for j := f.first; j < f.first+f.n; j++ {
		d := c.defs[j]
		if d.Start > off {
			break
		}
		if off < d.End {
			best = j // later starts are nested deeper
		}
	}
	return best
}

// innermostLine is the innermost definition of file fi spanning 1-based line.
func (c *Corpus) innermostLine(fi, line int) int {
	f := c.files[fi]
	best := -1
	for j := f.first; j < f.first+f.n; j++ {
		d := c.defs[j]
		if d.StartLine > line {
			break
		}
		if line <= d.EndLine {
			best = j
		}
	}
	return best
}

// scoreTraceback is signal 7: each in-repository frame credits its innermost
// definition and file; the innermost in-repository frame of each trace
// scores 1, each frame further out TracebackDecay times less.
func (c *Corpus) scoreTraceback(qi queryInfo, cands, fileC []candidate) {
	rank := map[int]int{} // trace → in-repo frames seen so far (frames come innermost first)
	for _, f := range qi.frames {
		if f.Rel == "" {
			continue
		}
		fi, ok := c.fileIdx[f.Rel]
		if !ok {
			continue
		}
		s := math.Pow(TracebackDecay, float64(rank[f.Trace]))
		rank[f.Trace]++
		why := "traceback frame"
		if s == 1 {
			why = "innermost traceback frame in the repository"
		}
		if s > fileC[fi].tb {
			fileC[fi].tb, fileC[fi].tbWhy = s, why+" ("+f.Rel+":"+itoa(f.Line)+")"
		}
		if di := c.innermostLine(fi, f.Line); di >= 0 && s > cands[di].tb {
			cands[di].tb, cands[di].tbWhy = s, why+" (line "+itoa(f.Line)+")"
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
