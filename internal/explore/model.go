package explore

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/template"
	"time"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/span"
)

// ErrConflict means the file changed under the caller (stale hash, or edited
// after an apply that is being undone).
var ErrConflict = errors.New("conflict")

//go:embed prompts/explore_edit.tmpl
var explorePromptFS embed.FS

var explorePrompt = template.Must(template.ParseFS(explorePromptFS, "prompts/explore_edit.tmpl"))

// maxTokens bounds one reply of the Model tab.
const maxTokens = 4096

// ModelSpec resolves the Model tab's provider spec: flag, else the
// user's and managed settings and GRIT_MODEL (never the explored repository's
// own .grit/settings.json: a cloned repository is not trusted), else
// config.DefaultModel.
func ModelSpec(flag string) string {
	if flag != "" {
		return flag
	}
	if s, _, err := config.Load("", config.LoadOptions{}); err == nil && s.Model != "" {
		return s.Model
	}
	return config.DefaultModel
}

// ModelProposal is the Model tab's result: the reply, the monitor's verdict
// and, when accepted, the replacement and its diff against the file.
type ModelProposal struct {
	Def         Def            `json:"def"`
	Model       string         `json:"model"`
	Reply       string         `json:"reply"`
	StopReason  string         `json:"stop_reason"`
	Usage       provider.Usage `json:"usage"`
	Verdict     edit.Verdict   `json:"verdict"`
	Replacement string         `json:"replacement,omitempty"` // the repaired definition
	Diff        string         `json:"diff,omitempty"`
	FileHash    string         `json:"file_hash"` // the file the proposal applies to
}

// ModelError is a model call that failed, with what to do about it.
type ModelError struct {
	Err      error
	Help     string
	Commands []string
}

func (e *ModelError) Error() string { return e.Err.Error() }
func (e *ModelError) Unwrap() error { return e.Err }

// modelHelp explains how to get a model answering for spec.
func modelHelp(spec string, err error) *ModelError {
	kind, model, _ := strings.Cut(spec, ":")
	me := &ModelError{Err: fmt.Errorf("model %s did not answer: %w", spec, err)}
	alt := "Or pick another model: grit explore --model openai:MODEL with OPENAI_BASE_URL (and OPENAI_API_KEY) set, or --model anthropic:MODEL with ANTHROPIC_API_KEY."
	switch kind {
	case "ollama":
		host := os.Getenv("OLLAMA_HOST")
		if host == "" {
			host = provider.DefaultOllamaHost
		}
		me.Help = fmt.Sprintf("Start Ollama (it listens on %s, or OLLAMA_HOST) and pull the model. %s", host, alt)
		me.Commands = []string{"ollama serve", "ollama pull " + model}
	case "openai":
		me.Help = "Set OPENAI_BASE_URL to your OpenAI-compatible server (vLLM, llama.cpp, LM Studio, ...) and OPENAI_API_KEY if it needs one. " + alt
		me.Commands = []string{"OPENAI_BASE_URL=http://127.0.0.1:8000/v1 grit explore --model openai:" + model}
	case "anthropic":
		me.Help = "Set ANTHROPIC_API_KEY. " + alt
	default:
		me.Help = alt
	}
	return me
}

// target loads a definition and its whole file, checking that the file
// is the one the index saw.
func (x *Explorer) target(ctx context.Context, defID int64) (*loadedRepo, Def, []byte, error) {
	r, err := x.repo()
	if err != nil {
		return nil, Def{}, nil, err
	}
	d, err := r.ix.DefByID(ctx, defID)
	if err != nil {
		return nil, Def{}, nil, mapIndexErr(fmt.Sprint(defID), err)
	}
	rel, err := CleanRepoPath(d.Path)
	if err != nil {
		return nil, Def{}, nil, err
	}
	src, err := readConfined(r.fsys, rel)
	if err != nil {
		return nil, Def{}, nil, err
	}
	if f, err := r.ix.File(ctx, rel); err == nil && f.Hash != "" && f.Hash != edit.Hash(src) {
		return nil, Def{}, nil, fmt.Errorf("%w: %s changed since it was indexed: search again", ErrConflict, rel)
	}
	if !(span.Range{Start: d.Start, End: d.End}).Valid(len(src)) {
		return nil, Def{}, nil, fmt.Errorf("%w: %s changed since it was indexed: search again", ErrConflict, rel)
	}
	return r, d, src, nil
}

func original(d Def, src []byte) edit.Original {
	return edit.Original{Path: d.Path, Lang: d.Lang, Name: d.Name, File: src, Range: span.Range{Start: d.Start, End: d.End}}
}

// Propose sends definition defID and task to the configured model, streaming
// the reply's text to onText, and runs the quality monitor on the reply. It
// writes nothing. A model that cannot be reached gives a *ModelError.
func (x *Explorer) Propose(ctx context.Context, defID int64, task string, onText func(string)) (*ModelProposal, error) {
	if strings.TrimSpace(task) == "" {
		return nil, fmt.Errorf("%w: empty task", ErrBadRequest)
	}
	_, d, src, err := x.target(ctx, defID)
	if err != nil {
		return nil, err
	}
	spec := x.opts.Model
	p, err := provider.New(spec, provider.Options{Timeout: 60 * time.Second, MaxRetries: -1})
	if err != nil {
		return nil, modelHelp(spec, err)
	}
	fence := d.Lang
	data := map[string]any{
		"Lang": d.Lang, "Task": task, "Path": d.Path, "Parent": d.Parent, "QName": d.QName, "Name": d.Name,
		"StartLine": d.StartLine, "EndLine": d.EndLine, "Fence": fence, "Source": string(src[d.Start:d.End]),
	}
	var sys, user strings.Builder
	if err := explorePrompt.ExecuteTemplate(&sys, "system", data); err != nil {
		return nil, fmt.Errorf("prompt: %w", err)
	}
	if err := explorePrompt.ExecuteTemplate(&user, "user", data); err != nil {
		return nil, fmt.Errorf("prompt: %w", err)
	}
	req := &provider.Request{
		System:    sys.String(),
		Messages:  []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: user.String()}}}},
		MaxTokens: maxTokens,
	}
	resp, err := p.Send(ctx, req, func(ev provider.Event) {
		if ev.Type == "text_delta" && onText != nil {
			onText(ev.Text)
		}
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, modelHelp(spec, err)
	}
	reply := provider.Message{Content: resp.Content}.Text()
	v := edit.Check(ctx, original(d, src), reply, edit.CheckOptions{StopReason: string(resp.StopReason), Parse: x.opts.Parse})
	mp := &ModelProposal{Def: d, Model: p.Name(), Reply: reply, StopReason: string(resp.StopReason), Usage: resp.Usage, Verdict: v, FileHash: edit.Hash(src)}
	if v.Accept {
		mp.Replacement = string(v.Source)
		mp.Diff = edit.Diff("a/"+d.Path, "b/"+d.Path, src, v.File)
	}
	return mp, nil
}

// ApplyResult reports an Apply.
type ApplyResult struct {
	Path     string `json:"path"`
	Snapshot string `json:"snapshot"`
	Diff     string `json:"diff"`
	Def      *Def   `json:"def,omitempty"` // the definition after the edit, re-indexed
}

// Apply replaces definition defID with replacement through the same path as
// grit fix: the quality monitor runs again on the server's side, the file must
// still hash to fileHash (else ErrConflict), a snapshot is taken for Undo, the
// byte range is swapped and the file written atomically, then re-indexed.
func (x *Explorer) Apply(ctx context.Context, defID int64, replacement, fileHash, task string) (*ApplyResult, error) {
	r, d, src, err := x.target(ctx, defID)
	if err != nil {
		return nil, err
	}
	if fileHash == "" || fileHash != edit.Hash(src) {
		return nil, fmt.Errorf("%w: %s changed since the proposal: ask the model again", ErrConflict, d.Path)
	}
	v := edit.Check(ctx, original(d, src), replacement, edit.CheckOptions{Parse: x.opts.Parse})
	if !v.Accept {
		return nil, fmt.Errorf("%w: the quality monitor rejects the replacement (%s): %s", ErrBadRequest, v.Code, v.Reason)
	}
	snap, err := edit.NewSnapshot(r.root, "explore: "+task)
	if err != nil {
		return nil, err
	}
	if _, err := snap.ApplyFile(d.Path, fileHash, edit.Op{Kind: edit.OpReplace, Range: span.Range{Start: d.Start, End: d.End}, Text: v.Source}); err != nil {
		snap.Discard()
		if errors.Is(err, edit.ErrStale) {
			return nil, fmt.Errorf("%w: %w", ErrConflict, err)
		}
		return nil, err
	}
	if err := snap.Commit(); err != nil {
		return nil, err
	}
	res := &ApplyResult{Path: d.Path, Snapshot: snap.ID, Diff: edit.Diff("a/"+d.Path, "b/"+d.Path, src, v.File)}
	err = r.ix.UpdateFiles(ctx, d.Path)
	r.defs.reset()
	if err != nil {
		return res, fmt.Errorf("re-index %s: %w", d.Path, err)
	}
	if nd, ok, err := r.ix.DefAt(ctx, d.Path, d.Start); err == nil && ok {
		res.Def = &nd
	}
	return res, nil
}

// UndoResult reports an explorer Undo.
type UndoResult struct {
	Snapshot string   `json:"snapshot"`
	Label    string   `json:"label"`
	Restored []string `json:"restored"`
}

// Undo restores the files of the last snapshot (an explorer Apply or a grit
// fix) if they still hold what the edit wrote, then re-indexes them.
func (x *Explorer) Undo(ctx context.Context) (*UndoResult, error) {
	r, err := x.repo()
	if err != nil {
		return nil, err
	}
	snap, err := edit.LastSnapshot(r.root)
	if errors.Is(err, edit.ErrNoSnapshot) {
		return nil, fmt.Errorf("%w: nothing to undo", ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	done, err := snap.Restore(false)
	if errors.Is(err, edit.ErrModified) {
		return nil, fmt.Errorf("%w: %w", ErrConflict, err)
	}
	if err != nil {
		return nil, err
	}
	err = r.ix.UpdateFiles(ctx, done...)
	r.defs.reset()
	if err != nil {
		return nil, fmt.Errorf("re-index: %w", err)
	}
	return &UndoResult{Snapshot: snap.ID, Label: snap.Label, Restored: done}, nil
}
