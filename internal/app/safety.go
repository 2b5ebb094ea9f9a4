package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/sandbox"
)

// The safety wiring: trust decides whether a repository's own settings,
// hooks and skills count; the permission engine gates every tool call; the
// sandbox runs Bash. Every face (grit, grit -p, grit goal) builds them here
// so none of them honours a repository before the user trusts it.

// TrustReport is what `grit trust` shows: the repository, its state before
// and after, and the files the hash covers.
type TrustReport struct {
	Root string `json:"root"`
	// Previous is the state before this command; State the state after.
	Previous string   `json:"previous_state"`
	State    string   `json:"state"`
	Hash     string   `json:"hash,omitempty"`
	Files    []string `json:"files"`
	Store    string   `json:"store"`
}

// TrustOptions locate the repository and the trust store.
type TrustOptions struct {
	Root string // "" means the current directory
	// Store is the trust file; "" means permission.DefaultTrustPath().
	Store string
}

func (o TrustOptions) open() (string, *permission.Trust, string, error) {
	root, err := workspaceRoot(o.Root)
	if err != nil {
		return "", nil, "", err
	}
	store := o.Store
	if store == "" {
		if store, err = permission.DefaultTrustPath(); err != nil {
			return "", nil, "", err
		}
	}
	return root, permission.OpenTrust(store), store, nil
}

// CheckTrust reports the repository's trust state without changing it.
func CheckTrust(o TrustOptions) (TrustReport, error) {
	root, t, store, err := o.open()
	if err != nil {
		return TrustReport{}, err
	}
	st, err := t.Check(root)
	if err != nil {
		return TrustReport{}, err
	}
	return TrustReport{Root: root, Previous: st.State, State: st.State, Hash: st.Hash, Files: nonNil(st.Files), Store: store}, nil
}

// GrantTrust trusts the repository's settings, hooks and skills as they are
// now; a later change to any of them asks again.
func GrantTrust(o TrustOptions) (TrustReport, error) {
	before, err := CheckTrust(o)
	if err != nil {
		return TrustReport{}, err
	}
	root, t, _, _ := o.open()
	st, err := t.Grant(root)
	if err != nil {
		return TrustReport{}, err
	}
	before.State, before.Hash, before.Files = st.State, st.Hash, nonNil(st.Files)
	return before, nil
}

// RevokeTrust forgets the repository: its own settings, hooks and skills
// are ignored again.
func RevokeTrust(o TrustOptions) (TrustReport, error) {
	before, err := CheckTrust(o)
	if err != nil {
		return TrustReport{}, err
	}
	root, t, _, _ := o.open()
	if err := t.Revoke(root); err != nil {
		return TrustReport{}, err
	}
	after, err := t.Check(root)
	if err != nil {
		return TrustReport{}, err
	}
	before.State = after.State
	return before, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// SandboxConfig is the sandbox for root under settings: isolation on
// (bwrap, else Landlock plus a network namespace) unless the settings say
// "sandbox": {"enabled": false}.
func SandboxConfig(root string, s config.Settings) sandbox.Config {
	backend := sandbox.BackendAuto
	if s.Sandbox.Enabled != nil && !*s.Sandbox.Enabled {
		backend = sandbox.BackendNone
	}
	// permissions.additionalDirectories widen the workspace for Bash too.
	writable := append(append([]string(nil), s.Sandbox.WritablePaths...), s.Permissions.AdditionalDirectories...)
	return sandbox.Config{Workspace: root, Backend: backend, Network: s.Sandbox.Network,
		WritablePaths: writable, EnvPassthrough: s.Sandbox.EnvPassthrough}
}

// NewSandboxRunner builds the Runner for Bash and for harness-run checks
// (goal mode's --until). With no working backend it fails and says how to
// fix it or opt out; it never runs commands unisolated unless the settings
// turned the sandbox off.
func NewSandboxRunner(root string, s config.Settings) (sandbox.Runner, error) {
	r, err := sandbox.New(SandboxConfig(root, s))
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w (set \"sandbox\": {\"enabled\": false} in settings to run commands without isolation)", err)
	}
	return r, nil
}

// PermissionGate adapts the permission engine to the agent's Gate.
func PermissionGate(e *permission.Engine) agent.Gate { return engineGate{e} }

// userSettingsHint names the user's settings file in a headless denial
// when the repository's own is ignored (not trusted).
const userSettingsHint = "~/.config/grit/settings.json (the repository's .grit/settings.json counts only after grit trust)"

type engineGate struct{ e *permission.Engine }

func (g engineGate) Check(ctx context.Context, c agent.Call) agent.Decision {
	d := g.e.CheckPaths(ctx, c.Tool, c.Input, c.Paths)
	out := agent.Decision{Behavior: d.Behavior, Reason: d.Reason, Protected: d.Protected}
	if !g.e.ProjectTrusted() {
		out.RulesFile = userSettingsHint
	}
	return out
}

// HookLayers are the settings' hooks, strongest first; the repository's
// own two files only run when it is trusted.
func HookLayers(src config.Sources, trusted bool) []agent.HookLayer {
	return []agent.HookLayer{
		{Name: "managed", Hooks: src.Managed.Settings.Hooks, Trusted: true},
		{Name: "user", Hooks: src.User.Settings.Hooks, Trusted: true},
		{Name: "project", Hooks: src.Project.Settings.Hooks, Trusted: trusted},
		{Name: "project local", Hooks: src.Local.Settings.Hooks, Trusted: trusted},
	}
}

// WorkspaceRoot is the workspace a session started here would have (""):
// the git top level of the current directory, else the current directory;
// or root made absolute. Sessions are stored and listed under it.
func WorkspaceRoot(root string) (string, error) { return workspaceRoot(root) }

// workspaceRoot is the workspace of a session, as OpenAgent resolves it
// (trust is keyed by the same path): root made absolute when given, else
// the git top level of the current directory (as Claude Code takes the
// project), else the current directory.
func workspaceRoot(root string) (string, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		root = gitTop(wd)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("workspace: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("workspace %s is not a directory", abs)
	}
	return abs, nil
}

// gitTop is the top level of the git work tree holding dir (the nearest
// directory with a .git entry, a directory or a worktree's file), or dir.
func gitTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// launchDir is the current directory when it lies in the workspace root
// (symlinks resolved), else root: where relative paths and Bash start.
func launchDir(root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return root
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	if rel, err := filepath.Rel(root, wd); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return root
	}
	return wd
}
