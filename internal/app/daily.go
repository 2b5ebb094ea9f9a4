package app

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextlayer"
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
	s.MCP, warnings = mcpclient.Start(ctx, s.Root, src, s.Trusted, logDir, reg, removed)
	if !removed["WebFetch"] {
		reg.Add(tool.WebFetch{Summarize: s.Agent.Summarize})
	}
	if !removed["Task"] {
		types, more := contextlayer.SubagentTypes(s.Root, o.ConfigOpts, s.Trusted)
		warnings = append(warnings, more...)
		reg.Add(&agent.Task{Parent: s.Agent, Types: types, NewProvider: s.newProvider})
	}
	for _, w := range warnings {
		o.warnf("%s", w)
	}
	if todos := agent.LastTodos(history); todos != nil {
		s.env.SetTodos(todos)
	}
}

// Todos is the session's task list (TodoWrite).
func (s *AgentSession) Todos() []tool.Todo { return s.env.Todos() }

// Shells lists the session's background shells (/bashes).
func (s *AgentSession) Shells() []tool.ShellInfo { return s.env.Shells().List() }

// Env is the session's tool environment.
func (s *AgentSession) Env() *tool.Env { return s.env }

// MCPStatus is /mcp: each configured server's state and tool count.
func (s *AgentSession) MCPStatus() []mcpclient.Status {
	if s.MCP == nil {
		return nil
	}
	return s.MCP.Status()
}
