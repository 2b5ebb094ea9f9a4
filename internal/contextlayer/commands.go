package contextlayer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/mcpclient"
	"github.com/grit-dev/grit/internal/tool"
)

// Prompt is a user's line made ready for the model: a custom command or a
// skill expanded, @ mentions inlined, and what the command asks for its
// turn (allowed-tools, model).
type Prompt struct {
	Text         string
	Command      string   // "review" when /review expanded it
	AllowedTools []string // permission rules for this turn only
	Model        string   // PROVIDER:MODEL for this turn only
	// Images are image files whose paths were pasted or dragged into the line.
	Images []tool.Image
}

// mention is "@path" or "@path:SYMBOL" at the start of the prompt or after
// a space.
var mention = regexp.MustCompile(`(^|\s)@([^\s@]+)`)

// mentionMaxFiles bounds the files one prompt inlines; more is surely a
// paste of addresses, not a request.
const mentionMaxFiles = 20

// IsCommand reports whether line calls a custom command or a skill.
func (l *Layer) IsCommand(line string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	if !strings.HasPrefix(line, "/") || name == "" {
		return false
	}
	if _, ok := l.Commands.Get(name); ok {
		return true
	}
	if server, _, ok := mcpclient.PromptCommand(name); ok && l.MCP != nil {
		for _, n := range l.MCP.Names() {
			if n == server {
				return true
			}
		}
	}
	_, ok := l.Skills.Get(name)
	return ok
}

// ExpandPrompt turns a user's line into the prompt the model gets: "/name
// args" runs a custom command (its body with $ARGUMENTS) or a skill (its
// SKILL.md, then args); any other line is taken as it is. Then every
// @path names a file to inline (numbered lines, as Read shows them; the
// file counts as read) or a directory to list, and @path:SYMBOL inlines
// one definition from the index. A mention of nothing is left as text.
func (l *Layer) ExpandPrompt(ctx context.Context, env *tool.Env, line string) (Prompt, error) {
	p := Prompt{Text: line}
	if l.IsCommand(line) {
		name, args, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
		server, prompt, isMCP := mcpclient.PromptCommand(name)
		if cmd, ok := l.Commands.Get(name); ok {
			p = Prompt{Text: cmd.Expand(args), Command: name, AllowedTools: cmd.AllowedTools, Model: cmd.Model}
		} else if isMCP && l.MCP != nil {
			text, err := mcpclient.RenderPrompt(ctx, l.MCP, server, prompt, args)
			if err != nil {
				return p, err
			}
			p = Prompt{Text: text, Command: name}
		} else {
			body, dir, _, err := l.Skills.LoadSkill(name)
			if err != nil {
				return p, err
			}
			p = Prompt{Text: fmt.Sprintf("<skill name=%q dir=%q>\n%s\n</skill>", name, dir, body), Command: name}
			if args = strings.TrimSpace(args); args != "" {
				p.Text += "\n\n" + args
			}
		}
	}
	if env == nil {
		return p, nil
	}
	var attached []string
	seen := map[string]bool{}
	for _, m := range mention.FindAllStringSubmatch(p.Text, -1) {
		ref := m[2]
		if seen[ref] || len(attached) >= mentionMaxFiles {
			continue
		}
		seen[ref] = true
		if block, ok := inlineMention(ctx, env, ref); ok {
			attached = append(attached, block)
		}
	}
	if len(attached) > 0 {
		p.Text += "\n\n" + strings.Join(attached, "\n\n")
	}
	p.Images = pastedImages(env, line)
	return p, nil
}

// pastedImages loads the image files a line names by path (a terminal
// pastes a dragged file as its path, perhaps quoted or with escaped
// spaces). The user typed the path, so it may lie outside the workspace.
func pastedImages(env *tool.Env, line string) []tool.Image {
	var out []tool.Image
	for _, f := range strings.Fields(strings.ReplaceAll(line, `\ `, "\x00")) {
		f = strings.Trim(strings.ReplaceAll(f, "\x00", " "), `'"`)
		f = strings.TrimRight(strings.TrimPrefix(f, "@"), ".,;:!?)")
		if tool.ImageType(f) == "" || len(out) >= mentionMaxFiles {
			continue
		}
		if !filepath.IsAbs(f) {
			f = env.Abs(f)
		}
		file, err := os.Open(f)
		if err != nil {
			continue
		}
		img, _, err := tool.LoadImage(file)
		file.Close()
		if err == nil {
			out = append(out, img)
		}
	}
	return out
}

// inlineMention renders one mention, trying it without trailing
// punctuation too ("see @main.go."). ok is false when it names nothing.
func inlineMention(ctx context.Context, env *tool.Env, ref string) (string, bool) {
	for _, r := range []string{ref, strings.TrimRight(ref, ".,;:!?)\"'")} {
		path, symbol := r, ""
		if i := strings.LastIndexByte(r, ':'); i > 0 {
			if _, err := os.Stat(env.Abs(r)); err != nil {
				path, symbol = r[:i], r[i+1:]
			}
		}
		rel, err := env.Resolve(path)
		if err != nil {
			continue
		}
		fi, err := os.Stat(env.Abs(rel))
		if err != nil {
			continue
		}
		switch {
		case symbol != "":
			if out, ok := inlineSymbol(ctx, env, rel, symbol); ok {
				return out, true
			}
		case fi.IsDir():
			entries, err := os.ReadDir(env.Abs(rel))
			if err != nil {
				continue
			}
			names := make([]string, 0, len(entries))
			for _, e := range entries {
				n := e.Name()
				if e.IsDir() {
					n += "/"
				}
				names = append(names, n)
			}
			sort.Strings(names)
			return fmt.Sprintf("<mentioned-directory path=%q>\n%s\n</mentioned-directory>", rel, strings.Join(names, "\n")), true
		default:
			in, _ := json.Marshal(map[string]string{"file_path": rel})
			res, err := (tool.Read{}).Run(ctx, env, in)
			if err != nil || res.IsError {
				continue
			}
			return fmt.Sprintf("<mentioned-file path=%q>\n%s\n</mentioned-file>", rel, res.Content), true
		}
	}
	return "", false
}

// inlineSymbol is the source of the definition called symbol (a name or a
// qualified name, Class.method) in the file rel, from the index.
func inlineSymbol(ctx context.Context, env *tool.Env, rel, symbol string) (string, bool) {
	if env.Index == nil {
		return "", false
	}
	ix, err := env.Index(ctx)
	if err != nil {
		return "", false
	}
	name := symbol
	if i := strings.LastIndexByte(symbol, '.'); i >= 0 {
		name = symbol[i+1:]
	}
	defs, err := ix.Lookup(ctx, name)
	if err != nil {
		return "", false
	}
	for _, d := range defs {
		if d.Path != rel || (d.Name != symbol && d.QName != symbol) {
			continue
		}
		src, err := ix.Source(ctx, d)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("<mentioned-symbol path=%q symbol=%q lines=\"%d-%d\">\n%s\n</mentioned-symbol>", rel, d.QName, d.StartLine, d.EndLine, src), true
	}
	return "", false
}
