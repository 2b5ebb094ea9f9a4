package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadLayers(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	root := filepath.Join(dir, "repo")
	managed := filepath.Join(dir, "managed.json")
	write(t, filepath.Join(home, ".config/grit/settings.json"), `{
		"model": "anthropic:claude-sonnet-4-5",
		"permissions": {"allow": ["Bash(go test:*)"], "deny": ["Read(~/.ssh/**)"]},
		"env": {"A": "user", "B": "user"},
		"theme": "dark"
	}`)
	write(t, filepath.Join(root, ".grit/settings.json"), `{
		"model": "ollama:llama3",
		"permissions": {"allow": ["Bash(go test:*)", "Edit(src/**)"], "defaultMode": "acceptEdits"},
		"env": {"B": "project"},
		"providers": {"ollama": {"contextWindow": 16384}},
		"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}
	}`)
	write(t, filepath.Join(root, ".grit/settings.local.json"), `{"maxTurns": 7, "providers": {"ollama": {"toolCalls": "text"}}}`)
	write(t, managed, `{"permissions": {"deny": ["Bash(curl:*)"]}}`)

	got, src, err := Load(root, LoadOptions{Home: home, ManagedPath: managed, Getenv: envOf(nil)})
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		Model: "ollama:llama3",
		Permissions: Permissions{
			Allow:       []string{"Bash(go test:*)", "Edit(src/**)"},
			Deny:        []string{"Read(~/.ssh/**)", "Bash(curl:*)"},
			DefaultMode: "acceptEdits",
		},
		Env:       map[string]string{"A": "user", "B": "project"},
		Providers: map[string]Provider{"ollama": {ContextWindow: 16384, ToolCalls: "text"}},
		Hooks:     map[string][]Hook{"PreToolUse": {{Matcher: "Bash", Hooks: []HookCommand{{Type: "command", Command: "true"}}}}},
		MaxTurns:  7,
		Extra:     map[string]json.RawMessage{"theme": json.RawMessage(`"dark"`)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load merged settings (-want +got):\n%s", diff)
	}
	// Each layer's permissions stay apart for the permission engine.
	if diff := cmp.Diff([]string{"Bash(go test:*)", "Edit(src/**)"}, src.Project.Settings.Permissions.Allow); diff != "" {
		t.Errorf("Sources.Project allow (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Bash(curl:*)"}, src.Managed.Settings.Permissions.Deny); diff != "" {
		t.Errorf("Sources.Managed deny (-want +got):\n%s", diff)
	}
	if !src.User.Exists || src.User.Path != filepath.Join(home, ".config/grit/settings.json") {
		t.Errorf("Sources.User = %+v, want the user file", src.User)
	}
	// Dropping the project layers (an untrusted repository) is a re-merge.
	untrusted := Merge(src.Defaults.Settings, src.User.Settings, src.Managed.Settings, src.Env.Settings)
	if untrusted.Model != "anthropic:claude-sonnet-4-5" || len(untrusted.Hooks) != 0 {
		t.Errorf("merge without project layers = model %q hooks %v, want the user's model and no hooks", untrusted.Model, untrusted.Hooks)
	}
}

func TestLoadDefaultsAndEnv(t *testing.T) {
	dir := t.TempDir()
	got, _, err := Load(dir, LoadOptions{Home: dir, ManagedPath: filepath.Join(dir, "none.json"), Getenv: envOf(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != DefaultModel || got.Permissions.DefaultMode != "default" {
		t.Errorf("Load with no files = model %q mode %q, want %q and default", got.Model, got.Permissions.DefaultMode, DefaultModel)
	}

	xdg := filepath.Join(dir, "xdg")
	write(t, filepath.Join(xdg, "grit/settings.json"), `{"model": "openai:gpt-4.1"}`)
	got, _, err = Load(dir, LoadOptions{Home: dir, ManagedPath: filepath.Join(dir, "none.json"), Getenv: envOf(map[string]string{"XDG_CONFIG_HOME": xdg})})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "openai:gpt-4.1" {
		t.Errorf("Load with XDG_CONFIG_HOME: model %q, want openai:gpt-4.1", got.Model)
	}
	got, _, err = Load(dir, LoadOptions{Home: dir, ManagedPath: filepath.Join(dir, "none.json"), Getenv: envOf(map[string]string{
		"XDG_CONFIG_HOME": xdg, "GRIT_MODEL": "ollama:x", "GRIT_PERMISSION_MODE": "plan", "GRIT_MAX_TURNS": "3"})})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "ollama:x" || got.Permissions.DefaultMode != "plan" || got.MaxTurns != 3 {
		t.Errorf("Load with env = %+v, want env values on top", got)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, file string
		env        map[string]string
		want       []string
	}{
		{"syntax", "{\n  \"model\": \"x\",\n  \"permissions\": {,}\n}", nil, []string{"settings.json", "line 3, column 19"}},
		{"type", "{\"maxTurns\": \"ten\"}", nil, []string{"settings.json", "line 1"}},
		{"mode", `{"permissions": {"defaultMode": "yolo"}}`, nil, []string{`unknown permission mode "yolo"`, "bypassPermissions"}},
		{"env turns", `{}`, map[string]string{"GRIT_MAX_TURNS": "many"}, []string{"GRIT_MAX_TURNS"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, ".grit/settings.json"), tt.file)
			_, _, err := Load(root, LoadOptions{Home: root, ManagedPath: filepath.Join(root, "none"), Getenv: envOf(tt.env)})
			if err == nil {
				t.Fatalf("Load(%q) = nil error", tt.file)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Load(%q) error = %q, want it to contain %q", tt.file, err, w)
				}
			}
		})
	}
}

func TestSettingsRoundTripKeepsUnknownKeys(t *testing.T) {
	in := `{"model":"m","statusLine":{"type":"command"}}`
	s, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"statusLine":{"type":"command"}`) {
		t.Errorf("Marshal(Parse(%s)) = %s, want statusLine kept", in, out)
	}
}
