package fix

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/session"
)

// WorkspaceOptions are `grit fix`'s flags and the parts a caller injects:
// RunWorkspace builds the provider, test runner, index and transcript
// from them.
type WorkspaceOptions struct {
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

	// OpenIndex opens root's index (Run updates it); Parse is the quality
	// monitor's parser. The composition root fills both.
	OpenIndex func(ctx context.Context, root string) (*index.Index, error)
	Parse     edit.ParseFunc
}

// RunWorkspace runs the fix pipeline on the repository at root.
func RunWorkspace(ctx context.Context, root, task string, o WorkspaceOptions) (*Report, error) {
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
	ix, err := o.OpenIndex(ctx, root)
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
	return Run(ctx, task, Options{
		Index: ix, Provider: p, Model: provider.ModelName(o.Model), Runner: runner, Parse: o.Parse,
		Test: o.Test, Attempts: o.Attempts, Traceback: o.Traceback, Budget: o.Budget,
		DryRun: o.DryRun, Confirm: o.Confirm, Session: sess, Progress: o.Progress,
	})
}
