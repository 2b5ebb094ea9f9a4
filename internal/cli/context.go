package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
)

type contextFlags struct {
	json     bool
	model    string
	resume   string
	cont     bool
	appendSP string
}

func newContextCmd(e *env) *cobra.Command {
	var f contextFlags
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Show what fills the model's context window: prompt, tools, context files, memory, skills",
		Long: `Context breaks down the context window of a grit session in this repository,
row by row as Claude Code's /context does: the system prompt, the tool schemas
sent with every request, the deferred tools (named only, loaded by ToolSearch),
the context files (AGENTS.md, CLAUDE.md: the user's, the root's, each directory's
down to the current one), memory (MEMORY.md), the skills' names and descriptions,
the messages, the autocompact buffer kept free and the free space. The rows add
up to the model's window (set providers.<name>.contextWindow in settings when
grit cannot know it).

Without a session, the counts are a calibrated estimate (bytes / 3.6). With -c or
-r, the saved session's messages are included and, when the provider reported
the input tokens of its last call, that count is used.`,
		Example: `  grit context
  grit context --json | jq '.rows'
  grit context -c                       # include the latest session's messages
  grit context --model anthropic:claude-sonnet-4-5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := app.ContextFor(e.ctx, app.AgentOptions{Model: f.model, Resume: f.resume, Continue: f.cont, AppendSystemPrompt: f.appendSP})
			if err != nil {
				return err
			}
			if f.json {
				return writeJSON(e.Out, rep)
			}
			rep.Write(e.Out)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the breakdown as JSON")
	fl.StringVar(&f.model, "model", "", "PROVIDER:MODEL whose window to use (default: settings \"model\")")
	fl.StringVarP(&f.resume, "resume", "r", "", "include the messages of session ID")
	fl.BoolVarP(&f.cont, "continue", "c", false, "include the messages of the latest session")
	fl.StringVar(&f.appendSP, "append-system-prompt", "", "count this text appended to the system prompt")
	return cmd
}

// Slash commands of the context layer (registered in slashCommands).

func slashContext(ctx context.Context, c *chat, arg string) error {
	if c.layer == nil {
		return fmt.Errorf("/context: the context layer is not loaded")
	}
	_, last := c.s.Agent.Usage()
	c.layer.Model = c.s.Model
	c.layer.Report(c.s.Agent.Messages(), last).Write(c.e.Out)
	return nil
}

func slashCompact(ctx context.Context, c *chat, arg string) error {
	if c.layer == nil || c.layer.Compactor == nil {
		return fmt.Errorf("/compact: the context layer is not loaded")
	}
	if len(c.s.Agent.Messages()) == 0 {
		fmt.Fprintln(c.e.Out, "Nothing to compact.")
		return nil
	}
	c.layer.Compactor.SetFocus(arg)
	fmt.Fprintln(c.e.Err, "Compacting the conversation...")
	return c.s.Agent.Compact(ctx, "manual")
}

func slashSkills(ctx context.Context, c *chat, arg string) error {
	if c.layer == nil {
		return fmt.Errorf("/skills: the context layer is not loaded")
	}
	list := c.layer.SkillList()
	if len(list) == 0 {
		fmt.Fprintln(c.e.Out, "No skills. A skill is a folder with a SKILL.md (front matter name and description) in .grit/skills/, .claude/skills/ or ~/.config/grit/skills/.")
		return nil
	}
	for _, s := range list {
		fmt.Fprintf(c.e.Out, "  %-24s %s  (%s)\n", s.Name, oneLine(s.Description, 100), s.Source)
	}
	return nil
}

func slashUsage(ctx context.Context, c *chat, arg string) error {
	if c.layer == nil {
		return fmt.Errorf("/usage: the context layer is not loaded")
	}
	total, _ := c.s.Agent.Usage()
	c.layer.Model = c.s.Model
	c.layer.Usage(total).Write(c.e.Out)
	return nil
}

func slashMemory(ctx context.Context, c *chat, arg string) error {
	if c.layer == nil {
		return fmt.Errorf("/memory: the context layer is not loaded")
	}
	for _, m := range c.layer.Memories {
		text, err := m.Read()
		if err != nil {
			return err
		}
		fmt.Fprintf(c.e.Out, "%s memory: %s\n", m.Scope, m.Path)
		if strings.TrimSpace(text) == "" {
			fmt.Fprintln(c.e.Out, "  (empty)")
			continue
		}
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			fmt.Fprintf(c.e.Out, "  %s\n", line)
		}
	}
	fmt.Fprintln(c.e.Out, "Start a line with # to add a note to the project's memory.")
	return nil
}

// memoryNote adds a "#" line to the project's memory.
func memoryNote(c *chat, line string) error {
	if c.layer == nil {
		return fmt.Errorf("memory: the context layer is not loaded")
	}
	note := strings.TrimSpace(strings.TrimLeft(line, "#"))
	path, err := c.layer.AddMemory(note)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.e.Out, "Noted in %s (loaded in every session).\n", path)
	return nil
}
