package fix

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/span"
)

// A region is the part of a fix that is not a function rewrite: whole lines
// of a file that no function or method touches (the import block, module
// constants, a class's fields, struct and enum members, object literals).
// The pipeline offers regions like functions, in the "which next" question,
// and shows one whole, with its line numbers, for the model to give back
// whole; it is spliced by its byte range like a function.
const (
	// maxRegionLines caps one region: a longer run of lines is cut at blank
	// lines, so a region fits the edit prompt's budget with the task.
	maxRegionLines = 60
	// maxRegions is how many regions a "which next" question may offer in
	// all (two pages): those of the edited functions' files come first.
	maxRegions = 10
	// regionAnchors is how many top candidates, besides the edited
	// functions, lend their file's and class's regions to the offer.
	regionAnchors = 3
	// headRegions is how many pieces of a file's top (before its first
	// function) are offered: the imports are in the first one or two.
	headRegions = 2
	// KindRegion is a Candidate's Kind when it is a region.
	KindRegion = "region"
)

// Region is one editable stretch of a file outside every function.
type Region struct {
	Path               string
	Start, End         int    // bytes: Start at a line's start, End at the end of the last line (before its newline)
	StartLine, EndLine int    // 1-based
	Scope              string // the enclosing class's header line; "" at top level
}

// Label names a region in questions and prompts.
func (g Region) Label() string {
	return fmt.Sprintf("lines %d-%d of %s (outside any function)", g.StartLine, g.EndLine, g.Path)
}

// regionsOf splits src into its regions, given its definitions.
func regionsOf(path string, src []byte, defs []index.Def, lang string) []Region {
	lines := bytes.SplitAfter(src, []byte("\n"))
	offs := make([]int, len(lines)+1)
	for i, l := range lines {
		offs[i+1] = offs[i] + len(l)
	}
	lineOf := func(off int) int { return sort.Search(len(lines), func(i int) bool { return offs[i+1] > off }) }
	covered := make([]bool, len(lines))
	for _, d := range defs {
		if (d.Kind != index.KindFunction && d.Kind != index.KindMethod) || d.Start < 0 || d.End > len(src) || d.End <= d.Start {
			continue
		}
		for i := lineOf(d.Start); i <= lineOf(d.End-1) && i < len(lines); i++ {
			covered[i] = true
		}
	}
	blank := func(i int) bool { return len(bytes.TrimSpace(lines[i])) == 0 }
	var out []Region
	add := func(a, b int) { // lines [a, b), trimmed of blank ones
		for a < b && blank(a) {
			a++
		}
		for b > a && blank(b-1) {
			b--
		}
		if a == b || !hasCode(lines[a:b], lang) {
			return
		}
		end := offs[b-1] + len(bytes.TrimRight(lines[b-1], "\r\n"))
		g := Region{Path: path, Start: offs[a], End: end, StartLine: a + 1, EndLine: b}
		g.Scope = scopeOf(defs, g)
		out = append(out, g)
	}
	for i := 0; i < len(lines); {
		if covered[i] {
			i++
			continue
		}
		j := i
		for j < len(lines) && !covered[j] {
			j++
		}
		// Cut long runs at blank lines, each piece at most maxRegionLines.
		for a := i; a < j; {
			b := min(j, a+maxRegionLines)
			if b < j {
				for c := b - 1; c > a; c-- {
					if blank(c) {
						b = c
						break
					}
				}
			}
			add(a, b)
			a = b
		}
		i = j
	}
	return out
}

// hasCode reports whether lines hold anything but blank lines and comments:
// a comment-only stretch never matters to a fix.
func hasCode(lines [][]byte, lang string) bool {
	for _, l := range lines {
		t := string(bytes.TrimSpace(l))
		if t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") {
			continue
		}
		if strings.HasPrefix(t, "#") && (lang == "python" || lang == "ruby") {
			continue
		}
		return true
	}
	return false
}

// scopeOf is the header line of the innermost class holding g.
func scopeOf(defs []index.Def, g Region) string {
	best := -1
	for i, d := range defs {
		if d.Kind != index.KindClass || d.Start >= g.Start || d.End < g.End {
			continue
		}
		if best < 0 || d.Start > defs[best].Start {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return firstLine(defs[best].Signature)
}

// regionCandidate wraps a region as a Candidate, the pipeline's target type.
func regionCandidate(g Region) Candidate {
	return Candidate{Path: g.Path, QName: fmt.Sprintf("lines %d-%d", g.StartLine, g.EndLine), Kind: KindRegion, Line: g.StartLine,
		def: index.Def{Path: g.Path, Kind: KindRegion, Start: g.Start, End: g.End, StartLine: g.StartLine}, region: &g}
}

// fileRegions reads path and its definitions and returns its regions.
func (r *run) fileRegions(ctx context.Context, path string) ([]byte, []index.Def, []Region, error) {
	src, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(path)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("fix: %w", err)
	}
	f, err := r.ix.File(ctx, path)
	if err != nil || f.Hash != edit.Hash(src) {
		if err := r.ix.UpdateFiles(ctx, path); err != nil {
			return nil, nil, nil, fmt.Errorf("fix: re-index %s: %w", path, err)
		}
	}
	defs, err := r.ix.Symbols(ctx, path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("fix: symbols of %s: %w", path, err)
	}
	lang := ""
	if len(defs) > 0 {
		lang = defs[0].Lang
	}
	return src, defs, regionsOf(path, src, defs, lang), nil
}

// regionOffer is the regions the "which next" question offers after the
// candidates, not tried yet: for each anchor (the functions edited so far,
// then the top candidates) its file's first region (the imports), the
// regions holding the start of each class around it, and the regions just
// before and after it.
func (r *run) regionOffer(ctx context.Context) []Candidate {
	type anchor struct {
		path, qname string
		line        int
	}
	var anchors []anchor
	for _, e := range r.edited {
		if i := strings.Index(e, ":"); i > 0 {
			anchors = append(anchors, anchor{e[:i], e[i+1:], 0})
		}
	}
	for i, c := range r.rep.Candidates {
		if i == regionAnchors {
			break
		}
		anchors = append(anchors, anchor{c.Path, c.QName, c.Line})
	}
	var out []Candidate
	seen := map[string]bool{}
	offer := func(g Region, text []byte) {
		k := regionKey(g.Path, text)
		if seen[k] || r.tried[k] || len(out) == maxRegions {
			return
		}
		seen[k] = true
		c := regionCandidate(g)
		c.regionText = string(text)
		out = append(out, c)
	}
	for _, a := range anchors {
		src, defs, regs, err := r.fileRegions(ctx, a.path)
		if err != nil || len(regs) == 0 {
			continue
		}
		text := func(g Region) []byte { return src[g.Start:g.End] }
		// The top of the file (its imports), up to the first function.
		for i, g := range regs {
			if i == headRegions || (i > 0 && functionBetween(defs, regs[i-1].End, g.Start)) {
				break
			}
			offer(g, text(g))
		}
		d, ok := nearestDef(defs, a.qname, a.line)
		if !ok {
			continue
		}
		// The head of each class around it: header, fields, up to its first method.
		for p := d.Parent; p != ""; {
			pd, ok := nearestDef(defs, p, 0)
			if !ok {
				break
			}
			for i, g := range regs {
				if g.End <= pd.Start || g.Start >= pd.End {
					continue
				}
				if i > 0 && regs[i-1].End > pd.Start && functionBetween(defs, regs[i-1].End, g.Start) {
					break
				}
				offer(g, text(g))
			}
			p = pd.Parent
		}
		// Its neighbours.
		for i, g := range regs {
			if g.Start >= d.End {
				if i > 0 && regs[i-1].End <= d.Start {
					offer(regs[i-1], text(regs[i-1]))
				}
				offer(g, text(g))
				break
			}
		}
	}
	return out
}

// functionBetween reports whether a function or method lies in [from, to).
func functionBetween(defs []index.Def, from, to int) bool {
	for _, d := range defs {
		if (d.Kind == index.KindFunction || d.Kind == index.KindMethod) && d.Start >= from && d.End <= to {
			return true
		}
	}
	return false
}

// nearestDef is the definition named qname nearest line (any, when line is 0).
func nearestDef(defs []index.Def, qname string, line int) (index.Def, bool) {
	best := -1
	for i, d := range defs {
		if d.QName == qname && (best < 0 || abs(d.StartLine-line) < abs(defs[best].StartLine-line)) {
			best = i
		}
	}
	if best < 0 {
		return index.Def{}, false
	}
	return defs[best], true
}

// triedKey is what marks c as shown: its text for a region, else key().
func (c Candidate) triedKey() string {
	if c.region != nil {
		return regionKey(c.Path, []byte(c.regionText))
	}
	return c.key()
}

// regionKey tells regions apart by their text, which other edits (of
// functions) leave alone while their line numbers move.
func regionKey(path string, text []byte) string {
	return "region:" + path + ":" + edit.Hash(text)
}

// currentRegion finds target's region in the file as it is now: the one with
// the same text (nearest its old line), after earlier edits moved it.
func (r *run) currentRegion(ctx context.Context, c Candidate) (Region, []byte, string, error) {
	src, _, regs, err := r.fileRegions(ctx, c.Path)
	if err != nil {
		return Region{}, nil, "", err
	}
	want := c.region
	old := c.regionText
	best := -1
	for i, g := range regs {
		if string(src[g.Start:g.End]) != old {
			continue
		}
		if best < 0 || abs(g.StartLine-want.StartLine) < abs(regs[best].StartLine-want.StartLine) {
			best = i
		}
	}
	if best < 0 {
		return Region{}, nil, "", fmt.Errorf("fix: %s is no longer in %s as it was", want.Label(), c.Path)
	}
	return regs[best], src, edit.Hash(src), nil
}

// RegionPrompt is what the region edit prompt shows the model.
type RegionPrompt struct {
	Task     string
	Feedback string
	Path     string
	Lang     string
	From, To int    // line numbers
	Scope    string // the enclosing class's header, "" at top level
	Source   string // the lines as they stand, indentation kept
}

// Render renders the region prompts; the task and the lines are always
// whole, so there is nothing to drop for the budget.
func (p RegionPrompt) Render() (system, user string, tokens int, err error) {
	var sb, ub bytes.Buffer
	if err := prompts.ExecuteTemplate(&sb, "region_system.tmpl", p); err != nil {
		return "", "", 0, fmt.Errorf("render region system prompt: %w", err)
	}
	if err := prompts.ExecuteTemplate(&ub, "region.tmpl", p); err != nil {
		return "", "", 0, fmt.Errorf("render region prompt: %w", err)
	}
	return sb.String(), ub.String(), EstimateTokens(sb.String()) + EstimateTokens(ub.String()), nil
}

// attemptRegion is attempt for a region target: show its lines, check the
// reply with the region monitor, splice it by byte range.
func (r *run) attemptRegion(ctx context.Context, task string, a Attempt, feedback string) (Attempt, bool, error) {
	g, src, hash, err := r.currentRegion(ctx, r.target)
	if err != nil {
		return a, true, err
	}
	a.Target, a.Region = g.Path+":"+regionCandidate(g).QName, true
	lang := r.langOf(ctx, g.Path)
	p := RegionPrompt{Task: task, Feedback: feedback, Path: g.Path, Lang: lang, From: g.StartLine, To: g.EndLine, Scope: g.Scope,
		Source: strings.ReplaceAll(string(src[g.Start:g.End]), "\r\n", "\n")}
	system, user, tokens, err := p.Render()
	if err != nil {
		return a, true, err
	}
	a.PromptTokens = tokens
	r.say("attempt %d: %s (%d prompt tokens)", a.N, g.Label(), tokens)
	resp, err := r.ask(ctx, system, user)
	if err != nil {
		return a, true, err
	}
	a.Usage, a.StopReason = resp.Usage, string(resp.StopReason)
	reply := provider.Message{Content: resp.Content}.Text()
	if isDecline(reply) {
		a.Verdict = edit.Verdict{Code: CodeNoChange, Reason: "the model says these lines need no change for the task"}
		r.say("  the model says %s needs no change", g.Label())
		return a, false, nil
	}
	orig := edit.Original{Path: g.Path, Lang: lang, Name: g.Label(), File: src, Range: span.Range{Start: g.Start, End: g.End}}
	a.Verdict = edit.CheckRegion(ctx, orig, reply, edit.CheckOptions{StopReason: a.StopReason, Parse: r.opts.Parse})
	if !a.Verdict.Accept {
		r.say("  rejected (%s): %s", a.Verdict.Code, a.Verdict.Reason)
		return a, false, nil
	}
	r.say("  accepted")
	a.Diff = edit.Diff("a/"+g.Path, "b/"+g.Path, src, a.Verdict.File)
	if stop, err := r.confirm(ctx, &a); stop {
		return a, true, err
	}
	if err := r.write(ctx, g.Path, hash, a.Verdict.Ops); err != nil {
		return a, true, err
	}
	a.Written = true
	// The rewritten lines are this region now: not offered again.
	r.tried[regionKey(g.Path, a.Verdict.Source)] = true
	done, err := r.tested(ctx, &a)
	return a, done, err
}

// langOf is the language the index gives path ("" if unknown).
func (r *run) langOf(ctx context.Context, path string) string {
	if f, err := r.ix.File(ctx, path); err == nil {
		return f.Lang
	}
	return ""
}
