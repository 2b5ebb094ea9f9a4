package agent

import (
	"context"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/permission"
)

// PermissionGate adapts the permission engine to the agent's Gate.
func PermissionGate(e *permission.Engine) Gate { return engineGate{e} }

// userSettingsHint names the user's settings file in a headless denial
// when the repository's own is ignored (not trusted).
const userSettingsHint = "~/.config/grit/settings.json (the repository's .grit/settings.json counts only after grit trust)"

type engineGate struct{ e *permission.Engine }

func (g engineGate) Check(ctx context.Context, c Call) Decision {
	d := g.e.CheckPaths(ctx, c.Tool, c.Input, c.Paths)
	out := Decision{Behavior: d.Behavior, Reason: d.Reason, Protected: d.Protected}
	if !g.e.ProjectTrusted() {
		out.RulesFile = userSettingsHint
	}
	return out
}

// HookLayers are the settings' hooks, strongest first; the repository's
// own two files only run when it is trusted.
func HookLayers(src config.Sources, trusted bool) []HookLayer {
	return []HookLayer{
		{Name: "managed", Hooks: src.Managed.Settings.Hooks, Trusted: true},
		{Name: "user", Hooks: src.User.Settings.Hooks, Trusted: true},
		{Name: "project", Hooks: src.Project.Settings.Hooks, Trusted: trusted},
		{Name: "project local", Hooks: src.Local.Settings.Hooks, Trusted: trusted},
	}
}
