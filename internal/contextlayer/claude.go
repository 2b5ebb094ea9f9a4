package contextlayer

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextfiles"
	"github.com/grit-dev/grit/internal/permission"
)

// ClaudeFile is one Claude Code file of the user or the project and what
// a session does with it (grit doctor lists them).
type ClaudeFile struct {
	Path string `json:"path"`
	Kind string `json:"kind"` // "settings", "CLAUDE.md", "skill", "commands", "agents", "mcp"
	Used bool   `json:"used"`
	// Notes say what of it is ignored, and why.
	Notes []string `json:"notes,omitempty"`
}

// ClaudeSetup finds the Claude Code files a session in the workspace w
// would see and says which are used and what is ignored, and why.
func ClaudeSetup(w permission.Workspace, o config.LoadOptions) []ClaudeFile {
	root, trusted := w.Root, w.Trust.Honoured()
	untrusted := "not used: the repository is not trusted (review it, then run grit trust)"
	var out []ClaudeFile
	for _, f := range w.Sources.Files {
		if !f.Claude || !f.Exists {
			continue
		}
		cf := ClaudeFile{Path: f.Path, Kind: "settings", Used: true, Notes: f.Notes}
		if (f.Scope == "project" || f.Scope == "local") && !trusted {
			cf.Used, cf.Notes = false, append([]string{untrusted}, f.Notes...)
		}
		layer, _ := config.ReadFile(f.Path)
		cf.Notes = append(cf.Notes, hookNotes(layer.Settings.Hooks)...)
		out = append(out, cf)
	}
	fo := contextfiles.Options{Root: root, Cwd: permission.LaunchDir(root), Home: o.Home, Getenv: o.Getenv}
	if files, err := contextfiles.Load(fo); err == nil {
		for _, f := range files.Files() {
			if filepath.Base(f.Path) == "CLAUDE.md" {
				out = append(out, ClaudeFile{Path: f.Path, Kind: "CLAUDE.md", Used: true})
			}
		}
	}
	if sk, err := contextfiles.FindSkills(fo); err == nil {
		for _, s := range sk.List {
			if filepath.Base(filepath.Dir(s.Dir)) != "skills" || filepath.Base(filepath.Dir(filepath.Dir(s.Dir))) != ".claude" {
				continue
			}
			cf := ClaudeFile{Path: filepath.Join(s.Dir, "SKILL.md"), Kind: "skill", Used: true}
			if s.Source != "user" && !trusted {
				cf.Used, cf.Notes = false, []string{untrusted}
			}
			out = append(out, cf)
		}
	}
	for _, x := range []struct{ rel, kind, why string }{
		{".claude/commands", "commands", "custom slash commands are not supported by this version of Grit"},
		{".claude/agents", "agents", "subagents are not supported by this version of Grit"},
		{".mcp.json", "mcp", "this version of Grit does not start MCP servers from .mcp.json"},
	} {
		if _, err := os.Stat(filepath.Join(root, x.rel)); err == nil {
			out = append(out, ClaudeFile{Path: filepath.Join(root, x.rel), Kind: x.kind, Notes: []string{"not used: " + x.why}})
		}
	}
	return out
}

// hookNotes names the hook events and types of a settings file that do
// not run, and why.
func hookNotes(hooks map[string][]config.Hook) []string {
	var out []string
	for event, list := range hooks {
		if !agent.KnownHookEvent(event) {
			out = append(out, fmt.Sprintf("hook event %s ignored: not one Grit knows", event))
			continue
		}
		for _, m := range list {
			for _, h := range m.Hooks {
				if h.Type != "" && h.Type != "command" {
					out = append(out, fmt.Sprintf("%s hook of type %q ignored: Grit runs command hooks", event, h.Type))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
