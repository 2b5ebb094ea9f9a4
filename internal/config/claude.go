package config

import (
	"fmt"
	"sort"
	"strings"
)

// ClaudeKeys are the keys of a Claude Code settings file that Grit honours;
// README's settings section lists the same. Every other key is kept (Extra)
// but does nothing, and grit doctor says so.
var ClaudeKeys = []string{"permissions", "hooks", "env", "model"}

// ignoredWhy says why a known Claude Code key is not honoured.
var ignoredWhy = map[string]string{
	"apiKeyHelper":               "Grit reads API keys from the environment",
	"statusLine":                 "Grit's line-mode chat has no status line",
	"outputStyle":                "Grit has one output style",
	"cleanupPeriodDays":          "Grit keeps transcripts until you delete them",
	"includeCoAuthoredBy":        "Grit does not write commit messages",
	"enableAllProjectMcpServers": "Grit does not start MCP servers from settings",
	"enabledMcpjsonServers":      "Grit does not start MCP servers from settings",
	"disabledMcpjsonServers":     "Grit does not start MCP servers from settings",
	"forceLoginMethod":           "Grit has no login",
	"awsAuthRefresh":             "Grit has no Bedrock provider",
	"awsCredentialExport":        "Grit has no Bedrock provider",
	"spinnerTipsEnabled":         "Grit's chat shows no tips",
	"alwaysThinkingEnabled":      "Grit does not request extended thinking",
}

// FromClaude adapts a Claude Code settings file to Grit's: a bare Claude
// model name becomes "anthropic:NAME"; an alias (sonnet, opus) names no
// model and is dropped; Grit-only keys a Claude Code file cannot mean are
// cleared. notes say what was ignored and why.
func FromClaude(s Settings) (Settings, []string) {
	var notes []string
	if m := s.Model; m != "" && !strings.Contains(m, ":") {
		if strings.HasPrefix(m, "claude-") {
			s.Model = "anthropic:" + m
		} else {
			notes = append(notes, fmt.Sprintf("model %q: an alias names no exact model; set \"model\": \"anthropic:claude-...\" in .grit/settings.json", m))
			s.Model = ""
		}
	}
	s.Providers, s.MaxTurns = nil, 0 // not Claude Code keys
	if s.Sandbox.Enabled != nil || s.Sandbox.Network || len(s.Sandbox.WritablePaths)+len(s.Sandbox.EnvPassthrough) > 0 {
		notes = append(notes, "sandbox ignored: Grit's sandbox (on by default) is configured in Grit's own settings files")
		s.Sandbox = Sandbox{}
	}
	return s, append(notes, ignoredKeys(s)...)
}

// ignoredKeys lists the unknown keys of s with why they do nothing.
func ignoredKeys(s Settings) []string {
	var keys []string
	for k := range s.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		why := ignoredWhy[k]
		if why == "" {
			why = "not a key Grit knows"
		}
		out = append(out, fmt.Sprintf("%s ignored: %s", k, why))
	}
	return out
}
