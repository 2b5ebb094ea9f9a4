package contextfiles

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/config"
)

// Command is a custom slash command: a Markdown file whose body is the
// prompt, with $ARGUMENTS (and $1, $2, ...) replaced by what follows the
// command's name. Front matter (all optional): description, allowed-tools,
// model, argument-hint.
type Command struct {
	Name         string   `json:"name"`
	Description  string   `json:"description,omitempty"`
	AllowedTools []string `json:"allowed_tools,omitempty"`
	Model        string   `json:"model,omitempty"`
	ArgumentHint string   `json:"argument_hint,omitempty"`
	Path         string   `json:"path"`
	Source       string   `json:"source"` // ".grit/commands", ".claude/commands", "user"
	Body         string   `json:"-"`
}

// Commands are a session's custom commands by precedence: the project's
// .grit/commands, its .claude/commands, then the user's (Grit's config
// folder, then ~/.claude/commands). The first command of a name wins.
type Commands struct {
	List     []Command
	Warnings []string
}

// CommandDirs are the folders commands come from, by precedence, with
// their source labels; project says whether the repository's own count.
func CommandDirs(opts Options, project bool) ([][2]string, error) {
	return definitionDirs(opts, project, "commands")
}

// definitionDirs are the project's .grit/<kind> and .claude/<kind> (when
// project), then the user's <UserDir>/<kind> and ~/.claude/<kind>.
func definitionDirs(opts Options, project bool, kind string) ([][2]string, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	var out [][2]string
	if project {
		out = append(out, [2]string{filepath.Join(o.Root, ".grit", kind), ".grit/" + kind},
			[2]string{filepath.Join(o.Root, ".claude", kind), ".claude/" + kind})
	}
	if o.UserDir != "" {
		out = append(out, [2]string{filepath.Join(o.UserDir, kind), "user"})
	}
	if o.Home != "" {
		out = append(out, [2]string{filepath.Join(o.Home, ".claude", kind), "user"})
	}
	return out, nil
}

// FindCommands loads the custom commands; project says whether the
// repository's own folders count (they are left out until it is trusted).
func FindCommands(opts Options, project bool) (*Commands, error) {
	dirs, err := CommandDirs(opts, project)
	if err != nil {
		return nil, err
	}
	files, warnings := loadMarkdownDirs(dirs)
	c := &Commands{Warnings: warnings}
	for _, f := range files {
		c.List = append(c.List, Command{Name: f.Name, Description: f.Meta["description"], AllowedTools: config.SplitToolList([]string{f.Meta["allowed-tools"]}),
			Model: f.Meta["model"], ArgumentHint: f.Meta["argument-hint"], Path: f.Path, Source: f.Source, Body: f.Body})
	}
	sort.SliceStable(c.List, func(i, j int) bool { return c.List[i].Name < c.List[j].Name })
	return c, nil
}

// Get returns the command called name.
func (c *Commands) Get(name string) (Command, bool) {
	for _, cmd := range c.List {
		if cmd.Name == name {
			return cmd, true
		}
	}
	return Command{}, false
}

// Expand is the command's prompt for args: $ARGUMENTS is replaced by args
// whole, $1..$9 by its words. A body without $ARGUMENTS gets args appended
// (so "/review main.go" still says which file).
func (cmd Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	words := strings.Fields(args)
	body := cmd.Body
	had := strings.Contains(body, "$ARGUMENTS")
	body = strings.ReplaceAll(body, "$ARGUMENTS", args)
	for i := 9; i >= 1; i-- {
		v := ""
		if i <= len(words) {
			v = words[i-1]
		}
		key := fmt.Sprintf("$%d", i)
		if strings.Contains(body, key) {
			had = true
			body = strings.ReplaceAll(body, key, v)
		}
	}
	if !had && args != "" {
		body += "\n\nARGUMENTS: " + args
	}
	return body
}
