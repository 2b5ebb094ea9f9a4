package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/tool"
)

// describeTodos prints a TodoWrite call as the list it sets.
func describeTodos(w io.Writer, input json.RawMessage) {
	todos, err := tool.ParseTodos(input)
	if err != nil {
		fmt.Fprintf(w, "⏺ TodoWrite(%s)\n", oneLine(string(input), 100))
		return
	}
	fmt.Fprintln(w, "⏺ Todos")
	for _, line := range strings.Split(tool.FormatTodos(todos), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

func slashTodos(ctx context.Context, c *chat, arg string) error {
	fmt.Fprintln(c.e.Out, tool.FormatTodos(c.s.Todos()))
	return nil
}

func slashBashes(ctx context.Context, c *chat, arg string) error {
	if id, ok := strings.CutPrefix(arg, "kill "); ok {
		res, err := (tool.KillShell{}).Run(ctx, c.s.Env(), json.RawMessage(fmt.Sprintf(`{"shell_id":%q}`, strings.TrimSpace(id))))
		if err != nil {
			return err
		}
		if res.IsError {
			return fmt.Errorf("%s", res.Content)
		}
		fmt.Fprintf(c.e.Out, "Killed %s.\n", strings.TrimSpace(id))
		return nil
	}
	shells := c.s.Shells()
	if len(shells) == 0 {
		fmt.Fprintln(c.e.Out, "No background shells.")
		return nil
	}
	for _, sh := range shells {
		fmt.Fprintf(c.e.Out, "  %-8s %-10s %6s  %s\n", sh.ID, sh.Status, time.Since(sh.Started).Round(time.Second), oneLine(sh.Command, 80))
	}
	return nil
}

// builtin reports whether line names a built-in slash command.
func (c *chat) builtin(line string) bool {
	name, _, _ := strings.Cut(line, " ")
	for _, sc := range slashCommands() {
		if sc.name == name {
			return true
		}
	}
	return false
}

// helpCustom lists the custom commands and skills callable as /name.
func helpCustom(c *chat) {
	if c.layer == nil {
		return
	}
	for _, cmd := range c.layer.Commands.List {
		usage := "/" + cmd.Name
		if cmd.ArgumentHint != "" {
			usage += " " + cmd.ArgumentHint
		}
		fmt.Fprintf(c.e.Out, "  %-28s %s (%s)\n", usage, oneLine(cmd.Description, 80), cmd.Source)
	}
	for _, sk := range c.layer.SkillList() {
		fmt.Fprintf(c.e.Out, "  %-28s %s (skill)\n", "/"+sk.Name, oneLine(sk.Description, 80))
	}
}
