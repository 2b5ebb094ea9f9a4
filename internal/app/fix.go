package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/fix/demo"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
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
		Index:     ix,
		Provider:  p,
		Model:     provider.ModelName(o.Model),
		Runner:    runner,
		Parse:     EditParse,
		Test:      o.Test,
		Attempts:  o.Attempts,
		Traceback: o.Traceback,
		Budget:    o.Budget,
		DryRun:    o.DryRun,
		Confirm:   o.Confirm,
		Session:   sess,
		Progress:  o.Progress,
	})
}

// UndoFix is `grit fix --undo` (fix.Undo) over the tree-sitter index.
func UndoFix(ctx context.Context, root string, force bool) (*fix.UndoResult, error) {
	return fix.Undo(ctx, root, force, func(ctx context.Context, root string) (*index.Index, error) {
		return OpenIndex(ctx, root, index.Options{})
	})
}

// Demo is `grit demo` (demo.Run) over the tree-sitter index and parser.
func Demo(ctx context.Context, dir string, progress io.Writer) (*demo.Result, error) {
	return demo.Run(ctx, dir, progress, func(ctx context.Context, root string) (*index.Index, error) {
		ix, _, err := UpdateIndex(ctx, root, index.Options{})
		return ix, err
	}, EditParse)
}
