package permission

import (
	"os"

	"github.com/grit-dev/grit/internal/config"
)

// Workspace is a session's workspace and its settings under the trust
// rule every command follows (LoadSettings).
type Workspace struct {
	Root     string          // absolute (WorkspaceRoot)
	Settings config.Settings // what is in force: the repository's layers only while trusted
	Sources  config.Sources  // every layer as read, trusted or not
	Trust    TrustStatus
}

// OpenWorkspace resolves dir as WorkspaceRoot does and loads its settings
// (LoadSettings; trustPath "" is the default trust file).
func OpenWorkspace(dir string, co config.LoadOptions, trustPath string) (Workspace, error) {
	root, err := WorkspaceRoot(dir)
	if err != nil {
		return Workspace{}, err
	}
	settings, src, status, err := LoadSettings(root, co, trustPath)
	return Workspace{Root: root, Settings: settings, Sources: src, Trust: status}, err
}

// LoadSettings reads root's settings under the one trust rule every command
// follows: the repository's own layers count only while the user trusts it
// (grit trust; trustPath "" is the default file); status says which.
func LoadSettings(root string, opts config.LoadOptions, trustPath string) (config.Settings, config.Sources, TrustStatus, error) {
	settings, src, err := config.Load(root, opts)
	if err != nil {
		return settings, src, TrustStatus{}, err
	}
	status, err := CheckTrustAt(root, trustPath)
	if err != nil {
		return settings, src, status, err
	}
	if !status.Honoured() {
		settings = src.Untrusted()
	}
	return settings, src, status, nil
}

// AbsDirs makes settings directories (permissions.additionalDirectories)
// absolute in place: "~" and "~/" at home ("" is the user's home),
// relative ones at root.
func AbsDirs(dirs []string, root, home string) {
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	for i, d := range dirs {
		dirs[i] = absPath(d, root, home)
	}
}

// FromWorkspace sets o's mode, rule layers and additional directories from w's settings and the
// command line: mode is --permission-mode ("" takes the environment's
// defaultMode, then the layers'), allowed and disallowed are
// --allowedTools and --disallowedTools, whose rules sit above the user's.
func (o *Options) FromWorkspace(w Workspace, mode string, allowed, disallowed []string) error {
	if mode != "" {
		if err := config.ValidMode(mode); err != nil {
			return err
		}
	}
	if mode == "" {
		mode = w.Sources.Env.Settings.Permissions.DefaultMode
	}
	user := w.Sources.User.Settings.Permissions
	user.Allow = append(config.SplitToolList(allowed), user.Allow...)
	user.Deny = append(config.SplitToolList(disallowed), user.Deny...)
	o.Mode = mode
	o.Managed, o.User, o.Project = w.Sources.Managed.Settings.Permissions, user, w.Sources.ProjectPermissions()
	o.ProjectTrusted = w.Trust.Honoured()
	o.AdditionalDirs = w.Settings.Permissions.AdditionalDirectories
	return nil
}
