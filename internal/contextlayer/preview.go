package contextlayer

import (
	"context"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/mcpclient"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// PreviewOptions describe the session Preview reports on.
type PreviewOptions struct {
	// Workspace is where the session would start, with its settings under
	// the trust rule: an untrusted repository's own settings, skills,
	// agents and MCP servers are left out, as a session leaves them out.
	Workspace          permission.Workspace
	ConfigOpts         config.LoadOptions
	AppendSystemPrompt string
	Model              string
	// Provider answers for the model's window when the settings and the
	// table do not know it (Ollama); nil asks nothing.
	Provider provider.Provider
	// OpenIndex opens root's index, up to date, for the tools; listing
	// them does not call it.
	OpenIndex func(ctx context.Context, root string) (*index.Index, error)
	// Resume names a saved session whose conversation is counted; Continue
	// takes the project's latest. DataHome is where sessions are ("" is
	// session.DataHome()).
	Resume   string
	Continue bool
	DataHome string
}

// Preview is `grit context`: the context layer of a new session (with a
// saved session's conversation when o names one), without a model call.
func Preview(ctx context.Context, o PreviewOptions) (Report, error) {
	w, trusted := o.Workspace, o.Workspace.Trust.Honoured()
	env, err := tool.NewEnv(w.Root, nil)
	if err != nil {
		return Report{}, err
	}
	defer env.Close()
	if o.OpenIndex != nil {
		ix := &index.Lazy{Open: func(ctx context.Context) (*index.Index, error) { return o.OpenIndex(ctx, env.Root) }}
		defer ix.Close()
		env.Index = ix.Get
	}
	reg := tool.Default(env)
	types, _ := SubagentTypes(env.Root, o.ConfigOpts, trusted)
	reg.Add(&agent.Task{Types: types})
	if m, _ := mcpclient.Start(ctx, env.Root, w.Sources, trusted, "", reg, nil); m != nil {
		defer m.Close()
	}
	l, err := New(Options{Root: env.Root, Cwd: permission.LaunchDir(env.Root), ConfigOpts: o.ConfigOpts, AppendSystemPrompt: o.AppendSystemPrompt,
		Model: o.Model, Window: WindowOf(ctx, o.Model, w.Settings, o.Provider), Untrusted: !trusted})
	if err != nil {
		return Report{}, err
	}
	l.Install(reg, nil)
	var tr *session.Transcript
	if o.Resume != "" || o.Continue {
		st, err := session.NewStore(o.DataHome, env.Root)
		if err != nil {
			return Report{}, err
		}
		id := o.Resume
		if id == "" {
			if id, err = st.Latest(); err != nil {
				return Report{}, err
			}
		}
		if tr, err = st.Read(id); err != nil {
			return Report{}, err
		}
	}
	return l.ReportFor(tr), nil
}
