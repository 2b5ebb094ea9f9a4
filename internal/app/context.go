package app

import (
	"context"
	"strings"

	"github.com/grit-dev/grit/internal/contextlayer"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/provider"
)

// AttachContext builds the context layer of an opened agent session and
// installs it: tools, system prompt, compactor. Warnings go to o.Warnf.
func AttachContext(ctx context.Context, s *AgentSession, o AgentOptions) (*contextlayer.Layer, error) {
	disallowed := permission.RemovedTools(o.DisallowedTools)
	l, err := contextlayer.New(contextlayer.Options{
		Root: s.Root, Cwd: s.Cwd, ConfigOpts: o.ConfigOpts, AppendSystemPrompt: o.AppendSystemPrompt,
		Model: s.Model, Window: contextlayer.WindowOf(ctx, s.Model, s.Settings, s.Agent.Provider()),
		Untrusted: !s.Trusted,
	})
	if err != nil {
		return nil, err
	}
	l.MCP = s.MCP
	l.Install(s.Agent.Tools(), disallowed)
	l.Attach(s.Agent)
	if o.Warnf != nil {
		for _, w := range l.Warnings() {
			o.Warnf("%s", w)
		}
	}
	return l, nil
}

// ContextFor is `grit context`: the context layer of a new session in the
// workspace (with a saved session's conversation when o.Resume or
// o.Continue names one), without starting a model.
func ContextFor(ctx context.Context, o AgentOptions) (contextlayer.Report, error) {
	w, err := o.workspace()
	if err != nil {
		return contextlayer.Report{}, err
	}
	s := &AgentSession{Settings: w.Settings, Model: w.Settings.ModelOr(o.Model)}
	defer s.Close()
	var p provider.Provider
	if kind, _, _ := strings.Cut(s.Model, ":"); kind == "ollama" {
		p, _ = s.newProvider(s.Model) // for the window Ollama reports; no model call
	}
	return contextlayer.Preview(ctx, contextlayer.PreviewOptions{
		Workspace: w, ConfigOpts: o.ConfigOpts, AppendSystemPrompt: o.AppendSystemPrompt,
		Model: s.Model, Provider: p, OpenIndex: updateIndex,
		Resume: o.Resume, Continue: o.Continue, DataHome: o.DataHome,
	})
}

// InitAgentsMD is `grit init` (contextlayer.InitAgentsMD) over the
// tree-sitter index.
func InitAgentsMD(ctx context.Context, root string, force, dryRun bool) (contextlayer.InitReport, error) {
	return contextlayer.InitAgentsMD(ctx, root, force, dryRun, func(ctx context.Context, root string) (*index.Index, index.Stats, error) {
		return UpdateIndex(ctx, root, index.Options{})
	})
}
