// Package fix is the harness-driven repair pipeline behind `grit fix`: index,
// locate the function to change (asking the model a multiple-choice question
// only when the top candidates are too close to call), show the model that one
// function with a few chosen facts, check its whole-function reply with the
// quality monitor, splice it by byte range, run the tests, and on failure
// locate again from the test output and retry, within an attempt budget. When
// the budget is spent every changed file is restored from the snapshot.
// With no tests, the model is asked after each edit what else must change:
// another located function, or a region (region.go), lines outside any
// function shown and returned whole.
//
// The model never explores. Run is not safe for concurrent use on one
// repository (it writes files); the Report it returns is the whole story of a
// run, and every step also goes to the session transcript when one is given.
package fix

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/search"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/span"
)

// Statuses of a run.
const (
	StatusFixed        = "fixed"         // an edit was kept and the tests pass
	StatusUnverified   = "unverified"    // an edit was kept; there is no test command to check it
	StatusReverted     = "reverted"      // the budget was spent; every changed file was restored
	StatusDryRun       = "dry_run"       // the edit was shown, not written
	StatusDeclined     = "declined"      // the user said no to the diff
	StatusNoCandidates = "no_candidates" // the search found no function to change
	StatusBrokenTests  = "broken_tests"  // the test command itself does not run
)

// ErrTestCommand means the test command itself does not run (not found, not
// executable, or a missing test runner): no edit could ever make it pass.
var ErrTestCommand = errors.New("the test command does not run")

// brokenTestCommand reports why a baseline test run shows a broken
// environment rather than failing tests, or "" when it does not.
func brokenTestCommand(tr *TestRun) string {
	switch {
	case tr.Passed:
		return ""
	case tr.ExitCode == 126 || tr.ExitCode == 127:
		return fmt.Sprintf("exit %d: the command was not found or is not executable", tr.ExitCode)
	case strings.Contains(tr.Output, "No module named pytest"):
		return "this python has no pytest"
	}
	return ""
}

// ErrNoCandidates means locating found nothing to edit.
var ErrNoCandidates = errors.New("no function to edit was found for this task")

// Options configure Run. Index, Provider and Runner are required.
type Options struct {
	Index    *index.Index
	Provider provider.Provider
	Model    string         // passed in requests; "" lets the provider choose
	Runner   sandbox.Runner // runs the tests
	Parse    edit.ParseFunc // tree-sitter check of spliced files; nil: lexical checks only

	Test        string        // test command; "" detects one (DetectTest)
	NoTest      bool          // run no tests: the caller judges the result (the oracle bench)
	TestTimeout time.Duration // 0 means 5 minutes
	Attempts    int           // model edits to try; 0 means 3
	Traceback   string        // extra traceback text for the first locate
	Budget      int           // edit prompt token budget; 0 means DefaultPromptBudget
	MaxTokens   int           // reply token limit; 0 means 4096
	Margin      float64       // ask the model to choose when #2 scores within this fraction of #1; 0 means 0.1

	DryRun bool // show the first accepted edit; write nothing
	// Confirm, if set, is asked before each write with the diff; false stops
	// the run (StatusDeclined). nil writes without asking (--yes).
	Confirm func(ctx context.Context, diff string) (bool, error)

	Session  *session.Session // the transcript; nil records nothing
	Progress io.Writer        // one line per step for a human; nil is silent
}

// Candidate is one located definition.
type Candidate struct {
	Path    string         `json:"path"`
	QName   string         `json:"qname"`
	Kind    string         `json:"kind"`
	Line    int            `json:"line"`
	Score   float64        `json:"score"`
	Signals search.Signals `json:"signals"`
	def     index.Def
	// region is set when the candidate is a region (Kind KindRegion), with
	// its text when it was offered, to find it again after other edits.
	region     *Region
	regionText string
}

// Choice records the multiple-choice question, when one was asked.
type Choice struct {
	Options []string `json:"options"` // "A) path:qname", ...
	Reply   string   `json:"reply"`
	Picked  string   `json:"picked"` // path:qname
	Parsed  bool     `json:"parsed"` // false: the reply had no letter; the top candidate was kept
}

// TestRun is one run of the test command.
type TestRun struct {
	Command  string  `json:"command"`
	ExitCode int     `json:"exit_code"`
	Passed   bool    `json:"passed"`
	TimedOut bool    `json:"timed_out,omitempty"`
	Seconds  float64 `json:"seconds"`
	Output   string  `json:"output"` // the tail
}

// Attempt is one model edit.
type Attempt struct {
	N            int            `json:"n"`
	Target       string         `json:"target"`           // path:qname; a region's path:"lines A-B"
	Region       bool           `json:"region,omitempty"` // the target is a region (lines outside any function)
	PromptTokens int            `json:"prompt_tokens"`
	Usage        provider.Usage `json:"usage"`
	StopReason   string         `json:"stop_reason"`
	Verdict      edit.Verdict   `json:"verdict"`
	Written      bool           `json:"written"`
	Stale        bool           `json:"stale,omitempty"` // the file changed under the pipeline; re-indexed and re-located
	Test         *TestRun       `json:"test,omitempty"`
	Diff         string         `json:"diff,omitempty"`
}

// Report is the machine-readable account of a run (`grit fix --json`).
type Report struct {
	Task         string      `json:"task"`
	Root         string      `json:"root"`
	Model        string      `json:"model"`
	TestCommand  string      `json:"test_command,omitempty"`
	Baseline     *TestRun    `json:"baseline,omitempty"` // the tests before any edit
	Candidates   []Candidate `json:"candidates"`
	Choice       *Choice     `json:"choice,omitempty"`
	Attempts     []Attempt   `json:"attempts"`
	Status       string      `json:"status"`
	FilesChanged []string    `json:"files_changed"`
	Diff         string      `json:"diff,omitempty"` // of the kept (or, dry run, proposed) change
	Snapshot     string      `json:"snapshot,omitempty"`
	SessionID    string      `json:"session_id,omitempty"`
	Message      string      `json:"message,omitempty"`
}

type run struct {
	opts   Options
	ix     *index.Index
	root   string
	rep    *Report
	snap   *edit.Snapshot
	orig   map[string][]byte // file bytes before the run, for the final diff
	target Candidate
	// logErr is the first failed transcript write: the run goes on (the
	// files are the user's, the transcript a record of them) and Run
	// returns it with the report.
	logErr error
	tried  map[string]bool // triedKey() of every function and region shown in an edit prompt
	// sigAsked marks the targets whose signature change was questioned
	// once: the next reply may change it.
	sigAsked map[string]bool
	// offer caches the regions one "which next" question offers over its pages.
	offer     []Candidate
	offerRead bool
	edited    []string // path:qname of the functions changed, unverified (no tests)
}

// Run fixes task in the repository of opts.Index.
func Run(ctx context.Context, task string, opts Options) (*Report, error) {
	if opts.Index == nil || opts.Provider == nil || opts.Runner == nil {
		return nil, errors.New("fix: Index, Provider and Runner are required")
	}
	if opts.Attempts <= 0 {
		opts.Attempts = 3
	}
	if opts.Margin <= 0 {
		opts.Margin = 0.1
	}
	if opts.TestTimeout <= 0 {
		opts.TestTimeout = 5 * time.Minute
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = 4096
	}
	r := &run{opts: opts, ix: opts.Index, root: opts.Index.Root(), orig: map[string][]byte{}, tried: map[string]bool{}, sigAsked: map[string]bool{}}
	r.rep = &Report{Task: task, Root: r.root, Model: opts.Provider.Name(), Candidates: []Candidate{}, Attempts: []Attempt{}, FilesChanged: []string{}}
	if opts.Session != nil {
		r.rep.SessionID = opts.Session.ID
	}
	r.record("task", map[string]any{"task": task, "root": r.root, "model": r.rep.Model})
	err := r.fix(ctx, task)
	r.record("result", map[string]any{"status": r.rep.Status, "files_changed": r.rep.FilesChanged, "message": r.rep.Message})
	if r.logErr != nil {
		err = errors.Join(err, fmt.Errorf("fix: session transcript: %w", r.logErr))
	}
	return r.rep, err
}

func (r *run) say(format string, args ...any) {
	if r.opts.Progress != nil {
		fmt.Fprintf(r.opts.Progress, format+"\n", args...)
	}
}

// record writes one pipeline step to the transcript as a user-role note
// ("[grit fix:<step>] {json}"); model traffic is recorded as real messages.
func (r *run) record(step string, data any) {
	if r.opts.Session == nil {
		return
	}
	r.logged(r.opts.Session.AppendStep(step, data))
}

// logged keeps the first transcript write error.
func (r *run) logged(err error) {
	if r.logErr == nil {
		r.logErr = err
	}
}

func (r *run) fix(ctx context.Context, task string) error {
	st, err := r.ix.Update(ctx)
	if err != nil {
		return fmt.Errorf("fix: index: %w", err)
	}
	r.say("indexed %d files (%d parsed, %d reused)", st.Seen, st.Parsed, st.Reused)
	r.rep.TestCommand = r.opts.Test
	switch {
	case r.opts.NoTest:
		r.rep.TestCommand = ""
	case r.rep.TestCommand == "":
		r.rep.TestCommand = DetectTest(r.root)
	}
	traceback, err := r.baseline(ctx)
	if err != nil {
		return err
	}
	cands, err := r.locate(ctx, task, traceback)
	if err != nil {
		return err
	}
	r.rep.Candidates = cands
	r.record("candidates", cands)
	if len(cands) == 0 {
		r.rep.Status = StatusNoCandidates
		r.rep.Message = "the search found no function or method for this task; name the function, or pass --traceback"
		return ErrNoCandidates
	}
	for i, c := range cands {
		if i == 5 {
			break
		}
		r.say("  %d. %-40s %6.3f", i+1, c.Path+":"+c.QName, c.Score)
	}
	r.target = cands[0]
	if err := r.choose(ctx, task, cands); err != nil {
		return err
	}
	feedback, output := "", ""
	if r.rep.Baseline != nil && !r.rep.Baseline.Passed {
		output = r.rep.Baseline.Output
	}
	declines := 0
loop:
	for n := 1; n <= r.opts.Attempts; n++ {
		a, done, err := r.attempt(ctx, task, len(r.rep.Attempts)+1, feedback, output)
		r.rep.Attempts = append(r.rep.Attempts, a)
		r.record("attempt", a)
		r.tried[r.target.triedKey()] = true
		if err != nil || done {
			if err != nil {
				r.restore()
			}
			return err
		}
		switch {
		case a.Verdict.Code == CodeNoChange:
			// The model says the function shown is not the one: ask it to
			// pick among the candidates not shown yet. A decline is not an
			// edit, so it spends no attempt, up to maxDeclines of them.
			if declines++; declines <= maxDeclines {
				n--
			}
			feedback = ""
			if !r.next(ctx, task, fmt.Sprintf("%s needs no change for this task.", a.Target)) {
				break loop
			}
		case a.Verdict.Code == edit.CodeSignature && !r.sigAsked[r.target.triedKey()]:
			// A new signature may be what the task needs: say so once, and
			// take the same function back with it (its callers can be
			// offered next). The question spends no attempt.
			r.sigAsked[r.target.triedKey()] = true
			n--
			feedback = fmt.Sprintf("the quality check rejected your reply (%s). %s %s", a.Verdict.Code, a.Verdict.Reason, signatureAgain)
		case !a.Verdict.Accept:
			feedback = fmt.Sprintf("the quality check rejected your reply (%s). %s", a.Verdict.Code, a.Verdict.Reason)
		case a.Test == nil:
			// No tests to say whether the change is complete: ask whether
			// another function must change too.
			// An accepted edit is progress, not a failed try: it spends no
			// attempt, up to maxUnverifiedEdits of them, so a fix over
			// several functions and regions is not cut at the budget.
			r.edited = append(r.edited, a.Target)
			if len(r.edited) < maxUnverifiedEdits {
				n--
			}
			feedback = ""
			if !r.next(ctx, task, "Changed already for this task: "+strings.Join(r.edited, ", ")+".") {
				break loop
			}
		default:
			feedback, output = "the tests still fail after your change.", a.Test.Output
			r.relocate(ctx, a.Test.Output)
		}
	}
	if err := ctx.Err(); err != nil {
		r.restore()
		return err
	}
	if r.rep.TestCommand == "" && len(r.edited) > 0 {
		r.keep()
		r.rep.Status = StatusUnverified
		r.rep.Message = "no test command (pass --test): the change was kept unverified"
		return nil
	}
	r.restore()
	r.rep.Status = StatusReverted
	r.rep.Message = fmt.Sprintf("no passing fix in %d attempt(s); every changed file was restored", r.opts.Attempts)
	r.say("%s", r.rep.Message)
	return nil
}

// baseline runs the tests before any edit (when there are tests and this
// is no dry run) and returns the traceback to locate from: the one given,
// with the failing tests' output.
func (r *run) baseline(ctx context.Context) (string, error) {
	traceback := r.opts.Traceback
	if r.rep.TestCommand == "" || r.opts.DryRun {
		return traceback, nil
	}
	r.say("running the tests first: %s", r.rep.TestCommand)
	tr, err := r.test(ctx)
	if err != nil {
		return "", err
	}
	r.rep.Baseline = tr
	r.record("baseline", tr)
	if why := brokenTestCommand(tr); why != "" {
		r.rep.Status = StatusBrokenTests
		r.rep.Message = fmt.Sprintf("%q does not run (%s); fix the environment or pass --test with a command that runs the tests", r.rep.TestCommand, why)
		return "", fmt.Errorf("%w: %s", ErrTestCommand, r.rep.Message)
	}
	if tr.Passed {
		r.say("  they pass already")
		return traceback, nil
	}
	r.say("  they fail (exit %d)", tr.ExitCode)
	return strings.TrimSpace(traceback + "\n" + tr.Output), nil
}

// signatureAgain follows a signature rejection in the feedback: the check
// guards callers against an accidental change, not against one the task needs.
const signatureAgain = "If the task does need the new signature, return the function again with it and it will be taken; otherwise keep the old one."

// attempt makes one model edit. done reports that the run is over.
func (r *run) attempt(ctx context.Context, task string, n int, feedback, output string) (a Attempt, done bool, err error) {
	a = Attempt{N: n, Target: r.target.Path + ":" + r.target.QName}
	if r.target.region != nil {
		return r.attemptRegion(ctx, task, a, feedback)
	}
	d, src, hash, nb, err := r.current(ctx, r.target)
	if err != nil {
		return a, true, err
	}
	p := gather(ctx, r.ix, d, src)
	p.Task, p.Feedback, p.TestOutput = task, feedback, strings.TrimSpace(output)
	p.AllowSignature = allowsSignatureChange(task) || r.sigAsked[r.target.triedKey()]
	system, user, tokens, err := p.Render(r.opts.Budget)
	if err != nil {
		return a, true, err
	}
	a.PromptTokens = tokens
	r.say("attempt %d: %s (%d prompt tokens)", n, a.Target, tokens)
	resp, err := r.ask(ctx, system, user)
	if err != nil {
		return a, true, err
	}
	a.Usage, a.StopReason = resp.Usage, string(resp.StopReason)
	reply := provider.Message{Content: resp.Content}.Text()
	if isDecline(reply) {
		a.Verdict = edit.Verdict{Code: CodeNoChange, Reason: "the model says this function needs no change for the task"}
		r.say("  the model says %s needs no change", a.Target)
		return a, false, nil
	}
	orig := edit.Original{Path: d.Path, Lang: d.Lang, Name: d.Name, File: src, Range: spanOf(d)}
	// Extras: besides the function, the reply may add a new function and
	// imports in delimited blocks; each is checked on its own and becomes one
	// more op of the same atomic write.
	copts := edit.CheckOptions{StopReason: a.StopReason, AllowSignatureChange: p.AllowSignature, AllowShorter: allowsShorter(task), Parse: r.opts.Parse,
		Extras: true, Neighbors: nb}
	a.Verdict = edit.Check(ctx, orig, reply, copts)
	if !a.Verdict.Accept {
		r.say("  rejected (%s): %s", a.Verdict.Code, a.Verdict.Reason)
		return a, false, nil
	}
	if len(a.Verdict.Repairs) > 0 {
		r.say("  accepted, repaired: %s", strings.Join(a.Verdict.Repairs, "; "))
	} else {
		r.say("  accepted")
	}
	r.sayExtras(a.Verdict.Extras)
	a.Diff = edit.Diff("a/"+d.Path, "b/"+d.Path, src, a.Verdict.File)
	if stop, err := r.confirm(ctx, &a); stop {
		return a, true, err
	}
	if err := r.write(ctx, d.Path, hash, a.Verdict.Ops); err != nil {
		if !errors.Is(err, edit.ErrStale) {
			return a, true, err
		}
		// The file changed under us: re-index, find the definition again and
		// re-check the same reply against the fresh bytes, once.
		a.Stale = true
		r.say("  %s changed since it was indexed: re-indexing and locating %s again", d.Path, r.target.QName)
		if err := r.ix.UpdateFiles(ctx, d.Path); err != nil {
			return a, true, fmt.Errorf("fix: re-index %s: %w", d.Path, err)
		}
		d2, src2, hash2, nb2, err := r.current(ctx, r.target)
		if err != nil {
			return a, true, err
		}
		orig2 := edit.Original{Path: d2.Path, Lang: d2.Lang, Name: d2.Name, File: src2, Range: spanOf(d2)}
		copts.Neighbors = nb2
		v := edit.Check(ctx, orig2, reply, copts)
		if !v.Accept {
			a.Verdict = v
			return a, false, nil
		}
		a.Verdict, a.Diff = v, edit.Diff("a/"+d2.Path, "b/"+d2.Path, src2, v.File)
		if err := r.write(ctx, d2.Path, hash2, v.Ops); err != nil {
			return a, true, err
		}
	}
	a.Written = true
	done, err = r.tested(ctx, &a)
	return a, done, err
}

// confirm stops an accepted edit before it is written: a dry run shows it,
// and the user may say no to its diff. stop reports that the run is over.
func (r *run) confirm(ctx context.Context, a *Attempt) (stop bool, err error) {
	if r.opts.DryRun {
		r.rep.Status, r.rep.Diff = StatusDryRun, a.Diff
		r.rep.Message = "dry run: nothing was written"
		return true, nil
	}
	if r.opts.Confirm != nil {
		ok, err := r.opts.Confirm(ctx, a.Diff)
		if err != nil {
			return true, err
		}
		if !ok {
			r.restore()
			r.rep.Status, r.rep.Message = StatusDeclined, "the change was not applied"
			return true, nil
		}
	}
	return false, nil
}

// tested runs the tests after a written edit; done reports that they pass
// (the run is over). With no test command the loop asks whether more must
// change, then keeps the edit unverified.
func (r *run) tested(ctx context.Context, a *Attempt) (done bool, err error) {
	if r.rep.TestCommand == "" {
		return false, nil
	}
	tr, err := r.test(ctx)
	if err != nil {
		return true, err
	}
	a.Test = tr
	if tr.Passed {
		r.say("  tests pass")
		r.keep()
		r.rep.Status = StatusFixed
		return true, nil
	}
	r.say("  tests fail (exit %d)", tr.ExitCode)
	return false, nil
}

// ask sends one edit prompt and records both sides in the transcript.
func (r *run) ask(ctx context.Context, system, user string) (*provider.Response, error) {
	req := &provider.Request{Model: r.opts.Model, System: system, MaxTokens: r.opts.MaxTokens,
		Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: user}}}}}
	if r.opts.Session != nil {
		r.logged(r.opts.Session.AppendMessage(req.Messages[0], false))
	}
	resp, err := r.opts.Provider.Send(ctx, req, nil)
	if err != nil {
		return nil, fmt.Errorf("fix: model: %w", err)
	}
	if r.opts.Session != nil {
		r.logged(r.opts.Session.AppendMessage(provider.Message{Role: provider.RoleAssistant, Content: resp.Content}, false))
		r.logged(r.opts.Session.AppendUsage(r.rep.Model, resp.Usage))
	}
	return resp, nil
}

func spanOf(d index.Def) span.Range { return span.Range{Start: d.Start, End: d.End} }

// key tells candidates apart, overloads (one QName, several definitions) included.
func (c Candidate) key() string { return fmt.Sprintf("%s:%s:%d", c.Path, c.QName, c.Line) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// sayExtras reports the extra steps of an accepted reply.
func (r *run) sayExtras(extras []edit.Extra) {
	for _, x := range extras {
		switch x.Kind {
		case edit.ExtraFunction:
			r.say("  + new function %s after %s", x.Name, x.After)
		case edit.ExtraImports:
			r.say("  + imports: %s", strings.Join(x.Lines, "; "))
		}
	}
}

// current re-reads target's definition and file (the index may have moved
// it since the last edit) and its neighbours: the definitions in its scope
// (for Go also the top level), which a new function may follow and may not
// be named like.
func (r *run) current(ctx context.Context, c Candidate) (index.Def, []byte, string, []edit.Neighbor, error) {
	src, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(c.Path)))
	if err != nil {
		return index.Def{}, nil, "", nil, fmt.Errorf("fix: %w", err)
	}
	f, err := r.ix.File(ctx, c.Path)
	if err != nil || f.Hash != edit.Hash(src) {
		if err := r.ix.UpdateFiles(ctx, c.Path); err != nil {
			return index.Def{}, nil, "", nil, fmt.Errorf("fix: re-index %s: %w", c.Path, err)
		}
	}
	defs, err := r.ix.Symbols(ctx, c.Path)
	if err != nil {
		return index.Def{}, nil, "", nil, fmt.Errorf("fix: symbols of %s: %w", c.Path, err)
	}
	// Overloads share a QName: take the one nearest the candidate's line.
	best := -1
	for i, d := range defs {
		if d.QName == c.QName && (best < 0 || abs(d.StartLine-c.Line) < abs(defs[best].StartLine-c.Line)) {
			best = i
		}
	}
	if best >= 0 {
		d := defs[best]
		if !spanOf(d).Valid(len(src)) {
			return index.Def{}, nil, "", nil, fmt.Errorf("fix: %s:%s is no longer in the index", c.Path, c.QName)
		}
		nb := []edit.Neighbor{}
		for _, o := range defs {
			if o.ID == d.ID || !spanOf(o).Valid(len(src)) {
				continue
			}
			if o.Parent == d.Parent || (d.Lang == "go" && o.Parent == "") {
				nb = append(nb, edit.Neighbor{Name: o.Name, Range: spanOf(o)})
			}
		}
		return d, src, edit.Hash(src), nb, nil
	}
	return index.Def{}, nil, "", nil, fmt.Errorf("fix: %s:%s is no longer in the index", c.Path, c.QName)
}

// write snapshots the file at path, applies ops (the rewritten function and
// any extra steps) in one atomic write if it still hashes to hash, and
// re-indexes it.
func (r *run) write(ctx context.Context, path, hash string, ops []edit.Op) error {
	if r.snap == nil {
		s, err := edit.NewSnapshot(r.root, r.rep.Task)
		if err != nil {
			return err
		}
		r.snap = s
	}
	abs := filepath.Join(r.root, filepath.FromSlash(path))
	if _, ok := r.orig[path]; !ok {
		b, err := os.ReadFile(abs)
		if err != nil {
			return fmt.Errorf("fix: %w", err)
		}
		if edit.Hash(b) != hash {
			return fmt.Errorf("fix %s: %w", path, edit.ErrStale)
		}
		r.orig[path] = b
	}
	if _, err := r.snap.ApplyFile(path, hash, ops...); err != nil {
		return err
	}
	if err := r.ix.UpdateFiles(ctx, path); err != nil {
		return fmt.Errorf("fix: re-index %s: %w", path, err)
	}
	return nil
}

// keep commits the snapshot (for grit undo) and records the final diff.
func (r *run) keep() {
	if r.snap == nil {
		return
	}
	if err := r.snap.Commit(); err != nil {
		r.say("warning: snapshot for undo: %v", err)
	}
	r.rep.Snapshot = r.snap.ID
	r.rep.FilesChanged = r.snap.Paths()
	var diff strings.Builder
	for _, p := range r.rep.FilesChanged {
		now, _ := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(p)))
		diff.WriteString(edit.Diff("a/"+p, "b/"+p, r.orig[p], now))
	}
	r.rep.Diff = diff.String()
}

// restore puts back every file the run changed.
func (r *run) restore() {
	if r.snap == nil {
		return
	}
	paths, err := r.snap.Restore(true)
	if err != nil {
		r.say("warning: restoring the changed files: %v", err)
	}
	if len(paths) > 0 {
		r.ix.UpdateFiles(context.WithoutCancel(context.Background()), paths...)
	}
	r.snap.Discard()
	r.snap = nil
}

// test runs the test command.
func (r *run) test(ctx context.Context) (*TestRun, error) {
	res, err := r.opts.Runner.Run(ctx, sandbox.Spec{Script: r.rep.TestCommand, Dir: r.root, Timeout: r.opts.TestTimeout, MaxOutput: 12000})
	if err != nil {
		return nil, fmt.Errorf("fix: run tests %q: %w", r.rep.TestCommand, err)
	}
	return &TestRun{
		Command:  r.rep.TestCommand,
		ExitCode: res.ExitCode,
		Passed:   res.ExitCode == 0 && !res.TimedOut,
		TimedOut: res.TimedOut,
		Seconds:  res.Duration.Seconds(),
		Output:   tailBytes(res.Output, 4000),
	}, nil
}
