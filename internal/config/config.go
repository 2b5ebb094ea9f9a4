// Package config loads settings, Claude Code shaped, from defaults, the
// managed file, ~/.config/grit/settings.json (the user's), .grit/settings.json
// (the project's) and .grit/settings.local.json, then the environment and
// flags. Later layers override earlier ones for scalars; permission rule lists
// are merged, and precedence between them is the permission package's business.
package config

import "encoding/json"

// Settings is the merged view of settings.json files.
type Settings struct {
	// Model is "PROVIDER:MODEL", e.g. "ollama:qwen2.5-coder:7b".
	Model       string            `json:"model,omitempty"`
	Permissions Permissions       `json:"permissions,omitempty"`
	Hooks       map[string][]Hook `json:"hooks,omitempty"` // event → matchers
	Env         map[string]string `json:"env,omitempty"`
	Sandbox     Sandbox           `json:"sandbox,omitempty"`
	// Providers holds per-provider options: base URLs, context windows,
	// whether a model needs the text tool-call fallback.
	Providers map[string]Provider `json:"providers,omitempty"`
	// MaxTurns bounds one agent turn's model calls; 0 means the default.
	MaxTurns int `json:"maxTurns,omitempty"`
	// Extra keeps unknown keys so nothing a user wrote is lost on rewrite.
	Extra map[string]json.RawMessage `json:"-"`
}

// Permissions is Claude Code's permissions block.
type Permissions struct {
	Allow                 []string `json:"allow,omitempty"`
	Ask                   []string `json:"ask,omitempty"`
	Deny                  []string `json:"deny,omitempty"`
	DefaultMode           string   `json:"defaultMode,omitempty"` // default|acceptEdits|plan|bypassPermissions
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
}

// Hook is one matcher with its commands, as in Claude Code's settings.
type Hook struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// HookCommand runs a command; Timeout is in seconds.
type HookCommand struct {
	Type    string `json:"type"` // "command"
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// Sandbox configures the OS sandbox for Bash.
type Sandbox struct {
	Enabled        *bool    `json:"enabled,omitempty"` // nil: on
	Network        bool     `json:"allowNetwork,omitempty"`
	WritablePaths  []string `json:"writablePaths,omitempty"`
	EnvPassthrough []string `json:"envPassthrough,omitempty"`
}

// Provider holds one provider's options.
type Provider struct {
	BaseURL       string `json:"baseURL,omitempty"`
	ContextWindow int    `json:"contextWindow,omitempty"`
	// ToolCalls is "native" (default) or "text": the fenced-action fallback
	// for small local models without reliable native tool calls.
	ToolCalls string `json:"toolCalls,omitempty"`
}
