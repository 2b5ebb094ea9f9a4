package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextfiles"
	"github.com/grit-dev/grit/internal/mcpclient"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/tool"
)

// The everyday tools Claude Code, Codex and Crush users expect: subagents
// (Task), TodoWrite, background shells (BashOutput, KillShell), WebFetch,
// MCP servers, custom commands. Wired here so OpenAgent stays one flow.

// sideEffectFreeTools are allowed in every permission mode, plan included:
// they change nothing outside the session (Task's own calls are gated one
// by one; KillShell stops only a shell this session started).
var sideEffectFreeTools = []string{"ToolSearch", "TodoWrite", "BashOutput", "KillShell", "Task", "ListMcpResourcesTool", "ReadMcpResourceTool"}

// repoDefinitionsHonoured decides whether what the repository brings
// (.mcp.json, .claude/ and .grit/ commands and agents) is used: only once
// the user trusted it. One function, so the trust rule can change in one place.
func repoDefinitionsHonoured(trusted bool) bool { return trusted }

// subagentTypes are the built-in subagents and the custom ones of the
// user and, when honoured, of the repository.
func subagentTypes(root string, co config.LoadOptions, trusted bool) ([]agent.SubagentType, []string) {
	types := agent.BuiltinSubagents()
	defs, warnings, err := contextfiles.FindAgents(contextfiles.Options{Root: root, Home: co.Home, Getenv: co.Getenv}, repoDefinitionsHonoured(trusted))
	if err != nil {
		return types, []string{fmt.Sprintf("agents not loaded: %v", err)}
	}
	for _, d := range defs {
		replaced := false
		ty := agent.SubagentType{Name: d.Name, Description: d.Description, Tools: d.Tools, Model: d.Model, Prompt: d.Prompt}
		for i := range types {
			if types[i].Name == d.Name {
				types[i], replaced = ty, true
			}
		}
		if !replaced {
			types = append(types, ty)
		}
	}
	return types, warnings
}

// installDaily adds the tools that need the built agent: Task (its parent)
// and WebFetch (the agent's model summarises long pages); it restores the
// todo list of a resumed session.
func (s *AgentSession) installDaily(ctx context.Context, o AgentOptions, src config.Sources, removed map[string]bool, history []provider.Message) {
	reg := s.Agent.Tools()
	logDir := ""
	if s.Session != nil {
		logDir = filepath.Join(strings.TrimSuffix(s.Session.Path, ".jsonl"), "mcp")
	}
	var warnings []string
	s.MCP, warnings = mcpServers(ctx, s.Root, src, s.Trusted, logDir, reg, removed)
	for _, w := range warnings {
		if o.Warnf != nil {
			o.Warnf("%s", w)
		}
	}
	if !removed["WebFetch"] {
		reg.Add(tool.WebFetch{Summarize: s.Agent.Summarize})
	}
	if !removed["Task"] {
		types, warnings := subagentTypes(s.Root, o.ConfigOpts, s.Trusted)
		for _, w := range warnings {
			if o.Warnf != nil {
				o.Warnf("%s", w)
			}
		}
		reg.Add(&agent.Task{Parent: s.Agent, Types: types, NewProvider: s.newProvider})
	}
	if todos := lastTodos(history); todos != nil {
		s.env.SetTodos(todos)
	}
}

// lastTodos is the list of the conversation's last TodoWrite call that
// succeeded, or nil.
func lastTodos(history []provider.Message) []tool.Todo {
	failed := map[string]bool{}
	for _, m := range history {
		for _, b := range m.Content {
			if b.Type == provider.BlockToolResult && b.IsError {
				failed[b.ToolUseID] = true
			}
		}
	}
	var last []tool.Todo
	for _, m := range history {
		for _, b := range m.Content {
			if b.Type != provider.BlockToolUse || b.Name != "TodoWrite" || failed[b.ID] {
				continue
			}
			if todos, err := tool.ParseTodos(b.Input); err == nil {
				last = todos
				if last == nil {
					last = []tool.Todo{}
				}
			}
		}
	}
	return last
}

// Todos is the session's task list (TodoWrite).
func (s *AgentSession) Todos() []tool.Todo { return s.env.Todos() }

// Shells lists the session's background shells (/bashes).
func (s *AgentSession) Shells() []tool.ShellInfo { return s.env.Shells().List() }

// Env is the session's tool environment.
func (s *AgentSession) Env() *tool.Env { return s.env }

// mcpServers connects the configured MCP servers (the user's, and the
// repository's .mcp.json when honoured) and registers their tools in reg
// (tools whose name or server is in removed are left out).
func mcpServers(ctx context.Context, root string, src config.Sources, trusted bool, logDir string, reg *tool.Registry, removed map[string]bool) (*mcpclient.Manager, []string) {
	servers, warnings := mcpclient.Load(root, src.User.Settings.Extra["mcpServers"], repoDefinitionsHonoured(trusted))
	var kept []mcpclient.Named
	for _, sv := range servers {
		if !removed["mcp__"+sv.Name] {
			kept = append(kept, sv)
		}
	}
	m := mcpclient.NewManager(kept, logDir, "grit")
	scratch := tool.NewRegistry()
	warnings = append(warnings, mcpclient.Register(ctx, m, scratch)...)
	for _, t := range scratch.All() {
		if !removed[t.Name()] {
			reg.Add(t)
		}
	}
	return m, warnings
}

// MCPStatus is /mcp: each configured server's state and tool count.
func (s *AgentSession) MCPStatus() []mcpclient.Status {
	if s.MCP == nil {
		return nil
	}
	return s.MCP.Status()
}
