package oracle

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
)

// Regions are the pipeline's units outside functions: whole lines of a file,
// shown with their line numbers. Shown one, the oracle returns those lines
// as the gold patch leaves them; it finds them in the file before the patch
// by their text (line numbers move with earlier edits), so it answers only
// for the lines in front of it.
var (
	regionHeadRE = regexp.MustCompile("(?m)^Rewrite lines (\\d+)-(\\d+) of (\\S+) \\(outside any function\\)(?:, inside `.*`)?:$")
	optLineRE    = regexp.MustCompile(`^([A-Z])\) (.+)$`)
	optRegionRE  = regexp.MustCompile(`^lines (\d+)-(\d+) of (\S+) \(outside any function\)$`)
	optFuncRE    = regexp.MustCompile(`^(\S+) in (\S+)$`)
)

// option is one offered answer of a multiple-choice question.
type option struct {
	letter, name, path string
	region             bool
	from, to           int      // a region's line numbers
	snippet            []string // its first lines as shown
}

// options parses a question's offered answers, with the snippet lines
// (indented four spaces) under each.
func options(user string) []option {
	var out []option
	lines := strings.Split(user, "\n")
	for i, l := range lines {
		m := optLineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		o := option{letter: m[1]}
		if r := optRegionRE.FindStringSubmatch(m[2]); r != nil {
			o.region, o.path = true, r[3]
			o.from, _ = strconv.Atoi(r[1])
			o.to, _ = strconv.Atoi(r[2])
			o.name = "lines " + r[1] + "-" + r[2]
		} else if f := optFuncRE.FindStringSubmatch(m[2]); f != nil {
			o.name, o.path = f[1], f[2]
		} else {
			continue
		}
		for j := i + 1; j < len(lines) && strings.HasPrefix(lines[j], "    "); j++ {
			o.snippet = append(o.snippet, strings.TrimPrefix(lines[j], "    "))
		}
		out = append(out, o)
	}
	return out
}

// preLines are the file's lines before the patch, without terminators.
func (gf *GoldFile) preLines() []string {
	if gf.Pre == nil {
		return nil
	}
	return strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(gf.Pre), "\r\n", "\n"), "\n"), "\n")
}

// changes are the patch's runs of changed lines (computed once).
func (gf *GoldFile) changes() []edit.LineChange {
	if gf.lineChanges == nil {
		gf.lineChanges = edit.LineChanges(gf.Pre, gf.Post)
	}
	return gf.lineChanges
}

// locateLines is where want (compared with same) starts among the lines
// before the patch, nearest line near (0-based); -1 if nowhere.
func (gf *GoldFile) locateLines(want []string, near int, same func(a, b string) bool) int {
	pre := gf.preLines()
	if len(want) == 0 {
		return -1
	}
	at := func(s int) bool {
		if s < 0 || s+len(want) > len(pre) {
			return false
		}
		for i, w := range want {
			if !same(pre[s+i], w) {
				return false
			}
		}
		return true
	}
	for d := 0; d <= len(pre); d++ {
		if at(near + d) {
			return near + d
		}
		if d > 0 && at(near-d) {
			return near - d
		}
	}
	return -1
}

// within splits the patch's changes over pre lines [s, e): those inside
// (an insertion may sit at either edge), and whether one reaches across.
func (gf *GoldFile) within(s, e int) (inside []edit.LineChange, across bool) {
	for _, c := range gf.changes() {
		switch {
		case c.OldStart == c.OldEnd && c.OldStart >= s && c.OldStart <= e:
			inside = append(inside, c)
		case c.OldStart < c.OldEnd && c.OldStart >= s && c.OldEnd <= e:
			inside = append(inside, c)
		case c.OldStart < e && c.OldEnd > s:
			across = true
		}
	}
	return inside, across
}

// regionTouched reports whether the patch changes the offered region, found
// by its snippet (less the import lines the oracle added itself) near its
// line numbers.
func (o *Oracle) regionTouched(gf *GoldFile, from, to int, snippet []string) bool {
	trim := func(a, b string) bool { return strings.TrimRight(a, " \t\r") == strings.TrimRight(b, " \t\r") }
	s := gf.locateLines(o.withoutSentImports(snippet), from-1, trim)
	if s < 0 {
		return false
	}
	inside, across := gf.within(s, s+to-from+1)
	return len(o.notSent(gf, inside)) > 0 && !across
}

// editRegion answers a region prompt: the lines as the patch leaves them.
func (o *Oracle) editRegion(user string) (Exchange, string) {
	m := regionHeadRE.FindStringSubmatch(user)
	from, _ := strconv.Atoi(m[1])
	ex := Exchange{Kind: "edit", Path: m[3], Name: "lines " + m[1] + "-" + m[2], Answer: AnswerRefusal}
	gf := o.gold.Files[ex.Path]
	if gf == nil || gf.Pre == nil {
		ex.Why = "the patch does not change this file"
		return ex, ""
	}
	shown, ok := regionShown(user, m[0])
	if !ok {
		ex.Why = "no code block after the header"
		return ex, ""
	}
	exact := func(a, b string) bool { return strings.TrimRight(a, "\r") == b }
	s := gf.locateLines(shown, from-1, exact)
	if s < 0 {
		// Lines it added itself in an IMPORTS block may sit among them.
		shown = o.withoutSentImports(shown)
		s = gf.locateLines(shown, from-1, exact)
	}
	if s < 0 {
		ex.Why = "the shown lines are not lines of the file before the patch"
		return ex, ""
	}
	e := s + len(shown)
	inside, across := gf.within(s, e)
	inside = o.notSent(gf, inside)
	switch {
	case across:
		ex.Why = "the patch's change there reaches beyond the lines shown"
		return ex, ""
	case len(inside) == 0:
		ex.Why = "the patch does not change these lines"
		return ex, ""
	}
	pre := gf.preLines()
	var post []string
	i := s
	for _, c := range inside {
		post = append(post, pre[i:c.OldStart]...)
		for _, l := range c.New {
			post = append(post, strings.TrimRight(l, "\r\n"))
		}
		i = c.OldEnd
	}
	post = append(post, pre[i:e]...)
	ex.Answer = AnswerGold
	return ex, "```" + fenceLang(user, m[0]) + "\n" + strings.Join(post, "\n") + "\n```\n"
}

// notSent drops the insertions that hold a new function it already gave in
// a NEW FUNCTION block: the pipeline placed it, next to the region.
func (o *Oracle) notSent(gf *GoldFile, changes []edit.LineChange) []edit.LineChange {
	var out []edit.LineChange
	for _, c := range changes {
		sent := false
		if c.OldStart == c.OldEnd {
			ins := normalize(gf.Lang, []byte(strings.Join(c.New, "")))
			for _, h := range o.sentHelpers {
				sent = sent || (h != "" && strings.Contains(ins, h))
			}
		}
		if !sent {
			out = append(out, c)
		}
	}
	return out
}

// regionShown is the lines of the code block after the region header.
func regionShown(user, head string) ([]string, bool) {
	rest := user[strings.Index(user, head)+len(head):]
	open := strings.Index(rest, "```")
	if open < 0 {
		return nil, false
	}
	rest = rest[open:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return nil, false
	}
	rest = rest[nl+1:]
	end := strings.Index(rest, "\n```\n")
	if end < 0 {
		return nil, false
	}
	return strings.Split(rest[:end], "\n"), true
}

// withoutSentImports drops from lines those it gave in IMPORTS blocks.
func (o *Oracle) withoutSentImports(lines []string) []string {
	sent := map[string]bool{}
	for _, l := range o.sentImports {
		sent[strings.TrimSpace(l)] = true
	}
	var out []string
	for _, l := range lines {
		if !sent[strings.TrimSpace(l)] {
			out = append(out, l)
		}
	}
	return out
}
