package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/search"
	"github.com/grit-dev/grit/internal/span"
)

// candidateCount is how many functions locate keeps: the first is edited
// first, the rest are what the model may pick when it declines one (three
// pages of nextOptions) or when another must change too. Twice as many
// definitions are asked of the search, since classes and tests drop out.
const candidateCount = 15

// locate ranks the functions and methods for the task.
func (r *run) locate(ctx context.Context, task, traceback string) ([]Candidate, error) {
	res, err := locate.Run(ctx, r.ix, locate.Request{Task: task, Traceback: traceback, K: 2 * candidateCount})
	if err != nil {
		return nil, fmt.Errorf("fix: locate: %w", err)
	}
	var out []Candidate
	for _, h := range res.Hits {
		if h.Def.Kind != index.KindFunction && h.Def.Kind != index.KindMethod {
			continue
		}
		if isTestDef(h.Def) {
			continue // fix the code, not the test that caught it
		}
		out = append(out, Candidate{Path: h.Def.Path, QName: h.Def.QName, Kind: h.Def.Kind, Line: h.Def.StartLine, Score: h.Score, Signals: h.Signals, def: h.Def})
		if len(out) == candidateCount {
			break
		}
	}
	return out, nil
}

// isTestDef reports whether d is a test (by file and name conventions).
func isTestDef(d index.Def) bool {
	base := filepath.Base(d.Path)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.HasSuffix(base, "_test.py"),
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec."):
		return true
	}
	return strings.HasPrefix(d.Path, "tests/") && strings.HasPrefix(d.Name, "test")
}

// choose asks the model to pick among the top candidates when they are
// within the margin of each other. Only the task and each candidate's name,
// path and first three lines are shown.
func (r *run) choose(ctx context.Context, task string, cands []Candidate) error {
	close := 1
	for close < len(cands) && close < 3 && cands[close].Score >= cands[0].Score*(1-r.opts.Margin) {
		close++
	}
	if close < 2 {
		return nil
	}
	var opts []ChooseOption
	ch := &Choice{}
	for i, c := range cands[:close] {
		letter := string(rune('A' + i))
		opts = append(opts, ChooseOption{Letter: letter, Name: c.QName, Path: c.Path, Snippet: r.snippet(c.def)})
		ch.Options = append(ch.Options, letter+") "+c.Path+":"+c.QName)
	}
	prompt, err := renderChoose(task, opts)
	if err != nil {
		return err
	}
	r.say("the top %d candidates are within %.0f%%: asking the model to choose", close, r.opts.Margin*100)
	req := &provider.Request{Model: r.opts.Model, MaxTokens: 16,
		Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: prompt}}}}}
	if r.opts.Session != nil {
		r.logged(r.opts.Session.AppendMessage(req.Messages[0], false))
	}
	resp, err := r.opts.Provider.Send(ctx, req, nil)
	if err != nil {
		return fmt.Errorf("fix: model (choosing a candidate): %w", err)
	}
	if r.opts.Session != nil {
		r.logged(r.opts.Session.AppendMessage(provider.Message{Role: provider.RoleAssistant, Content: resp.Content}, false))
		r.logged(r.opts.Session.AppendUsage(r.rep.Model, resp.Usage))
	}
	ch.Reply = provider.Message{Content: resp.Content}.Text()
	i := parseChoice(ch.Reply, close)
	ch.Parsed = i >= 0
	if i < 0 {
		i = 0
	}
	r.target = cands[i]
	ch.Picked = r.target.Path + ":" + r.target.QName
	r.rep.Choice = ch
	r.record("choice", ch)
	r.say("  the model chose %s", ch.Picked)
	return nil
}

// snippet is the first three lines of d.
func (r *run) snippet(d index.Def) string {
	src, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(d.Path)))
	if err != nil || !spanOf(d).Valid(len(src)) {
		return "    " + d.Signature
	}
	lines := strings.Split(strings.ReplaceAll(string(src[d.Start:d.End]), "\r\n", "\n"), "\n")
	if len(lines) > 3 {
		lines = lines[:3]
	}
	for i, l := range lines {
		lines[i] = "    " + strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// relocate reads the failing test output as a traceback: when its innermost
// frame inside the repository lies in a function other than the target (and
// not in a test), the next attempt edits that function.
func (r *run) relocate(ctx context.Context, output string) {
	for _, fr := range search.ParseTraceback(output) {
		d, ok := r.frameDef(ctx, fr)
		if !ok {
			continue
		}
		if d.Path != r.target.Path || d.QName != r.target.QName {
			r.say("  the test output points at %s:%s: the next attempt edits it", d.Path, d.QName)
			r.record("relocate", map[string]any{"from": r.target.Path + ":" + r.target.QName, "to": d.Path + ":" + d.QName, "frame": fr})
			r.target = Candidate{Path: d.Path, QName: d.QName, Kind: d.Kind, Line: d.StartLine, def: d}
		}
		return
	}
}

// frameDef finds the innermost function or method (not a test) holding a
// traceback frame's line.
func (r *run) frameDef(ctx context.Context, fr search.Frame) (index.Def, bool) {
	p := filepath.FromSlash(fr.Path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.root, p)
	}
	rel, err := filepath.Rel(r.root, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return index.Def{}, false
	}
	rel = filepath.ToSlash(rel)
	src, err := os.ReadFile(p)
	if err != nil || fr.Line < 1 {
		return index.Def{}, false
	}
	lines := span.NewLines(src)
	off := lines.Offset(span.Pos{Line: fr.Line})
	// Skip the line's indentation so the offset lies inside the statement.
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	d, ok, err := r.ix.DefAt(ctx, rel, off)
	if err != nil || !ok || (d.Kind != index.KindFunction && d.Kind != index.KindMethod) || isTestDef(d) {
		return index.Def{}, false
	}
	return d, true
}

var (
	signatureWords = regexp.MustCompile(`(?i)\b(signature|parameter|argument|param|arg|return type|rename|keyword|kwarg|optional)s?\b`)
	shorterWords   = regexp.MustCompile(`(?i)\b(remove|delete|drop|simplify|strip out|get rid of|dead code|unused)\b`)
)

// allowsSignatureChange reports whether the task talks about the signature.
func allowsSignatureChange(task string) bool { return signatureWords.MatchString(task) }

// allowsShorter reports whether the task asks to remove code.
func allowsShorter(task string) bool { return shorterWords.MatchString(task) }

// DetectTest guesses the test command of the repository at root: go test,
// pytest, npm test or cargo test, by their marker files. "" if none.
func DetectTest(root string) string {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(root, name))
		return err == nil
	}
	switch {
	case has("go.mod"):
		return "go test ./..."
	case has("Cargo.toml"):
		return "cargo test"
	case has("package.json"):
		return "npm test"
	case has("pytest.ini"), has("pyproject.toml"), has("setup.cfg"), has("setup.py"), has("tox.ini"), has("conftest.py"), has("tests"):
		return "python3 -m pytest -q -x"
	}
	if m, _ := filepath.Glob(filepath.Join(root, "test_*.py")); len(m) > 0 {
		return "python3 -m pytest -q -x"
	}
	return ""
}
