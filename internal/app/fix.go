package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/fix/demo"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/search"
	"github.com/grit-dev/grit/internal/session"
)

// FixOptions configure Fix: the flags of `grit fix`.
type FixOptions struct {
	Model     string // "PROVIDER:MODEL"; required unless Provider is set
	Test      string
	Attempts  int
	Traceback string
	DryRun    bool
	Confirm   func(ctx context.Context, diff string) (bool, error) // nil: write without asking
	Progress  io.Writer
	Budget    int
	// Sandbox is the test runner's backend: "" or "auto" (bwrap; refuses
	// when no isolation works), "bwrap" or "none" (no isolation, explicitly).
	Sandbox string
	// Provider overrides Model (tests, the demo's scripted model).
	Provider provider.Provider
	// Runner overrides Sandbox.
	Runner sandbox.Runner
	// DataHome is where session transcripts go; "" means session.DataHome().
	DataHome string
	// NoSession records no transcript.
	NoSession bool
}

// Fix runs the fix pipeline on the repository at root.
func Fix(ctx context.Context, root, task string, o FixOptions) (*fix.Report, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("fix: %w", err)
	}
	p := o.Provider
	if p == nil {
		if o.Model == "" {
			return nil, errors.New("fix: no model: pass --model PROVIDER:MODEL (e.g. ollama:qwen2.5-coder:7b) or set \"model\" in settings.json")
		}
		p, err = provider.New(o.Model, provider.Options{})
		if err != nil {
			return nil, err
		}
	}
	runner := o.Runner
	if runner == nil {
		runner, err = sandbox.New(sandbox.Config{Workspace: root, Backend: o.Sandbox})
		if err != nil {
			return nil, fmt.Errorf("fix: test runner: %w", err)
		}
	}
	ix, err := OpenIndex(ctx, root, index.Options{}) // fix.Run updates it
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	var sess *session.Session
	if !o.NoSession {
		st, err := session.NewStore(o.DataHome, root)
		if err != nil {
			return nil, err
		}
		sess, err = st.Create(session.Meta{Cwd: root, Model: p.Name()})
		if err != nil {
			return nil, err
		}
		defer sess.Close()
	}
	return fix.Run(ctx, task, fix.Options{
		Index:       ix,
		Provider:    p,
		Model:       modelName(o.Model),
		Runner:      runner,
		Parse:       EditParse,
		Test:        o.Test,
		Attempts:    o.Attempts,
		Traceback:   o.Traceback,
		Budget:      o.Budget,
		DryRun:      o.DryRun,
		Confirm:     o.Confirm,
		Session:     sess,
		Progress:    o.Progress,
		TestTimeout: 5 * time.Minute,
	})
}

// modelName is the model part of "provider:model" ("" for a scripted path).
func modelName(spec string) string {
	for i := 0; i < len(spec); i++ {
		if spec[i] == ':' {
			if spec[:i] == "scripted" {
				return ""
			}
			return spec[i+1:]
		}
	}
	return spec
}

// FixUndoResult reports what UndoFix restored.
type FixUndoResult struct {
	Snapshot string   `json:"snapshot"`
	Task     string   `json:"task"`
	Created  string   `json:"created"`
	Restored []string `json:"restored"`
}

// UndoFix restores the files the last kept fix changed, from its snapshot under
// .grit/snapshots. It refuses (edit.ErrModified) when a file changed after the
// fix unless force is set, and returns edit.ErrNoSnapshot when there is
// nothing to undo. The user's .git is never touched.
func UndoFix(ctx context.Context, root string, force bool) (*FixUndoResult, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("undo: %w", err)
	}
	s, err := edit.LastSnapshot(root)
	if err != nil {
		return nil, err
	}
	paths, err := s.Restore(force)
	if err != nil {
		return nil, err
	}
	if ix, err := OpenIndex(ctx, root, index.Options{}); err == nil {
		ix.UpdateFiles(ctx, paths...)
		ix.Close()
	}
	return &FixUndoResult{Snapshot: s.ID, Task: s.Label, Created: s.Created.Format(time.RFC3339), Restored: paths}, nil
}

// editParser is the parser EditParse uses; it is safe for concurrent use.
var editParser = NewParser()

// EditParse is the quality monitor's parse callback (edit.ParseFunc): the
// tree-sitter error count of src and its top-level definitions.
func EditParse(ctx context.Context, path string, src []byte) (edit.Outline, error) {
	parsed, err := editParser.Parse(ctx, path, src)
	if err != nil {
		return edit.Outline{}, err
	}
	out := edit.Outline{Errors: parsed.Errors}
	for _, d := range parsed.Defs {
		// Top level only; a Go method's Parent is its receiver type.
		if (d.Parent == "" || parsed.Lang == "go") && d.Kind != index.KindVariable {
			out.Defs = append(out.Defs, edit.OutlineDef{Name: d.Name, Kind: d.Kind, Start: d.Start, End: d.End})
		}
	}
	return out, nil
}

// DemoResult is what `grit demo` shows.
type DemoResult struct {
	Dir        string       `json:"dir"`
	Task       string       `json:"task"`
	Candidates []search.Hit `json:"candidates"`
	Report     *fix.Report  `json:"report"`
}

// Demo extracts the embedded demo project into dir, locates the bug, and runs
// the fix pipeline with the embedded scripted model reply. The tests run
// without a sandbox: the code is Grit's own, embedded in the binary.
func Demo(ctx context.Context, dir string, progress io.Writer) (*DemoResult, error) {
	if err := demo.Extract(dir); err != nil {
		return nil, err
	}
	res := &DemoResult{Dir: dir, Task: demo.Task}
	ix, _, err := UpdateIndex(ctx, dir, index.Options{})
	if err != nil {
		return nil, err
	}
	sr, err := locate.Run(ctx, ix, locate.Request{Task: demo.Task, K: 3})
	ix.Close()
	if err != nil {
		return nil, err
	}
	res.Candidates = sr.Hits
	p, err := provider.ParseScripted("demo", demo.Script)
	if err != nil {
		return nil, err
	}
	res.Report, err = Fix(ctx, dir, demo.Task, FixOptions{Provider: p, Runner: sandbox.NewPlain(), Attempts: 1, Progress: progress, NoSession: true})
	return res, err
}
