package config

// ProjectPermissions joins the project's two files (settings.json and
// settings.local.json) into one permission layer.
func (src Sources) ProjectPermissions() Permissions {
	return Merge(Settings{Permissions: src.Project.Settings.Permissions}, Settings{Permissions: src.Local.Settings.Permissions}).Permissions
}

// Untrusted merges the settings layers without the repository's own: what
// counts before the user trusts the repository (grit trust).
func (src Sources) Untrusted() Settings {
	return Merge(src.Defaults.Settings, src.User.Settings, src.Managed.Settings, src.Env.Settings)
}

// ModelOr is the model a session uses: flag (--model) if set, else the
// settings' "model", else DefaultModel.
func (s Settings) ModelOr(flag string) string {
	switch {
	case flag != "":
		return flag
	case s.Model != "":
		return s.Model
	}
	return DefaultModel
}
