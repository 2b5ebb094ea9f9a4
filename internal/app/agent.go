package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/mcpclient"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// AgentOptions are the flags of `grit` / `grit -p`.
type AgentOptions struct {
	Root string // workspace; "" means the current directory
	// Model is "PROVIDER:MODEL" (--model); "" takes settings "model", else
	// config.DefaultModel.
	Model string
	// PermissionMode is --permission-mode; "" takes the settings' defaultMode.
	PermissionMode string
	MaxTurns       int
	// AllowedTools and DisallowedTools are permission rules from the command
	// line (Claude Code's --allowedTools / --disallowedTools). A bare tool
	// name in DisallowedTools also removes the tool from the model's list.
	AllowedTools, DisallowedTools []string
	AppendSystemPrompt            string
	// Continue resumes the project's latest session; Resume a given ID.
	Continue bool
	Resume   string
	// Asker asks the user on a TTY; nil is headless (ask becomes deny).
	Asker   agent.Asker
	OnEvent func(agent.Event)
	// Warnf receives warnings and notices for the user (stderr).
	Warnf func(format string, args ...any)

	// For tests: injected parts and locations.
	Provider   provider.Provider // overrides Model
	Runner     sandbox.Runner    // overrides the settings' sandbox
	DataHome   string            // session storage; "" means session.DataHome()
	ConfigOpts config.LoadOptions
	TrustPath  string // "" means permission.DefaultTrustPath()
}

// AgentSession is a wired agent with its session, permission engine and
// settings. Close it when done.
type AgentSession struct {
	Agent    *agent.Agent
	Session  *session.Session
	Engine   *permission.Engine
	Settings config.Settings
	Model    string // the provider spec in use
	Resumed  bool
	// ForkedFrom is set when the resumed session was in use by another
	// process and this one continues in a fork of it.
	ForkedFrom string

	Root string // the workspace (the git top level, or the directory given), symlinks resolved
	Cwd  string // where grit was started, in Root: relative paths and Bash start here
	// Trusted says whether the repository's own settings, hooks and skills
	// are honoured (grit trust).
	Trusted bool
	ixOnce  sync.Once
	ix      index.Lazy
	env     *tool.Env
	// MCP holds the session's MCP servers (stopped by Close).
	MCP *mcpclient.Manager
}

// workspace resolves the workspace root and loads its settings under the
// trust rule (permission.OpenWorkspace).
func (o AgentOptions) workspace() (permission.Workspace, error) {
	return permission.OpenWorkspace(o.Root, o.ConfigOpts, o.TrustPath)
}

func (o AgentOptions) warnf(format string, args ...any) {
	if o.Warnf != nil {
		o.Warnf(format, args...)
	}
}

// OpenAgent loads settings, builds the provider, tools, sandbox, permission
// engine and hooks, and creates or resumes the session.
func OpenAgent(ctx context.Context, o AgentOptions) (*AgentSession, error) {
	w, err := o.workspace()
	if err != nil {
		return nil, err
	}
	if !w.Trust.Honoured() {
		o.warnf("%s", w.Trust.Describe())
	}
	// additionalDirectories are absolute from here on (relative ones start
	// at the workspace root, ~ at the home directory).
	permission.AbsDirs(w.Settings.Permissions.AdditionalDirectories, w.Root, o.ConfigOpts.Home)
	s := &AgentSession{Settings: w.Settings, Trusted: w.Trust.Honoured(), Model: w.Settings.ModelOr(o.Model)}
	p := o.Provider
	if p == nil {
		if p, err = s.newProvider(s.Model); err != nil {
			return nil, err
		}
	} else {
		s.Model = p.Name()
	}
	removed := permission.RemovedTools(o.DisallowedTools)
	tools, err := s.openTools(o, w.Root, removed)
	if err != nil {
		return nil, err
	}
	po := permission.Options{Root: s.Root, Home: o.ConfigOpts.Home, Cwd: s.env.Cwd, ReadOnlyTools: sideEffectFreeTools}
	if err := po.FromWorkspace(w, o.PermissionMode, o.AllowedTools, o.DisallowedTools); err != nil {
		return nil, err
	}
	if s.Engine, err = permission.New(po); err != nil {
		return nil, err
	}
	for _, n := range s.Engine.Notices() {
		o.warnf("%s", n)
	}
	if !removed[permission.ExitPlanMode] {
		// Plan mode's way out; it switches the engine's mode once approved.
		tools.Add(tool.ExitPlanMode{Mode: s.Engine.Mode, SetMode: s.Engine.SetMode})
	}
	history, err := s.openSession(o, w.Root)
	if err != nil {
		return nil, err
	}
	if err := s.openLoop(o, w, p, tools, history); err != nil {
		s.Close()
		return nil, err
	}
	s.installDaily(ctx, o, w.Sources, removed, history)
	return s, nil
}

// openTools builds the tools' environment (where Bash runs, where relative
// paths start) and the default tools less the removed ones.
func (s *AgentSession) openTools(o AgentOptions, root string, removed map[string]bool) (*tool.Registry, error) {
	runner := o.Runner
	if runner == nil {
		var err error
		if runner, err = sandbox.NewFor(root, s.Settings); err != nil {
			return nil, err
		}
	}
	env, err := tool.NewEnv(root, runner)
	if err != nil {
		return nil, err
	}
	s.Root, s.env = env.Root, env
	s.Cwd = permission.LaunchDir(env.Root)
	// Relative paths and Bash start where grit was started, as in Claude Code.
	if err := env.SetBase(s.Cwd); err != nil {
		return nil, err
	}
	env.SetCwd(s.Cwd)
	env.Index = s.index
	for _, k := range slices.Sorted(maps.Keys(s.Settings.Env)) {
		env.Vars = append(env.Vars, k+"="+s.Settings.Env[k])
	}
	var keep []tool.Tool
	for _, t := range tool.Default(env).All() {
		if !removed[t.Name()] {
			keep = append(keep, t)
		}
	}
	return tool.NewRegistry(keep...), nil
}

// openSession creates the session, or resumes the one o names, and returns
// the conversation so far.
func (s *AgentSession) openSession(o AgentOptions, root string) ([]provider.Message, error) {
	st, err := session.NewStore(o.DataHome, root)
	if err != nil {
		return nil, err
	}
	meta := session.Meta{Cwd: root, Model: s.Model}
	if o.Resume == "" && !o.Continue {
		s.Session, err = st.Create(meta)
		return nil, err
	}
	sess, tr, forked, err := st.Resume(o.Resume, meta)
	if err != nil {
		return nil, err
	}
	id := sess.ID
	if forked != "" {
		id, s.ForkedFrom = forked, forked
		o.warnf("session %s is in use by another grit process; continuing in a new session %s forked from it", id, sess.ID)
	}
	if w := tr.Warning(); w != "" {
		o.warnf("session %s: %s", id, w)
		for _, line := range tr.Warnings {
			o.warnf("  %s", line)
		}
	}
	s.Session, s.Resumed = sess, true
	return tr.Messages(), nil
}

// openLoop builds the hooks (managed, user, and the repository's own only
// when trusted) and the agent loop.
func (s *AgentSession) openLoop(o AgentOptions, w permission.Workspace, p provider.Provider, tools *tool.Registry, history []provider.Message) error {
	hooks, err := agent.NewHooks(agent.HookOptions{
		Layers: agent.HookLayers(w.Sources, s.Trusted), Dir: w.Root,
		SessionID: s.Session.ID, TranscriptPath: s.Session.Path,
		Logf: o.warnf,
	})
	if err != nil {
		return err
	}
	maxTurns := o.MaxTurns
	if maxTurns == 0 {
		maxTurns = s.Settings.MaxTurns
	}
	engine := s.Engine
	s.Agent, err = agent.New(agent.Options{
		Provider: p, Tools: tools, Env: s.env,
		Gate: agent.PermissionGate(engine), Asker: o.Asker, Hooks: hooks,
		Session: s.Session, History: history, Resumed: s.Resumed,
		System:   agent.SystemPrompt(agent.DetectPromptEnv(s.Cwd), o.AppendSystemPrompt),
		MaxTurns: maxTurns, OnEvent: o.OnEvent,
		PlanMode: func() bool { return engine.Mode() == permission.ModePlan },
	})
	return err
}

// newProvider builds the provider for spec with the settings' options.
func (s *AgentSession) newProvider(spec string) (provider.Provider, error) {
	kind, _, _ := strings.Cut(spec, ":")
	po := provider.Options{}
	if ps, ok := s.Settings.Providers[kind]; ok {
		po.BaseURL, po.ContextWindow, po.ToolCalls = ps.BaseURL, ps.ContextWindow, ps.ToolCalls
	}
	p, err := provider.New(spec, po)
	if err != nil {
		return nil, fmt.Errorf("model %q: %w", spec, err)
	}
	return p, nil
}

// SetModel switches the model for the next calls (/model).
func (s *AgentSession) SetModel(spec string) error {
	p, err := s.newProvider(spec)
	if err != nil {
		return err
	}
	s.Agent.SetProvider(p)
	s.Model = spec
	return nil
}

// End fires the SessionEnd hooks (reason as in Claude Code:
// "prompt_input_exit" when the user left, "other" otherwise). Close calls
// it with "other" if no one did.
func (s *AgentSession) End(ctx context.Context, reason string) error {
	if s.Agent == nil {
		return nil
	}
	return s.Agent.End(ctx, reason)
}

// Close fires SessionEnd if it has not fired, stops the MCP servers, kills
// the background shells, and releases the session and the index.
func (s *AgentSession) Close() error {
	err := s.End(context.Background(), "other")
	if s.env != nil {
		s.env.Close()
	}
	if s.MCP != nil {
		err = errors.Join(err, s.MCP.Close())
	}
	if s.Session != nil {
		err = errors.Join(err, s.Session.Close())
	}
	return errors.Join(err, s.ix.Close())
}

// index opens the repository index once and brings it up to date on every
// call (Locate, EditFunction).
func (s *AgentSession) index(ctx context.Context) (*index.Index, error) {
	s.ixOnce.Do(func() {
		s.ix.Open = func(ctx context.Context) (*index.Index, error) { return updateIndex(ctx, s.Root) }
	})
	return s.ix.Get(ctx)
}
