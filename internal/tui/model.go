package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/provider"
)

// Command is a slash command the palette offers.
type Command struct {
	Name  string // "/model"
	Usage string // "/model [PROVIDER:MODEL]"
	Help  string
	// Turn says the command is a prompt for the model (a custom command, a
	// skill): it runs as a turn, through Backend.Run, not Backend.Command.
	Turn bool
}

// Status is what the status line shows.
type Status struct {
	Model      string
	Mode       string  // permission mode
	ContextPct int     // share of the context window used; -1 unknown
	Tokens     int     // the session's input + output tokens
	CostUSD    float64 // the session's cost, when the model's price is known
	CostKnown  bool
	Dir        string // the workspace, ~ for the home directory
	Branch     string // git branch; "" outside a repository
	Shells     int    // background shells running
}

// Backend runs what the interface asks for. It is wired in cli over the
// agent session; tests give a stand-in.
type Backend interface {
	// Run runs one turn; the agent's events arrive through Program.Event
	// while it runs. ctx is cancelled by Esc.
	Run(ctx context.Context, prompt string) (agent.Result, error)
	// Command runs a slash command line and returns what it printed; quit
	// asks the interface to end.
	Command(ctx context.Context, line string) (out string, quit bool, err error)
	Commands() []Command
	// Files lists the workspace's files for @ completion.
	Files() []string
	Status() Status
	// CycleMode moves to the next permission mode and returns it.
	CycleMode() (string, error)
	// Sessions lists the project's sessions for /resume's picker.
	Sessions() []SessionRow
	// Transcript is the conversation so far (after a resume).
	Transcript() []provider.Message
}

// Options configure the interface.
type Options struct {
	Backend Backend
	// History holds earlier prompts, oldest first; AddHistory keeps a new one.
	History    []string
	AddHistory func(prompt string)
	// First is a prompt to run at once (grit "prompt" on a terminal).
	First string
	// Banner is printed once above the interface.
	Banner string
}

// Messages the program receives from outside Update.
type (
	eventMsg    struct{ ev agent.Event }
	turnDoneMsg struct {
		res agent.Result
		err error
	}
	commandDoneMsg struct {
		line, out string
		quit      bool
		err       error
	}
	printedMsg struct{}
	tickMsg    time.Time
)

// tickEvery paces the spinner, elapsed times and the re-rendering of the
// reply being streamed: ten times a second reads as live without redrawing
// Markdown on every token.
const tickEvery = 100 * time.Millisecond

// quitWindow is how soon a second Ctrl-C must follow the first to quit.
const quitWindow = 2 * time.Second

// model is the whole interface's state.
type model struct {
	opts          Options
	b             Backend
	width, height int
	th            theme
	md            *mdRenderer
	mdWidth       int

	items  []*item // the whole transcript, for the Ctrl-O view
	outbox []string
	// printing says a print is in flight; the next waits for printedMsg so
	// the scrollback keeps the order things happened in.
	printing bool

	busy      bool
	cancel    context.CancelFunc
	turnStart time.Time
	queued    []string
	live      strings.Builder // the reply being streamed
	liveDirty bool
	liveView  string
	running   []*item // tool cards not finished yet
	preparing string  // a tool call the model is still writing
	todos     []todo
	frame     int

	input   textarea.Model
	hist    history
	search  *histSearch
	popup   popup
	dialog  *dialog
	status  Status
	hint    string
	ctrlCAt time.Time
	pager   *pager
	resume  *picker // /resume's session list
	quit    bool
}

type todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

func newModel(o Options) *model {
	m := &model{opts: o, b: o.Backend, width: 80, height: 24, th: newTheme(true)}
	m.input = newEditor()
	m.input.Focus()
	m.hist = history{entries: append([]string(nil), o.History...)}
	m.hist.reset()
	m.status = o.Backend.Status()
	m.resize(80, 24)
	return m
}

func (m *model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, tick()}
	if msgs := m.b.Transcript(); len(msgs) > 0 {
		cmds = append(cmds, m.replay(msgs))
	}
	if m.opts.Banner != "" {
		cmds = append(cmds, m.print(m.th.dim.Render(m.opts.Banner)))
	}
	if strings.TrimSpace(m.opts.First) != "" {
		cmds = append(cmds, m.submit(m.opts.First))
	}
	return tea.Batch(cmds...)
}

func tick() tea.Cmd {
	return tea.Tick(tickEvery, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (m *model) resize(w, h int) {
	m.width, m.height = max(w, 20), max(h, 5)
	m.input.SetWidth(m.width - 2)
	if m.md == nil || m.mdWidth != m.width {
		m.md, m.mdWidth = m.th.markdown(m.width), m.width
		m.liveDirty = true
	}
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, nil
	case tea.BackgroundColorMsg:
		if dark := msg.IsDark(); dark != m.th.dark {
			m.th = newTheme(dark)
			m.md, m.mdWidth = m.th.markdown(m.width), m.width
		}
		return m, nil
	case tickMsg:
		m.frame++
		if m.liveDirty {
			m.renderLive()
		}
		if m.frame%10 == 0 {
			m.status = m.b.Status()
		}
		if m.hint != "" && !m.ctrlCAt.IsZero() && time.Since(m.ctrlCAt) > quitWindow {
			m.hint, m.ctrlCAt = "", time.Time{}
		}
		return m, tick()
	case printedMsg:
		m.printing = false
		return m, m.flush()
	case eventMsg:
		return m, m.onEvent(msg.ev)
	case askMsg:
		m.dialog = newDialog(msg, time.Now())
		return m, nil
	case dismissMsg:
		m.dialog = nil
		return m, nil
	case turnDoneMsg:
		return m, m.turnDone(msg)
	case commandDoneMsg:
		return m, m.commandDone(msg)
	case tea.PasteMsg:
		if m.dialog != nil || m.pager != nil {
			return m, nil // a paste never answers a dialog
		}
		m.input.InsertString(strings.ReplaceAll(msg.Content, "\r\n", "\n"))
		m.popup.update(m)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// onKey routes a key to whatever has the focus: the pager, a dialog, the
// history search, a popup, else the editor.
func (m *model) onKey(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	switch {
	case m.pager != nil:
		return m.pager.key(m, key)
	case m.dialog != nil:
		return m.dialog.key(m, key)
	case m.resume != nil:
		return m.resumeKey(k)
	}
	switch key {
	case "ctrl+c":
		return m.ctrlC()
	case "ctrl+z":
		return tea.Suspend
	case "ctrl+o":
		m.openPager()
		return nil
	case "shift+tab":
		mode, err := m.b.CycleMode()
		if err != nil {
			m.hint = err.Error()
		} else {
			m.status.Mode = mode
		}
		return nil
	case "esc":
		switch {
		case m.search != nil:
			m.search = nil
		case m.popup.open():
			m.popup.close()
		case m.busy && m.cancel != nil:
			m.cancel()
			m.hint = "interrupting…"
		}
		return nil
	}
	if m.search != nil {
		return m.search.key(m, k)
	}
	return m.editorKey(k)
}

func (m *model) ctrlC() tea.Cmd {
	now := time.Now()
	if !m.ctrlCAt.IsZero() && now.Sub(m.ctrlCAt) < quitWindow {
		return m.exit()
	}
	m.ctrlCAt = now
	m.hint = "Press Ctrl-C again to exit"
	switch {
	case m.busy && m.cancel != nil:
		m.cancel()
	case m.input.Value() != "":
		m.input.Reset()
		m.popup.close()
	}
	return nil
}

func (m *model) exit() tea.Cmd {
	m.quit = true
	if m.cancel != nil {
		m.cancel()
	}
	return tea.Quit
}

// submit takes what the user entered: into the history, then run, or
// queued while a turn runs.
func (m *model) submit(text string) tea.Cmd {
	text = strings.TrimRight(text, "\n")
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if m.opts.AddHistory != nil {
		m.opts.AddHistory(text)
	}
	m.hist.add(text)
	if m.busy {
		m.queued = append(m.queued, text)
		return nil
	}
	return m.dispatch(text)
}

// dispatch runs a slash command or a memory note (# NOTE) through the
// backend's commands, anything else as a turn.
func (m *model) dispatch(text string) tea.Cmd {
	trimmed := strings.TrimSpace(text)
	if trimmed == "/resume" {
		rows := m.b.Sessions()
		if len(rows) == 0 {
			return m.emit(&item{kind: itemNotice, text: "No sessions for this project yet."})
		}
		m.resume = &picker{rows: rows, th: m.th, width: m.width, height: m.height}
		return nil
	}
	if name, _, _ := strings.Cut(trimmed, " "); strings.HasPrefix(trimmed, "/") {
		for _, c := range m.b.Commands() {
			if c.Turn && c.Name == name {
				return m.startTurn(trimmed)
			}
		}
	}
	if strings.HasPrefix(trimmed, "/") || (strings.HasPrefix(trimmed, "#") && !strings.Contains(trimmed, "\n")) {
		print := m.emit(&item{kind: itemUser, text: trimmed})
		m.busy = true
		b := m.b
		run := func() tea.Msg {
			out, quit, err := b.Command(context.Background(), trimmed)
			return commandDoneMsg{line: trimmed, out: out, quit: quit, err: err}
		}
		return tea.Batch(print, run)
	}
	return m.startTurn(text)
}

func (m *model) startTurn(prompt string) tea.Cmd {
	print := m.emit(&item{kind: itemUser, text: prompt})
	ctx, cancel := context.WithCancel(context.Background())
	m.busy, m.cancel, m.turnStart = true, cancel, time.Now()
	m.hint = ""
	b := m.b
	run := func() tea.Msg {
		res, err := b.Run(ctx, prompt)
		return turnDoneMsg{res: res, err: err}
	}
	return tea.Batch(print, run)
}

func (m *model) turnDone(d turnDoneMsg) tea.Cmd {
	var cmds []tea.Cmd
	if m.cancel != nil {
		m.cancel()
	}
	m.busy, m.cancel = false, nil
	m.hint = ""
	if text := m.live.String(); strings.TrimSpace(text) != "" {
		cmds = append(cmds, m.emit(&item{kind: itemAssistant, text: text}))
	}
	m.clearLive()
	for _, it := range m.running {
		it.done, it.isError, it.dur = true, true, time.Since(it.start)
		if it.output == "" {
			it.output = "not finished"
		}
		cmds = append(cmds, m.emit(it))
	}
	m.running, m.preparing = nil, ""
	switch {
	case errors.Is(d.err, context.Canceled) || d.res.Interrupted:
		cmds = append(cmds, m.emit(&item{kind: itemNotice, text: "Interrupted; the partial reply is kept in the session."}))
	case d.err != nil:
		cmds = append(cmds, m.emit(&item{kind: itemNotice, text: "Error: " + d.err.Error()}))
	case d.res.IsError:
		cmds = append(cmds, m.emit(&item{kind: itemNotice, text: d.res.Text}))
	}
	m.status = m.b.Status()
	return tea.Batch(append(cmds, m.next())...)
}

func (m *model) commandDone(d commandDoneMsg) tea.Cmd {
	m.busy = false
	var cmds []tea.Cmd
	if strings.TrimSpace(d.out) != "" {
		cmds = append(cmds, m.emit(&item{kind: itemCommand, text: d.out}))
	}
	if d.err != nil {
		cmds = append(cmds, m.emit(&item{kind: itemNotice, text: d.err.Error()}))
	}
	m.status = m.b.Status()
	if strings.HasPrefix(d.line, "/resume ") && d.err == nil {
		m.todos = nil
		cmds = append(cmds, m.replay(m.b.Transcript()))
	}
	if d.quit {
		return tea.Sequence(tea.Batch(cmds...), m.exit())
	}
	return tea.Batch(append(cmds, m.next())...)
}

// next starts the first queued prompt, if any.
func (m *model) next() tea.Cmd {
	if len(m.queued) == 0 {
		return nil
	}
	p := m.queued[0]
	m.queued = m.queued[1:]
	return m.dispatch(p)
}

// onEvent turns the agent's events into transcript entries.
func (m *model) onEvent(ev agent.Event) tea.Cmd {
	switch ev.Kind {
	case agent.KindTextDelta:
		m.live.WriteString(ev.Text)
		m.liveDirty = true
	case agent.KindToolStart:
		m.preparing = ev.ToolName
	case agent.KindAssistant:
		m.clearLive()
		if ev.Message != nil {
			if text := ev.Message.Text(); strings.TrimSpace(text) != "" {
				return m.emit(&item{kind: itemAssistant, text: text})
			}
		}
	case agent.KindToolUse:
		m.preparing = ""
		it := &item{kind: itemTool, tool: ev.ToolName, id: ev.ToolUseID, input: ev.ToolInput, start: time.Now()}
		m.items = append(m.items, it)
		m.running = append(m.running, it)
		if ev.ToolName == "TodoWrite" {
			var in struct{ Todos []todo }
			if json.Unmarshal(ev.ToolInput, &in) == nil {
				m.todos = in.Todos
			}
		}
	case agent.KindToolResults:
		if ev.Message != nil {
			return m.toolResults(*ev.Message)
		}
	case agent.KindNotice:
		return m.emit(&item{kind: itemNotice, text: ev.Text})
	}
	return nil
}

// toolResults finishes the cards the results answer and prints them.
func (m *model) toolResults(msg provider.Message) tea.Cmd {
	var cmds []tea.Cmd
	for _, b := range msg.Content {
		if b.Type != provider.BlockToolResult {
			continue
		}
		for i, it := range m.running {
			if it.id != b.ToolUseID {
				continue
			}
			it.output, it.isError, it.done, it.dur = b.Content, b.IsError, true, time.Since(it.start)
			m.running = append(m.running[:i], m.running[i+1:]...)
			cmds = append(cmds, m.printItem(it))
			break
		}
	}
	return tea.Batch(cmds...)
}

// emit adds an entry to the transcript and prints it into the scrollback.
func (m *model) emit(it *item) tea.Cmd {
	if it.kind != itemTool || !containsItem(m.items, it) {
		m.items = append(m.items, it)
	}
	return m.printItem(it)
}

func containsItem(items []*item, it *item) bool {
	for i := len(items) - 1; i >= 0; i-- {
		if items[i] == it {
			return true
		}
	}
	return false
}

func (m *model) printItem(it *item) tea.Cmd {
	return m.print(it.render(m.th, m.width, m.renderMarkdown) + "\n")
}

// print queues text for the scrollback; prints leave in order, one at a
// time, and wait while the full-screen transcript is open (the alternate
// screen has no scrollback).
func (m *model) print(s string) tea.Cmd {
	m.outbox = append(m.outbox, s)
	return m.flush()
}

func (m *model) flush() tea.Cmd {
	if m.printing || m.pager != nil || len(m.outbox) == 0 {
		return nil
	}
	text := strings.Join(m.outbox, "\n")
	m.outbox, m.printing = nil, true
	return tea.Sequence(tea.Println(text), func() tea.Msg { return printedMsg{} })
}

func (m *model) renderMarkdown(s string) string {
	if m.md == nil {
		return s
	}
	out, err := m.md.Render(s)
	if err != nil {
		return s
	}
	// Trailing blanks only get in the way of copying text.
	lines := strings.Split(strings.Trim(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// renderLive re-renders the reply being streamed (only that reply).
func (m *model) renderLive() {
	m.liveView = m.renderMarkdown(m.live.String())
	m.liveDirty = false
}

func (m *model) clearLive() {
	m.live.Reset()
	m.liveView, m.liveDirty = "", false
}

// replay prints a resumed conversation: prompts, replies and tool cards.
func (m *model) replay(msgs []provider.Message) tea.Cmd {
	var cmds []tea.Cmd
	cards := map[string]*item{}
	for _, msg := range msgs {
		for _, b := range msg.Content {
			switch {
			case b.Type == provider.BlockText && strings.TrimSpace(b.Text) != "":
				kind := itemAssistant
				if msg.Role == provider.RoleUser {
					kind = itemUser
				}
				cmds = append(cmds, m.emit(&item{kind: kind, text: b.Text}))
			case b.Type == provider.BlockToolUse:
				it := &item{kind: itemTool, tool: b.Name, id: b.ID, input: b.Input}
				cards[b.ID] = it
			case b.Type == provider.BlockToolResult:
				if it := cards[b.ToolUseID]; it != nil {
					it.output, it.isError, it.done = b.Content, b.IsError, true
					cmds = append(cmds, m.emit(it))
				}
			}
		}
	}
	return tea.Sequence(cmds...)
}

// resumeKey drives /resume's picker; choosing runs "/resume ID".
func (m *model) resumeKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.resume
	p.Update(k)
	if !p.done {
		return nil
	}
	m.resume = nil
	if p.chosen == "" {
		return nil
	}
	return m.dispatch("/resume " + p.chosen)
}
