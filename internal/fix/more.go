package fix

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/provider"
)

// CodeNoChange is an attempt's verdict code when the model declined the
// function it was shown ("NO CHANGE"): the pipeline asks it to pick another.
const CodeNoChange = "no_change"

const (
	// maxDeclines is how many declined functions a run forgives without
	// spending an attempt: each costs one short prompt, and a ranked list
	// whose best guess is wrong is the locator's commonest miss.
	maxDeclines = 4
	// maxUnverifiedEdits is how many accepted edits a run with no tests
	// makes before accepted edits spend attempts too: enough for the
	// multi-function fixes of the dev sets, few enough that a model which
	// never answers N still stops.
	maxUnverifiedEdits = 8
	// nextOptions is how many untried candidates a follow-up question offers:
	// five letters keep the question short for a small model.
	nextOptions = 5
)

// isDecline reports whether reply is the system prompt's "NO CHANGE".
func isDecline(reply string) bool {
	t := strings.Trim(strings.TrimSpace(reply), "`*.:!\"'")
	return strings.EqualFold(strings.Join(strings.Fields(t), " "), "NO CHANGE")
}

// next asks the model which candidate not shown yet should change, after
// why (what happened to the last one), and makes it the target: a page of
// nextOptions candidates at a time, until it picks one or the list ends.
// It reports false when none is picked.
func (r *run) next(ctx context.Context, task, why string) bool {
	skip := 0
	r.offer, r.offerRead = nil, false // regions are read once per question, for all its pages
	for {
		opts, picks := r.untried(ctx, skip)
		if len(opts) == 0 {
			return false
		}
		c, ok, err := r.askNext(ctx, task, why, opts, picks)
		if err != nil {
			r.say("warning: model (choosing the next function): %v", err)
			return false
		}
		if ok {
			r.target = c
			return true
		}
		skip += len(opts)
		why = fmt.Sprintf("%s None of %d other candidates needs to change.", strings.SplitN(why, " None of ", 2)[0], skip)
	}
}

// untried is the page of up to nextOptions candidates not shown yet, after
// the first skip of them: the located functions, then the regions around
// the edited functions and the top candidates (regionOffer).
func (r *run) untried(ctx context.Context, skip int) ([]ChooseOption, []Candidate) {
	var opts []ChooseOption
	var picks []Candidate
	all := r.rep.Candidates
	if untriedFuncs := r.countUntried(); skip+nextOptions > untriedFuncs {
		if !r.offerRead {
			r.offer, r.offerRead = r.regionOffer(ctx), true
		}
		all = append(append([]Candidate{}, all...), r.offer...)
	}
	for _, c := range all {
		if r.tried[c.triedKey()] {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		letter := string(rune('A' + len(opts)))
		opt := ChooseOption{Letter: letter, Name: c.QName, Path: c.Path, Snippet: r.snippet(c.def)}
		if c.region != nil {
			opt.Label = c.region.Label()
		}
		opts = append(opts, opt)
		picks = append(picks, c)
		if len(opts) == nextOptions {
			break
		}
	}
	return opts, picks
}

// countUntried is how many located functions were not shown yet.
func (r *run) countUntried() int {
	n := 0
	for _, c := range r.rep.Candidates {
		if !r.tried[c.key()] {
			n++
		}
	}
	return n
}

// askNext asks one page of the next question; ok is false when the model
// picks none.
func (r *run) askNext(ctx context.Context, task, why string, opts []ChooseOption, picks []Candidate) (Candidate, bool, error) {
	var b bytes.Buffer
	err := prompts.ExecuteTemplate(&b, "next.tmpl", struct {
		Task, Why string
		Options   []ChooseOption
		Letters   string
	}{task, why, opts, letterList(opts)})
	if err != nil {
		return Candidate{}, false, err
	}
	req := &provider.Request{Model: r.opts.Model, MaxTokens: 16,
		Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: b.String()}}}}}
	if r.opts.Session != nil {
		r.opts.Session.AppendMessage(req.Messages[0], false)
	}
	resp, err := r.opts.Provider.Send(ctx, req, nil)
	if err != nil {
		return Candidate{}, false, err
	}
	if r.opts.Session != nil {
		r.opts.Session.AppendMessage(provider.Message{Role: provider.RoleAssistant, Content: resp.Content}, false)
		r.opts.Session.AppendUsage(r.rep.Model, resp.Usage)
	}
	reply := provider.Message{Content: resp.Content}.Text()
	i := parseChoice(reply, len(opts))
	step := map[string]any{"why": why, "options": opts, "reply": reply}
	if i < 0 {
		r.record("next", step)
		r.say("  none of %d candidates picked", len(opts))
		return Candidate{}, false, nil
	}
	step["picked"] = picks[i].Path + ":" + picks[i].QName
	r.record("next", step)
	r.say("  next: %s", step["picked"])
	return picks[i], true, nil
}

// letterList is "A, B or C".
func letterList(opts []ChooseOption) string {
	if len(opts) == 1 {
		return opts[0].Letter
	}
	letters := make([]string, len(opts))
	for i := range opts {
		letters[i] = opts[i].Letter
	}
	return fmt.Sprintf("%s or %s", strings.Join(letters[:len(letters)-1], ", "), letters[len(letters)-1])
}
