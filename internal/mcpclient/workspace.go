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
	root, err := permission.WorkspaceRoot(root)
	if err != nil {
		return nil, nil, err
	}
	_, src, err := config.Load(root, co)
	if err != nil {
		return nil, nil, err
	}
	status, err := permission.CheckTrustAt(root, trustPath)
	if err != nil {
		return nil, nil, err
	}
	servers, warnings := Load(root, src.User.Settings.Extra["mcpServers"], status.Honoured())
	if !status.Honoured() {
		if f, err := ReadFile(filepath.Join(root, ProjectFile)); err == nil && len(f.MCPServers) > 0 {
			warnings = append(warnings, fmt.Sprintf("%s defines %d server(s), not used until the repository is trusted (grit trust)", ProjectFile, len(f.MCPServers)))
		}
	}
	return servers, warnings, nil
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
