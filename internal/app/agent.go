package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	ixMu    sync.Mutex
	ix      *index.Index
	env     *tool.Env
	// MCP holds the session's MCP servers (stopped by Close).
	MCP *mcpclient.Manager
}

// settings resolves the workspace root and loads its settings (LoadSettings).
func (o AgentOptions) settings() (string, config.Settings, config.Sources, permission.TrustStatus, error) {
	root, err := permission.WorkspaceRoot(o.Root)
	if err != nil {
		return "", config.Settings{}, config.Sources{}, permission.TrustStatus{}, err
	}
	settings, src, status, err := LoadSettings(root, o.ConfigOpts, o.TrustPath)
	return root, settings, src, status, err
}

// LoadSettings reads root's settings under the one trust rule every command
// follows: the repository's own layers count only while the user trusts it
// (grit trust; trustPath "" is the default file); status says which.
func LoadSettings(root string, opts config.LoadOptions, trustPath string) (config.Settings, config.Sources, permission.TrustStatus, error) {
	settings, src, err := config.Load(root, opts)
	if err != nil {
		return settings, src, permission.TrustStatus{}, err
	}
	status, err := permission.CheckTrustAt(root, trustPath)
	if err != nil {
		return settings, src, status, err
	}
	if !status.Honoured() {
		settings = src.Untrusted()
	}
	return settings, src, status, nil
}

// OpenAgent loads settings, builds the provider, tools, sandbox, permission
// engine and hooks, and creates or resumes the session.
func OpenAgent(ctx context.Context, o AgentOptions) (*AgentSession, error) {
	warnf := o.Warnf
	if warnf == nil {
		warnf = func(string, ...any) {}
	}
	root, settings, src, status, err := o.settings()
	if err != nil {
		return nil, err
	}
	trusted := status.Honoured()
	if !trusted {
		warnf("%s", status.Describe())
	}

	s := &AgentSession{Settings: settings, Trusted: trusted}
	model := settings.ModelOr(o.Model)
	s.Model = model
	p := o.Provider
	if p == nil {
		if p, err = s.newProvider(model); err != nil {
			return nil, err
		}
	} else {
		s.Model = p.Name()
	}

	// additionalDirectories are absolute from here on (relative ones start
	// at the workspace root, ~ at the home directory).
	for i, d := range settings.Permissions.AdditionalDirectories {
		settings.Permissions.AdditionalDirectories[i] = absDir(d, root, o.ConfigOpts.Home)
	}
	s.Settings = settings

	// Tools and where Bash runs.
	runner := o.Runner
	if runner == nil {
		if runner, err = sandbox.NewFor(root, settings); err != nil {
			return nil, err
		}
	}
	env, err := tool.NewEnv(root, runner)
	if err != nil {
		return nil, err
	}
	s.Root = env.Root
	s.env = env
	s.Cwd = permission.LaunchDir(env.Root)
	// Relative paths and Bash start where grit was started, as in Claude Code.
	if err := env.SetBase(s.Cwd); err != nil {
		return nil, err
	}
	env.SetCwd(s.Cwd)
	env.Index = s.index
	for _, k := range sortedKeys(settings.Env) {
		env.Vars = append(env.Vars, k+"="+settings.Env[k])
	}
	tools := tool.Default(env)
	var keep []tool.Tool
	removed := permission.RemovedTools(o.DisallowedTools)
	for _, t := range tools.All() {
		if !removed[t.Name()] {
			keep = append(keep, t)
		}
	}
	tools = tool.NewRegistry(keep...)

	// Permissions: the command line's rules sit above the user's.
	mode := o.PermissionMode
	if mode != "" {
		if err := config.ValidMode(mode); err != nil {
			return nil, err
		}
	}
	user := src.User.Settings.Permissions
	user.Allow = append(config.SplitToolList(o.AllowedTools), user.Allow...)
	user.Deny = append(config.SplitToolList(o.DisallowedTools), user.Deny...)
	if mode == "" && src.Env.Settings.Permissions.DefaultMode != "" {
		mode = src.Env.Settings.Permissions.DefaultMode
	}
	project := src.ProjectPermissions()
	engine, err := permission.New(permission.Options{
		Mode: mode, Root: env.Root,
		Managed: src.Managed.Settings.Permissions, User: user, Project: project,
		ProjectTrusted: trusted, Home: o.ConfigOpts.Home,
		Cwd: env.Cwd, AdditionalDirs: settings.Permissions.AdditionalDirectories,
		ReadOnlyTools: sideEffectFreeTools,
	})
	if err != nil {
		return nil, err
	}
	for _, n := range engine.Notices() {
		warnf("%s", n)
	}
	s.Engine = engine
	if !removed[permission.ExitPlanMode] {
		// Plan mode's way out; it switches the engine's mode once approved.
		tools.Add(tool.ExitPlanMode{Mode: engine.Mode, SetMode: engine.SetMode})
	}

	// The session.
	st, err := session.NewStore(o.DataHome, root)
	if err != nil {
		return nil, err
	}
	var history []provider.Message
	meta := session.Meta{Cwd: root, Model: s.Model}
	switch {
	case o.Resume != "" || o.Continue:
		sess, tr, forked, err := st.Resume(o.Resume, meta)
		if err != nil {
			return nil, err
		}
		id := sess.ID
		if forked != "" {
			id, s.ForkedFrom = forked, forked
			warnf("session %s is in use by another grit process; continuing in a new session %s forked from it", id, sess.ID)
		}
		if w := tr.Warning(); w != "" {
			warnf("session %s: %s", id, w)
			for _, line := range tr.Warnings {
				warnf("  %s", line)
			}
		}
		s.Session, s.Resumed, history = sess, true, tr.Messages()
	default:
		if s.Session, err = st.Create(meta); err != nil {
			return nil, err
		}
	}

	// Hooks: managed, user, and the repository's own only when trusted.
	hooks, err := agent.NewHooks(agent.HookOptions{
		Layers: agent.HookLayers(src, trusted), Dir: root,
		SessionID: s.Session.ID, TranscriptPath: s.Session.Path,
		Logf: func(f string, a ...any) { warnf(f, a...) },
	})
	if err != nil {
		s.Close()
		return nil, err
	}

	maxTurns := o.MaxTurns
	if maxTurns == 0 {
		maxTurns = settings.MaxTurns
	}
	system := agent.SystemPrompt(agent.DetectPromptEnv(s.Cwd), o.AppendSystemPrompt)
	s.Agent, err = agent.New(agent.Options{
		Provider: p, Tools: tools, Env: env,
		Gate: agent.PermissionGate(engine), Asker: o.Asker, Hooks: hooks,
		Session: s.Session, History: history, Resumed: s.Resumed,
		System: system, MaxTurns: maxTurns, OnEvent: o.OnEvent,
		PlanMode: func() bool { return engine.Mode() == permission.ModePlan },
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	s.installDaily(ctx, o, src, removed, history)
	return s, nil
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
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	if s.ix != nil {
		err = errors.Join(err, s.ix.Close())
		s.ix = nil
	}
	return err
}

// index opens the repository index once and brings it up to date on every
// call (Locate, EditFunction).
func (s *AgentSession) index(ctx context.Context) (*index.Index, error) {
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	if s.ix == nil {
		ix, _, err := UpdateIndex(ctx, s.Root, index.Options{})
		if err != nil {
			return nil, err
		}
		s.ix = ix
		return ix, nil
	}
	if _, err := s.ix.Update(ctx); err != nil {
		return nil, err
	}
	return s.ix, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// absDir makes a settings directory absolute: "~/" at home ("" is the
// user's home), relative ones at root.
func absDir(d, root, home string) string {
	if d == "~" || strings.HasPrefix(d, "~/") {
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		return filepath.Join(home, strings.TrimPrefix(d, "~"))
	}
	if filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return filepath.Join(root, d)
}
