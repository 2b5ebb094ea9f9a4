package permission

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/grit-dev/grit/internal/config"
)

// TestOpenWorkspace: the repository's own settings count only once the
// user trusts it; the command line's rules sit above the user's; the
// additional directories are made absolute.
func TestOpenWorkspace(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, ".grit", "settings.json"), `{"model": "ollama:repo", "permissions": {"allow": ["Bash"], "additionalDirectories": ["../shared", "~/notes"]}}`)
	write(filepath.Join(home, ".config", "grit", "settings.json"), `{"model": "ollama:user", "permissions": {"allow": ["Read"]}}`)
	co := config.LoadOptions{Home: home, ManagedPath: filepath.Join(home, "none.json"), Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
	trustPath := filepath.Join(home, "trust.json")

	w, err := OpenWorkspace(root, co, trustPath)
	if err != nil {
		t.Fatal(err)
	}
	if w.Root != root || w.Trust.Honoured() || w.Settings.Model != "ollama:user" {
		t.Errorf("untrusted: root %s, honoured %v, model %q; want %s, false, the user's model", w.Root, w.Trust.Honoured(), w.Settings.Model, root)
	}
	if _, err := OpenTrust(trustPath).Grant(root); err != nil {
		t.Fatal(err)
	}
	if w, err = OpenWorkspace(root, co, trustPath); err != nil {
		t.Fatal(err)
	}
	if !w.Trust.Honoured() || w.Settings.Model != "ollama:repo" {
		t.Errorf("trusted: honoured %v, model %q; want true, the repository's model", w.Trust.Honoured(), w.Settings.Model)
	}

	dirs := w.Settings.Permissions.AdditionalDirectories
	AbsDirs(dirs, root, home)
	if want := []string{filepath.Join(filepath.Dir(root), "shared"), filepath.Join(home, "notes")}; !slices.Equal(dirs, want) {
		t.Errorf("AbsDirs = %q, want %q", dirs, want)
	}

	var o Options
	if err := o.FromWorkspace(w, "", []string{"Grep Glob"}, []string{"Bash(rm:*)"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Grep", "Glob", "Read"}; !slices.Equal(o.User.Allow, want) || !slices.Equal(o.User.Deny, []string{"Bash(rm:*)"}) {
		t.Errorf("FromWorkspace user rules: allow %q deny %q, want allow %q and the command line's deny", o.User.Allow, o.User.Deny, want)
	}
	if !o.ProjectTrusted || !slices.Equal(o.Project.Allow, []string{"Bash"}) || !slices.Equal(o.AdditionalDirs, dirs) {
		t.Errorf("FromWorkspace project: trusted %v allow %q dirs %q", o.ProjectTrusted, o.Project.Allow, o.AdditionalDirs)
	}
	if err := o.FromWorkspace(w, "sometimes", nil, nil); err == nil {
		t.Error("FromWorkspace accepted the mode \"sometimes\"")
	}
}
