package app

import (
	"context"
	"strings"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/contextlayer"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
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
	// What a session would load: an untrusted repository's own settings and
	// skills are left out, as AgentSession leaves them out.
	root, settings, src, status, err := o.settings()
	if err != nil {
		return contextlayer.Report{}, err
	}
	model := settings.ModelOr(o.Model)
	env, err := tool.NewEnv(root, nil)
	if err != nil {
		return contextlayer.Report{}, err
	}
	s := &AgentSession{Settings: settings, Model: model, Root: env.Root}
	env.Index = s.index // opened only if a tool ran; listing the tools does not
	defer s.Close()
	reg := tool.Default(env)
	types, _ := subagentTypes(env.Root, o.ConfigOpts, status.Honoured())
	reg.Add(&agent.Task{Types: types})
	if m, _ := mcpServers(ctx, env.Root, src, status.Honoured(), "", reg, nil); m != nil {
		defer m.Close()
	}
	var p provider.Provider
	if kind, _, _ := strings.Cut(model, ":"); kind == "ollama" {
		p, _ = s.newProvider(model) // for the window Ollama reports; no model call
	}
	l, err := contextlayer.New(contextlayer.Options{Root: env.Root, Cwd: permission.LaunchDir(env.Root), ConfigOpts: o.ConfigOpts, AppendSystemPrompt: o.AppendSystemPrompt,
		Model: model, Window: contextlayer.WindowOf(ctx, model, settings, p), Untrusted: !status.Honoured()})
	if err != nil {
		return contextlayer.Report{}, err
	}
	l.Install(reg, nil)
	var tr *session.Transcript
	if o.Resume != "" || o.Continue {
		st, err := session.NewStore(o.DataHome, env.Root)
		if err != nil {
			return contextlayer.Report{}, err
		}
		id := o.Resume
		if id == "" {
			if id, err = st.Latest(); err != nil {
				return contextlayer.Report{}, err
			}
		}
		if tr, err = st.Read(id); err != nil {
			return contextlayer.Report{}, err
		}
	}
	return l.ReportFor(tr), nil
}

// InitAgentsMD is `grit init` (contextlayer.InitAgentsMD) over the
// tree-sitter index.
func InitAgentsMD(ctx context.Context, root string, force, dryRun bool) (contextlayer.InitReport, error) {
	return contextlayer.InitAgentsMD(ctx, root, force, dryRun, func(ctx context.Context, root string) (*index.Index, index.Stats, error) {
		return UpdateIndex(ctx, root, index.Options{})
	})
}
