package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/contextlayer"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/tool"
)

// TestTodosRestoredOnResume: the list of the last successful TodoWrite is
// the session's list again after grit -c; a failed call does not count.
func TestTodosRestoredOnResume(t *testing.T) {
	w := newSafetyWork(t)
	root := t.TempDir()
	p := safetyScript(t,
		`{"content": [{"type": "tool_use", "id": "d1", "name": "TodoWrite", "input": {"todos": [{"content": "Fix it", "status": "in_progress", "activeForm": "Fixing it"}]}}], "stop_reason": "tool_use"}`,
		`{"content": [{"type": "tool_use", "id": "d2", "name": "TodoWrite", "input": {"todos": [{"content": "x", "status": "bogus", "activeForm": "X"}]}}], "stop_reason": "tool_use"}`,
		endTurn)
	o := w.options(root, p)
	o.Runner = sandbox.NewPlain()
	s, err := OpenAgent(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Agent.Run(context.Background(), "plan"); err != nil {
		t.Fatal(err)
	}
	s.Close()

	o = w.options(root, safetyScript(t, endTurn))
	o.Runner, o.Continue = sandbox.NewPlain(), true
	s2, err := OpenAgent(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := tool.FormatTodos(s2.Todos()); got != "◐ Fixing it" {
		t.Errorf("resumed todos = %q, want the first call's list", got)
	}
}

// TestCustomAgentsTrust: the repository's .claude/agents count only once
// the repository is trusted; the user's always do.
func TestCustomAgentsTrust(t *testing.T) {
	w := newSafetyWork(t)
	root := t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep\n---\nYou review.\n")
	write(filepath.Join(w.home, ".claude", "agents", "tester.md"), "---\ndescription: Runs tests\nmodel: inherit\n---\nYou test.\n")
	names := func(types []agent.SubagentType) string {
		var n []string
		for _, ty := range types {
			n = append(n, ty.Name)
		}
		return strings.Join(n, " ")
	}
	co := w.options(root, nil).ConfigOpts
	untrusted, _ := contextlayer.SubagentTypes(root, co, false)
	if got := names(untrusted); got != "general-purpose Explore tester" {
		t.Errorf("untrusted: %s", got)
	}
	trusted, _ := contextlayer.SubagentTypes(root, co, true)
	if got := names(trusted); got != "general-purpose Explore reviewer tester" {
		t.Errorf("trusted: %s", got)
	}
	if tools := trusted[2].Tools; strings.Join(tools, ",") != "Read,Grep" || trusted[2].Prompt != "You review." {
		t.Errorf("reviewer = %+v", trusted[2])
	}
}

// TestMentionSymbol: @path:SYMBOL inlines that one definition from the
// index; an unknown symbol or path is left as text.
func TestMentionSymbol(t *testing.T) {
	root := t.TempDir()
	src := "package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Sub(a, b int) int { return a - b }\n"
	if err := os.WriteFile(filepath.Join(root, "calc.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	env, err := tool.NewEnv(root, sandbox.NewPlain())
	if err != nil {
		t.Fatal(err)
	}
	s := &AgentSession{Root: env.Root}
	defer s.Close()
	env.Index = s.index
	l, err := contextlayer.New(contextlayer.Options{Root: env.Root, ConfigOpts: newSafetyWork(t).options(root, nil).ConfigOpts})
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.ExpandPrompt(context.Background(), env, "why does @calc.go:Add overflow? see @nope.go:X and @calc.go:Nope")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "<mentioned-symbol path=\"calc.go\" symbol=\"Add\" lines=\"4-6\">\nfunc Add(a, b int) int {\n\treturn a + b\n}\n</mentioned-symbol>") {
		t.Errorf("expanded prompt:\n%s", p.Text)
	}
	if strings.Contains(p.Text, "Sub") || strings.Count(p.Text, "<mentioned") != 1 {
		t.Errorf("more than the one definition was inlined:\n%s", p.Text)
	}
}
