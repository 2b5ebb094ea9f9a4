package mcpclient

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/tool"
)

// ConfigPath is the file `grit mcp add --scope SCOPE` edits: the
// repository's .mcp.json (project) or the user's settings.json (user).
func ConfigPath(scope, root string, co config.LoadOptions) (string, error) {
	root, err := permission.WorkspaceRoot(root)
	if err != nil {
		return "", err
	}
	switch scope {
	case "project", "":
		return filepath.Join(root, ProjectFile), nil
	case "user":
		home := co.Home
		if home == "" {
			if home, err = os.UserHomeDir(); err != nil {
				return "", err
			}
		}
		return filepath.Join(config.UserDir(home, co.Getenv), "settings.json"), nil
	}
	return "", fmt.Errorf("unknown scope %q (expected: project, user)", scope)
}

// Servers are the servers a session in root would use, with warnings
// (an untrusted repository's .mcp.json is reported, not used).
func Servers(root string, co config.LoadOptions, trustPath string) ([]Named, []string, error) {
	w, err := permission.OpenWorkspace(root, co, trustPath)
	if err != nil {
		return nil, nil, err
	}
	servers, warnings := Load(w.Root, w.Sources.User.Settings.Extra["mcpServers"], w.Trust.Honoured())
	if !w.Trust.Honoured() {
		if f, err := ReadFile(filepath.Join(w.Root, ProjectFile)); err == nil && len(f.MCPServers) > 0 {
			warnings = append(warnings, fmt.Sprintf("%s defines %d server(s), not used until the repository is trusted (grit trust)", ProjectFile, len(f.MCPServers)))
		}
	}
	return servers, warnings, nil
}

// Start connects the servers a session uses (the user's, and the
// repository's .mcp.json when trusted) and registers their tools in reg,
// leaving out a tool or a whole server ("mcp__NAME") that removed names.
// logDir holds the servers' stderr ("" discards it). Close the manager.
func Start(ctx context.Context, root string, src config.Sources, trusted bool, logDir string, reg *tool.Registry, removed map[string]bool) (*Manager, []string) {
	servers, warnings := Load(root, src.User.Settings.Extra["mcpServers"], trusted)
	var kept []Named
	for _, sv := range servers {
		if !removed["mcp__"+sv.Name] {
			kept = append(kept, sv)
		}
	}
	m := NewManager(kept, logDir, "grit")
	scratch := tool.NewRegistry()
	warnings = append(warnings, Register(ctx, m, scratch)...)
	for _, t := range scratch.All() {
		if !removed[t.Name()] {
			reg.Add(t)
		}
	}
	return m, warnings
}

// Check connects every server a session in root would use and reports
// its state and tool count (grit doctor), then stops them.
func Check(ctx context.Context, root string) ([]Status, []string, error) {
	servers, warnings, err := Servers(root, config.LoadOptions{}, "")
	if err != nil {
		return nil, nil, err
	}
	m := NewManager(servers, "", "grit")
	defer m.Close()
	warnings = append(warnings, Register(ctx, m, tool.NewRegistry())...)
	return m.Status(), warnings, nil
}
