package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/search/bench"
)

// Outcomes of one instance.
const (
	OutcomeExact      = "exact"      // every compared file byte for byte as the gold patch leaves it
	OutcomeEquivalent = "equivalent" // the same but for whitespace and comments
	OutcomeShort      = "short"      // the pipeline fell short (Stage says where)
	OutcomeError      = "error"      // the instance could not be run (Stage says which step)
)

// Stages where the pipeline fell short, in pipeline order.
const (
	StageNotLocated = "not_located"      // no gold function among the candidates or the choices
	StageNotOffered = "not_offered"      // a gold function was a candidate but never shown within the attempts
	StageRejected   = "rejected"         // the monitor or the splice rejected the gold text
	StageMulti      = "multi_function"   // a gold function was changed, another was not
	StageOutside    = "outside_function" // every gold function right, or none to change: the rest is outside functions
)

// Instance is one record of dev.jsonl or dev_poly.jsonl, with the fields the
// fix bench reads.
type Instance struct {
	InstanceID       string   `json:"instance_id"`
	Repo             string   `json:"repo"`
	BaseCommit       string   `json:"base_commit"`
	ProblemStatement string   `json:"problem_statement"`
	Patch            string   `json:"patch"`
	Language         string   `json:"language"`
	GoldFiles        []string `json:"gold_files"`
	AddedFiles       []string `json:"added_files"`
	GoldEntities     []string `json:"gold_entities_locagent"` // the data set's function gold (ctags or ast, not Grit's index)
}

// LoadInstances reads an instance file.
func LoadInstances(path string) ([]Instance, error) {
	return bench.ReadJSONL(path, func(r *Instance) error {
		if r.InstanceID == "" || r.Repo == "" || r.BaseCommit == "" || r.Patch == "" {
			return errors.New("record lacks instance_id, repo, base_commit or patch")
		}
		if r.Language == "" {
			r.Language = "python" // dev.jsonl: SWE-bench's Python projects
		}
		return nil
	})
}

// Options configure Run.
type Options struct {
	Data     string // the instance file
	Repos    string // directory holding the mirrors (bench.FindMirror)
	Work     string // extracted trees, one per repository
	Limit    int    // the first N instances; 0: all
	Attempts int    // the pipeline's attempt budget; 0: its default
	Budget   int    // the edit prompt's token budget; 0: fix.DefaultPromptBudget
	// Open opens (creating) a tree's index; Parse parses a file for the gold
	// analysis; EditParse is the quality monitor's parser. app wires all three.
	Open      func(ctx context.Context, root string) (*index.Index, error)
	Parse     ParseFunc
	EditParse edit.ParseFunc
	Out       io.Writer // one JSON line per instance
	Progress  func(msg string)
}

// AttemptResult is one pipeline attempt as the bench saw it.
type AttemptResult struct {
	Target       string `json:"target"`
	Region       bool   `json:"region,omitempty"` // the target is a region: lines outside any function
	Gold         bool   `json:"gold"`             // the target is a function the patch changes
	PromptTokens int    `json:"prompt_tokens"`
	Answer       string `json:"answer"` // the oracle's: gold or refusal
	Accepted     bool   `json:"accepted"`
	Code         string `json:"code"` // the monitor's verdict code
	Reason       string `json:"reason,omitempty"`
}

// Result is one instance's line of --out.
type Result struct {
	InstanceID    string          `json:"instance_id"`
	Repo          string          `json:"repo"`
	Language      string          `json:"language"`
	Outcome       string          `json:"outcome"`
	Stage         string          `json:"stage,omitempty"`
	Detail        string          `json:"detail,omitempty"`
	Status        string          `json:"status,omitempty"` // the pipeline's
	GoldFunctions []string        `json:"gold_functions"`
	GoldAdded     []string        `json:"gold_added,omitempty"`
	InFunctions   bool            `json:"in_functions_only"` // the whole change is inside existing functions
	Candidates    []string        `json:"candidates"`
	Choice        []string        `json:"choice,omitempty"`
	Attempts      []AttemptResult `json:"attempts"`
	Files         int             `json:"files_compared"`
	Seconds       float64         `json:"seconds"`
	Exchanges     []Exchange      `json:"exchanges"`
}

// Run runs the oracle over every instance of o.Data and reports.
func Run(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	if o.Open == nil || o.Parse == nil {
		return nil, errors.New("fix bench: no index opener or parser")
	}
	recs, err := LoadInstances(o.Data)
	if err != nil {
		return nil, err
	}
	if o.Limit > 0 && len(recs) > o.Limit {
		recs = recs[:o.Limit]
	}
	if len(recs) == 0 {
		return nil, errors.New("no instances to run (check --data and --limit)")
	}
	jobs := make([]bench.Job, len(recs))
	for i, r := range recs {
		jobs[i] = bench.Job{Repo: r.Repo, Commit: r.BaseCommit, ID: r.InstanceID}
	}
	order, mirrors, err := bench.Plan(ctx, o.Repos, jobs)
	if err != nil {
		return nil, err
	}
	var enc *json.Encoder
	if o.Out != nil {
		enc = json.NewEncoder(o.Out)
	}
	var results []Result
	co := &bench.Checkouts{Work: o.Work, Mirrors: mirrors, Open: o.Open}
	defer co.Close()
	for n, i := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := recs[i]
		t0 := time.Now()
		res := Result{InstanceID: r.InstanceID, Repo: r.Repo, Language: r.Language, Candidates: []string{}, Attempts: []AttemptResult{}, GoldFunctions: []string{}, Exchanges: []Exchange{}}
		if tree, _, err := co.Checkout(ctx, r.Repo, r.BaseCommit); err != nil {
			res.Outcome, res.Stage, res.Detail = OutcomeError, "checkout", err.Error()
		} else {
			ix, err := co.Index(ctx)
			if err != nil {
				return nil, err
			}
			runOne(ctx, o, ix, tree, r, &res)
		}
		res.Seconds = time.Since(t0).Seconds()
		results = append(results, res)
		if enc != nil {
			if err := enc.Encode(res); err != nil {
				return nil, fmt.Errorf("write results: %w", err)
			}
		}
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("[%d/%d] %s %s %s (%d attempts, %.1fs)", n+1, len(order), r.InstanceID, res.Outcome, res.Stage, len(res.Attempts), res.Seconds))
		}
	}
	rep := Summarize(results, budgetOf(o))
	rep.Took = time.Since(start).Seconds()
	return rep, nil
}

func budgetOf(o Options) int {
	if o.Budget > 0 {
		return o.Budget
	}
	return fix.DefaultPromptBudget
}

// compared is the set of files an instance is judged on: the code files the
// patch changes and the code files it adds (docs and build files aside).
func compared(r Instance) map[string]bool {
	out := map[string]bool{}
	for _, p := range append(append([]string{}, r.GoldFiles...), r.AddedFiles...) {
		out[p] = true
	}
	return out
}

// runOne runs the pipeline with the oracle on one checked-out instance,
// judges the files, and puts the tree back as the base commit has it.
func runOne(ctx context.Context, o Options, ix *index.Index, tree *bench.Tree, r Instance, res *Result) {
	keep := compared(r)
	show := func(path string) ([]byte, error) { return gitShow(ctx, tree.Mirror, r.BaseCommit, path) }
	gold, err := NewGold(ctx, r.Patch, func(p string) bool { return keep[p] }, show, o.Parse)
	if err != nil {
		res.Outcome, res.Stage, res.Detail = OutcomeError, "patch", err.Error()
		return
	}
	res.Files = len(gold.Order)
	inFuncs := true
	goldFuncs := map[string]bool{}
	for _, p := range gold.Order {
		gf := gold.Files[p]
		for _, d := range gf.Edited() {
			goldFuncs[p+":"+d.QName] = true
			res.GoldFunctions = append(res.GoldFunctions, p+":"+d.QName)
		}
		for _, a := range gf.Added() {
			res.GoldAdded = append(res.GoldAdded, p+":"+a.Def.QName)
		}
		inFuncs = inFuncs && gf.InFunctionsOnly()
	}
	res.InFunctions = inFuncs && len(gold.Order) > 0
	orc := New(gold)
	rep, ferr := fix.Run(ctx, r.ProblemStatement, fix.Options{
		Index: ix, Provider: orc, Runner: sandbox.NewPlain(), Parse: o.EditParse,
		NoTest: true, Attempts: o.Attempts, Budget: o.Budget,
	})
	changed := map[string]bool{}
	for p := range keep {
		changed[p] = true
	}
	if rep != nil {
		res.Status = rep.Status
		for _, c := range rep.Candidates {
			res.Candidates = append(res.Candidates, c.Path+":"+c.QName)
		}
		if rep.Choice != nil {
			for _, opt := range rep.Choice.Options {
				_, po, _ := strings.Cut(opt, ") ")
				res.Choice = append(res.Choice, po)
			}
		}
		for _, p := range rep.FilesChanged {
			changed[p] = true
		}
	}
	res.Exchanges = append(res.Exchanges, orc.Log...)
	edits := []Exchange{}
	for _, ex := range orc.Log {
		if ex.Kind == "edit" {
			edits = append(edits, ex)
		}
	}
	if rep != nil {
		for i, a := range rep.Attempts {
			ar := AttemptResult{Target: a.Target, Region: a.Region, Gold: goldFuncs[a.Target], PromptTokens: a.PromptTokens, Accepted: a.Verdict.Accept, Code: a.Verdict.Code}
			if !a.Verdict.Accept {
				ar.Reason = a.Verdict.Reason
			}
			if i < len(edits) {
				ar.Answer = edits[i].Answer
			}
			res.Attempts = append(res.Attempts, ar)
		}
	}
	judge(tree.Dir, gold, res, goldFuncs)
	if res.Stage == StageOutside && len(goldFuncs) == 0 && len(r.GoldEntities) > 0 {
		// The data set names functions the patch changes, but Grit's parser
		// sees none changed (a C++ header read as C, say): the index cannot
		// offer what it does not have.
		res.Stage, res.Detail = StageNotLocated, "the index has no definition for the gold functions "+strings.Join(r.GoldEntities, ", ")
	}
	if ferr != nil && !errors.Is(ferr, fix.ErrNoCandidates) {
		res.Outcome, res.Stage, res.Detail = OutcomeError, "pipeline", ferr.Error()
	}
	if err := restore(ctx, ix, tree, r.BaseCommit, changed); err != nil {
		res.Outcome, res.Stage, res.Detail = OutcomeError, "restore", err.Error()
	}
}

// judge compares the tree's files with the gold ones and, short of them,
// names the stage that fell short.
func judge(dir string, gold *Gold, res *Result, goldFuncs map[string]bool) {
	exact, equiv := len(gold.Order) > 0, len(gold.Order) > 0
	for _, p := range gold.Order {
		gf := gold.Files[p]
		now, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			now = nil
		}
		if string(now) != string(gf.Post) {
			exact = false
			if !Equivalent(gf.Lang, now, gf.Post) {
				equiv = false
			}
		}
	}
	switch {
	case exact:
		res.Outcome = OutcomeExact
		return
	case equiv:
		res.Outcome = OutcomeEquivalent
		return
	}
	res.Outcome = OutcomeShort
	located, shown, rejected, accepted := false, false, false, false
	for _, c := range append(append([]string{}, res.Candidates...), res.Choice...) {
		located = located || goldFuncs[c]
	}
	for _, a := range res.Attempts {
		if a.Gold {
			shown = true
			rejected = rejected || (a.Answer == AnswerGold && !a.Accepted)
			accepted = accepted || a.Accepted
		}
	}
	switch {
	case len(goldFuncs) == 0:
		res.Stage = StageOutside
	case !located && !shown:
		res.Stage = StageNotLocated
	case !shown:
		res.Stage = StageNotOffered
	case rejected && !accepted:
		res.Stage = StageRejected
	case !allGoldDone(dir, gold):
		res.Stage = StageMulti
	default:
		res.Stage = StageOutside
	}
}

// allGoldDone reports whether every function the patch changes reads, in
// the tree now, as the patch leaves it.
func allGoldDone(dir string, gold *Gold) bool {
	for _, p := range gold.Order {
		gf := gold.Files[p]
		now, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return false
		}
		for _, d := range gf.Edited() {
			post, ok := gf.PostOf(d)
			if !ok {
				return false // the patch deletes it: not a function rewrite
			}
			if !strings.Contains(normalize(gf.Lang, now), normalize(gf.Lang, []byte(post))) {
				return false
			}
		}
	}
	return true
}

// restore writes back the base commit's version of paths (removing those it
// does not have) and re-indexes them.
func restore(ctx context.Context, ix *index.Index, tree *bench.Tree, commit string, paths map[string]bool) error {
	var list []string
	for p := range paths {
		abs := filepath.Join(tree.Dir, filepath.FromSlash(p))
		b, err := gitShow(ctx, tree.Mirror, commit, p)
		switch {
		case errors.Is(err, errNoFile):
			if err := os.Remove(abs); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		case err != nil:
			return err
		default:
			cur, _ := os.ReadFile(abs)
			if string(cur) == string(b) {
				continue
			}
			if err := os.WriteFile(abs, b, 0o644); err != nil {
				return err
			}
		}
		list = append(list, p)
	}
	if len(list) == 0 {
		return nil
	}
	sort.Strings(list)
	return ix.UpdateFiles(ctx, list...)
}

var errNoFile = errors.New("no such file at the base commit")

// gitShow reads path at commit from the mirror.
func gitShow(ctx context.Context, mirror, commit, path string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+mirror, "cat-file", "blob", commit+":"+path)
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		msg := errb.String()
		if strings.Contains(msg, "does not exist") || strings.Contains(msg, "Not a valid object name") || strings.Contains(msg, "exists on disk, but not in") {
			return nil, fmt.Errorf("%s: %w", path, errNoFile)
		}
		return nil, fmt.Errorf("git cat-file %s:%s: %w: %s", commit, path, err, strings.TrimSpace(msg))
	}
	return out, nil
}
