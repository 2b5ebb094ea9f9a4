package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tui"
)

// useTUI says whether the interactive session gets the full-screen
// interface: on a terminal that can draw it, unless --no-tui.
func useTUI(f agentFlags) bool {
	return !f.noTUI && os.Getenv("TERM") != "dumb"
}

// runTUI is the interactive session in the full-screen interface.
func runTUI(e *env, f agentFlags, first string) error {
	base := context.WithoutCancel(e.ctx)
	if f.pickSession {
		id, err := pickSession(base, e)
		if err != nil {
			if errors.Is(err, tui.ErrNoChoice) {
				return nil
			}
			return err
		}
		f.resume = id
	}
	var prog *tui.Program
	c := &chat{e: e}
	opts := f.options(e)
	var warnings []string
	opts.Warnf = func(format string, a ...any) {
		if prog != nil { // once the interface runs, a warning is a notice in it
			prog.Event(agent.Event{Kind: agent.KindNotice, Text: fmt.Sprintf(format, a...)})
			return
		}
		warnings = append(warnings, fmt.Sprintf(format, a...))
	}
	opts.OnEvent = func(ev agent.Event) { prog.Event(ev) }
	opts.Asker = tuiAsker{c: c, prog: &prog}
	s, err := app.OpenAgent(base, opts)
	if err != nil {
		return err
	}
	c.s, c.opts = s, opts
	defer func() { c.s.Close() }()
	if c.layer, err = app.AttachContext(base, s, opts); err != nil {
		return err
	}
	b := &tuiBackend{c: c}
	hist := newPromptHistory(s.Root)
	banner := fmt.Sprintf("grit · %s · %s mode · session %s\n/help lists the commands · ctrl+o transcript · esc interrupts · ctrl+c twice quits",
		s.Model, s.Engine.Mode(), s.Session.ID)
	for _, w := range warnings {
		banner += "\n" + w
	}
	prog = tui.New(base, tui.Options{
		Backend: b, History: hist.load(), AddHistory: hist.add, First: first, Banner: banner,
	}, e.In, e.Out)
	return prog.Run()
}

func pickSession(ctx context.Context, e *env) (string, error) {
	wd, err := permission.WorkspaceRoot("")
	if err != nil {
		return "", err
	}
	st, err := session.NewStore("", wd)
	if err != nil {
		return "", err
	}
	infos, err := st.List()
	if err != nil {
		return "", err
	}
	rows := make([]tui.SessionRow, 0, len(infos))
	for _, in := range infos {
		rows = append(rows, tui.SessionRow{ID: in.ID, Updated: in.Updated, Prompts: in.Turns, First: in.FirstPrompt})
	}
	return tui.PickSession(ctx, rows, e.In, e.Out)
}

// tuiAsker asks through the interface's permission dialog.
type tuiAsker struct {
	c    *chat
	prog **tui.Program
}

func (a tuiAsker) Ask(ctx context.Context, call agent.Call, reason string) (bool, error) {
	name, input := call.Tool, call.Input
	grants := a.c.s.Engine.GrantsFor(name, input, call.Paths...)
	ans, err := (*a.prog).Ask(ctx, name, input, reason, grants)
	if err != nil {
		return false, err
	}
	switch ans {
	case tui.AllowOnce:
		return true, nil
	case tui.AllowAlways:
		if name == "ExitPlanMode" { // "yes, and accept edits"
			return true, a.c.s.Engine.SetMode("acceptEdits")
		}
		for _, g := range grants {
			if err := a.c.s.Engine.GrantSession(g); err != nil {
				return false, err
			}
		}
		return len(grants) > 0, nil
	}
	return false, nil
}

// tuiBackend runs the interface's turns and commands on the agent session.
type tuiBackend struct {
	c *chat

	mu       sync.Mutex
	files    []string
	filesAt  time.Time
	branch   string
	branchAt time.Time
}

func (b *tuiBackend) Run(ctx context.Context, prompt string) (agent.Result, error) {
	res, err := b.c.s.RunPrompt(ctx, b.c.layer, prompt) // commands, skills, @ mentions
	if err != nil && !errors.Is(err, context.Canceled) {
		if hint := provider.Unreachable(b.c.s.Model, err); hint != "" {
			err = errors.New(hint)
		}
	}
	return res, err
}

// Command runs a slash command (or a # memory note) with its output
// captured for the transcript.
func (b *tuiBackend) Command(ctx context.Context, line string) (string, bool, error) {
	var buf bytes.Buffer
	saved := b.c.e
	b.c.e = &env{ctx: saved.ctx, Stdio: Stdio{In: saved.In, Out: &buf, Err: &buf}}
	defer func() { b.c.e = saved }()
	var err error
	if strings.HasPrefix(line, "#") {
		err = memoryNote(b.c, line)
	} else {
		err = b.c.dispatch(ctx, line)
	}
	return buf.String(), b.c.quit, err
}

func (b *tuiBackend) Commands() []tui.Command {
	var out []tui.Command
	for _, sc := range slashCommands() {
		out = append(out, tui.Command{Name: sc.name, Usage: sc.usage, Help: sc.help})
	}
	if l := b.c.layer; l != nil {
		for _, cmd := range l.Commands.List {
			if !b.c.builtin("/" + cmd.Name) {
				out = append(out, tui.Command{Name: "/" + cmd.Name, Usage: strings.TrimSpace("/" + cmd.Name + " " + cmd.ArgumentHint), Help: cmd.Description, Turn: true})
			}
		}
		for _, sk := range l.SkillList() {
			if !b.c.builtin("/" + sk.Name) {
				out = append(out, tui.Command{Name: "/" + sk.Name, Usage: "/" + sk.Name, Help: sk.Description, Turn: true})
			}
		}
	}
	return out
}

// filesTTL is how long the @ completion's file list is reused: listing a
// large repository takes tens of milliseconds, too slow per keystroke.
const filesTTL = 10 * time.Second

func (b *tuiBackend) Files() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.files != nil && time.Since(b.filesAt) < filesTTL {
		return b.files
	}
	b.files, b.filesAt = listFiles(b.c.s.Root), time.Now()
	return b.files
}

// listFiles lists the workspace's files as git sees them (ignored files
// left out), else by walking it.
func listFiles(root string) []string {
	cmd := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || len(files) >= 20000 {
			return filepath.SkipDir
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".grit" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			if rel, err := filepath.Rel(root, p); err == nil {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return files
}

func (b *tuiBackend) Status() tui.Status {
	s := b.c.s
	total, last := s.Agent.Usage()
	st := tui.Status{Model: s.Model, Mode: s.Engine.Mode(), ContextPct: -1, Dir: homeRel(s.Root), Branch: b.gitBranch()}
	st.Tokens = total.InputTokens + total.OutputTokens + total.CacheReadTokens + total.CacheWriteTokens
	if b.c.layer != nil && b.c.layer.Window > 0 {
		used := last.InputTokens + last.CacheReadTokens + last.CacheWriteTokens + last.OutputTokens
		st.ContextPct = min(100, used*100/b.c.layer.Window)
	}
	st.CostUSD, st.CostKnown = provider.CostUSD(s.Model, total)
	return st
}

// branchTTL bounds how often the status line asks git for the branch.
const branchTTL = 5 * time.Second

func (b *tuiBackend) gitBranch() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if time.Since(b.branchAt) < branchTTL {
		return b.branch
	}
	cmd := exec.Command("git", "rev-parse", "--abbrev-ref", "HEAD")
	cmd.Dir = b.c.s.Root
	out, err := cmd.Output()
	b.branch, b.branchAt = "", time.Now()
	if err == nil {
		b.branch = strings.TrimSpace(string(out))
	}
	return b.branch
}

// modeCycle is Shift+Tab's order, Claude Code's: bypassPermissions is not in
// it (it is chosen on the command line), and leaving it goes to default.
var modeCycle = []string{"default", "acceptEdits", "plan"}

func (b *tuiBackend) CycleMode() (string, error) {
	cur, next := b.c.s.Engine.Mode(), modeCycle[0]
	for i, m := range modeCycle {
		if m == cur {
			next = modeCycle[(i+1)%len(modeCycle)]
		}
	}
	return next, b.c.s.Engine.SetMode(next)
}

func (b *tuiBackend) Sessions() []tui.SessionRow {
	st, err := session.NewStore("", b.c.s.Root)
	if err != nil {
		return nil
	}
	infos, _ := st.List()
	var rows []tui.SessionRow
	for _, in := range infos {
		rows = append(rows, tui.SessionRow{ID: in.ID, Updated: in.Updated, Prompts: in.Turns, First: in.FirstPrompt})
	}
	return rows
}

func (b *tuiBackend) Transcript() []provider.Message { return b.c.s.Agent.Messages() }

func homeRel(p string) string {
	if home, err := os.UserHomeDir(); err == nil {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return p
}
