package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/provider"
)

// fakeBackend records what the interface asked of it.
type fakeBackend struct {
	mu       sync.Mutex
	prompts  []string
	commands []string
	mode     string
	files    []string
	sessions []SessionRow
	msgs     []provider.Message
	run      func(ctx context.Context, prompt string) (agent.Result, error)
}

func (b *fakeBackend) Run(ctx context.Context, prompt string) (agent.Result, error) {
	b.mu.Lock()
	b.prompts = append(b.prompts, prompt)
	run := b.run
	b.mu.Unlock()
	if run != nil {
		return run(ctx, prompt)
	}
	return agent.Result{Text: "ok"}, nil
}

func (b *fakeBackend) Command(ctx context.Context, line string) (string, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.commands = append(b.commands, line)
	if line == "/exit" {
		return "", true, nil
	}
	return "ran " + line + "\n", false, nil
}

func (b *fakeBackend) Commands() []Command {
	return []Command{{Name: "/help", Help: "list the commands"}, {Name: "/model", Help: "show or switch the model"}, {Name: "/memory", Help: "show the memory files"},
		{Name: "/review", Help: "a custom command", Turn: true}}
}
func (b *fakeBackend) Files() []string { return b.files }
func (b *fakeBackend) Status() Status {
	return Status{Model: "scripted:x", Mode: b.mode, ContextPct: 12, Tokens: 3400, Dir: "~/proj", Branch: "main"}
}
func (b *fakeBackend) CycleMode() (string, error) {
	next := map[string]string{"default": "acceptEdits", "acceptEdits": "plan", "plan": "default"}[b.mode]
	b.mode = next
	return next, nil
}
func (b *fakeBackend) Sessions() []SessionRow         { return b.sessions }
func (b *fakeBackend) Transcript() []provider.Message { return b.msgs }

// harness drives a model synchronously: every command a message returns
// is run and its messages fed back, as the program would, except ticks.
type harness struct {
	t       *testing.T
	m       *model
	b       *fakeBackend
	printed []string
	depth   int
}

func newHarness(t *testing.T) *harness {
	t.Setenv("NO_COLOR", "1")
	b := &fakeBackend{mode: "default", files: []string{"internal/tui/model.go", "internal/tui/view.go", "README.md", "cmd/grit/main.go"}}
	h := &harness{t: t, b: b, m: newModel(Options{Backend: b})}
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	return h
}

func (h *harness) send(msg tea.Msg) {
	if h.depth++; h.depth > 100 {
		h.t.Fatalf("messages keep producing messages: %T", msg)
	}
	defer func() { h.depth-- }()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

// run executes a command tree; prints are captured, ticks dropped.
func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := cmd()
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tickMsg:
	default:
		v := reflect.ValueOf(msg)
		switch {
		case fmt.Sprintf("%T", msg) == "tea.printLineMessage":
			h.printed = append(h.printed, v.FieldByName("messageBody").String())
		case fmt.Sprintf("%T", msg) == "tea.sequenceMsg":
			for i := range v.Len() {
				if c, ok := v.Index(i).Interface().(tea.Cmd); ok {
					h.run(c)
				}
			}
		default:
			h.send(msg)
		}
	}
}

func (h *harness) key(s string) {
	for _, k := range keys(s) {
		h.send(k)
	}
}

func (h *harness) view() string { return ansi.Strip(h.m.View().Content) }

func (h *harness) scrollback() string { return ansi.Strip(strings.Join(h.printed, "\n")) }

func keys(s string) []tea.KeyPressMsg {
	named := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown},
		"tab": {Code: tea.KeyTab}, "shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+r": {Code: 'r', Mod: tea.ModCtrl}, "ctrl+o": {Code: 'o', Mod: tea.ModCtrl}, "alt+enter": {Code: tea.KeyEnter, Mod: tea.ModAlt},
		"backspace": {Code: tea.KeyBackspace},
	}
	if k, ok := named[s]; ok {
		return []tea.KeyPressMsg{tea.KeyPressMsg(k)}
	}
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg(tea.Key{Code: r, Text: string(r)}))
	}
	return out
}

func contains(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Fatalf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

func TestSendsOnEnterAndKeepsNewlines(t *testing.T) {
	h := newHarness(t)
	h.key("first line")
	h.key("alt+enter")
	h.key("second line\\")
	h.key("enter") // a trailing backslash continues on a new line
	h.key("third")
	if got := h.m.input.Value(); got != "first line\nsecond line\nthird" {
		t.Fatalf("editor = %q", got)
	}
	h.key("enter")
	if len(h.b.prompts) != 1 || h.b.prompts[0] != "first line\nsecond line\nthird" {
		t.Fatalf("prompts = %q, want the three lines as one", h.b.prompts)
	}
	contains(t, "scrollback", h.scrollback(), "> first line", "  second line")
}

// TestCustomCommandRunsAsTurn: a custom command or skill (Turn) is sent
// to Run as the model's prompt; a built-in one to Command.
func TestCustomCommandRunsAsTurn(t *testing.T) {
	h := newHarness(t)
	h.key("/review main.go")
	h.key("enter")
	if len(h.b.prompts) != 1 || h.b.prompts[0] != "/review main.go" || len(h.b.commands) != 0 {
		t.Fatalf("prompts %q, commands %q; want /review main.go run as a turn", h.b.prompts, h.b.commands)
	}
}

func TestPasteIsOneMessage(t *testing.T) {
	h := newHarness(t)
	h.send(tea.PasteMsg{Content: "alpha\r\nbeta\ngamma"})
	if len(h.b.prompts) != 0 {
		t.Fatalf("a paste sent %q; it must wait for Enter", h.b.prompts)
	}
	h.key("enter")
	if len(h.b.prompts) != 1 || h.b.prompts[0] != "alpha\nbeta\ngamma" {
		t.Fatalf("prompts = %q", h.b.prompts)
	}
}

func TestHistoryAndSearch(t *testing.T) {
	h := newHarness(t)
	h.m.hist = history{entries: []string{"run the tests", "fix the parser", "explain main.go"}}
	h.m.hist.reset()
	h.key("draft")
	h.key("up")
	if v := h.m.input.Value(); v != "explain main.go" {
		t.Fatalf("Up gave %q", v)
	}
	h.key("up")
	h.key("down")
	h.key("down")
	if v := h.m.input.Value(); v != "draft" {
		t.Fatalf("Down back to the draft gave %q", v)
	}
	h.m.input.Reset()
	h.key("ctrl+r")
	h.key("te")
	contains(t, "search view", h.view(), "(reverse-i-search)`te': run the tests")
	h.key("enter")
	if v := h.m.input.Value(); v != "run the tests" {
		t.Fatalf("search accepted %q", v)
	}
}

func TestPaletteAndFileCompletion(t *testing.T) {
	h := newHarness(t)
	h.key("/m")
	v := h.view()
	contains(t, "palette", v, "/model", "show or switch the model", "/memory")
	if strings.Contains(v, "/help") {
		t.Fatalf("palette shows /help for /m:\n%s", v)
	}
	h.key("tab")
	if got := h.m.input.Value(); got != "/model " {
		t.Fatalf("tab completed to %q", got)
	}
	h.m.input.Reset()
	h.m.popup.close()
	h.key("look at @view")
	contains(t, "completion", h.view(), "internal/tui/view.go")
	h.key("tab")
	if got := h.m.input.Value(); got != "look at @internal/tui/view.go " {
		t.Fatalf("completion gave %q", got)
	}
	// Enter on a palette row runs that command.
	h.m.input.Reset()
	h.key("/he")
	h.key("enter")
	if len(h.b.commands) != 1 || h.b.commands[0] != "/help" {
		t.Fatalf("commands = %q", h.b.commands)
	}
	contains(t, "scrollback", h.scrollback(), "ran /help")
}

func TestToolCardsAndStreaming(t *testing.T) {
	h := newHarness(t)
	h.m.busy, h.m.turnStart = true, time.Now()
	h.send(eventMsg{agent.Event{Kind: agent.KindTextDelta, Text: "Looking at **calc.py**"}})
	h.m.renderLive()
	contains(t, "live view", h.view(), "Looking at", "calc.py", "Working… 0s · esc to interrupt")
	h.send(eventMsg{agent.Event{Kind: agent.KindAssistant, Message: &provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: "text", Text: "Looking at **calc.py**"}}}}})
	edit := json.RawMessage(`{"file_path":"calc.py","old_string":"return a - b","new_string":"return a + b"}`)
	h.send(eventMsg{agent.Event{Kind: agent.KindToolUse, ToolName: "Edit", ToolUseID: "t1", ToolInput: edit}})
	contains(t, "running card", h.view(), "● Edit(calc.py)", "running")
	h.send(eventMsg{agent.Event{Kind: agent.KindToolResults, Message: &provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: "tool_result", ToolUseID: "t1", Content: "Edited calc.py."}}}}})
	sb := h.scrollback()
	contains(t, "scrollback", sb, "Looking at", "● Edit(calc.py)  ✓", "-return a - b", "+return a + b")
	if strings.Contains(h.view(), "● Edit") {
		t.Fatalf("a finished card stays in the live region:\n%s", h.view())
	}
	locate := "1. calc.py:1-2 add function 0.83 (symbol 0.50, path 0.20)\n2. main.py:3-9 main function 0.41\nFiles: calc.py 0.90, main.py 0.40"
	h.send(eventMsg{agent.Event{Kind: agent.KindToolUse, ToolName: "Locate", ToolUseID: "t2", ToolInput: json.RawMessage(`{"task":"add is wrong"}`)}})
	h.send(eventMsg{agent.Event{Kind: agent.KindToolResults, Message: &provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: "tool_result", ToolUseID: "t2", Content: locate}}}}})
	contains(t, "locate card", h.scrollback(), "● Locate(add is wrong)", "███████", "0.83", "add  calc.py:1", "symbol 0.50")
}

func TestLongOutputCollapsesAndExpandsInTranscript(t *testing.T) {
	h := newHarness(t)
	var out []string
	for i := range 40 {
		out = append(out, fmt.Sprintf("line %d", i))
	}
	h.send(eventMsg{agent.Event{Kind: agent.KindToolUse, ToolName: "Bash", ToolUseID: "b1", ToolInput: json.RawMessage(`{"command":"seq 40"}`)}})
	h.send(eventMsg{agent.Event{Kind: agent.KindToolResults, Message: &provider.Message{Content: []provider.Block{{Type: "tool_result", ToolUseID: "b1", Content: strings.Join(out, "\n")}}}}})
	sb := h.scrollback()
	contains(t, "collapsed card", sb, "line 5", "34 more lines")
	if strings.Contains(sb, "line 39") {
		t.Fatal("a collapsed card printed all its output")
	}
	h.key("ctrl+o")
	if !h.m.View().AltScreen {
		t.Fatal("ctrl+o did not open the full-screen transcript")
	}
	h.key("enter") // expands the selected (last) card
	h.key("G")
	contains(t, "expanded card", h.view(), "line 39")
	h.key("q")
	if h.m.pager != nil || h.m.View().AltScreen {
		t.Fatal("q did not leave the transcript")
	}
}

func TestPermissionDialog(t *testing.T) {
	h := newHarness(t)
	reply := make(chan Answer, 1)
	edit := json.RawMessage(`{"file_path":"calc.py","old_string":"a - b","new_string":"a + b"}`)
	h.send(askMsg{Tool: "Edit", Summary: "calc.py", Reason: "edits ask in default mode", Rules: []string{"Edit(calc.py)"}, Input: edit, reply: reply})
	v := h.view()
	contains(t, "dialog", v, "Permission", "-a - b", "+a + b", "1. Yes, allow once", "always allow Edit(calc.py) this session", "3. No")
	// Keys typed ahead, still arriving as the dialog appears, do not answer it.
	h.key("y")
	h.send(tea.PasteMsg{Content: "y\n"})
	select {
	case a := <-reply:
		t.Fatalf("a key within the guard answered %v", a)
	default:
	}
	h.m.dialog.shown = time.Now().Add(-time.Second)
	h.key("down")
	h.key("enter")
	if a := <-reply; a != AllowAlways {
		t.Fatalf("answer = %v, want AllowAlways", a)
	}
	if h.m.dialog != nil {
		t.Fatal("dialog still open")
	}
	contains(t, "scrollback", h.scrollback(), "Edit(calc.py) allowed for this session")
}

func TestPlanDialog(t *testing.T) {
	h := newHarness(t)
	reply := make(chan Answer, 1)
	plan := json.RawMessage(`{"plan":"1. Change **add** to add.\n2. Run the tests."}`)
	h.send(askMsg{Tool: "ExitPlanMode", Input: plan, reply: reply})
	contains(t, "plan dialog", h.view(), "Ready to code?", "Change", "Run the tests", "1. Yes, and approve edits one by one", "2. Yes, and accept edits", "3. No, keep planning")
	h.m.dialog.shown = time.Now().Add(-time.Second)
	h.key("2")
	if a := <-reply; a != AllowAlways {
		t.Fatalf("answer = %v", a)
	}
	contains(t, "scrollback", h.scrollback(), "Plan approved; edits are accepted.")
}

func TestEscInterruptsAndCtrlCTwiceQuits(t *testing.T) {
	h := newHarness(t)
	started := make(chan struct{})
	h.b.run = func(ctx context.Context, prompt string) (agent.Result, error) {
		close(started)
		<-ctx.Done()
		return agent.Result{Interrupted: true}, ctx.Err()
	}
	h.key("long task")
	_, cmd := h.m.Update(keys("enter")[0])
	done := make(chan tea.Msg, 4)
	go func() { // the turn runs as the program would run it
		var run func(tea.Cmd)
		run = func(c tea.Cmd) {
			if c == nil {
				return
			}
			msg := c()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					go run(c)
				}
				return
			}
			done <- msg
		}
		run(cmd)
	}()
	<-started
	h.send(eventMsg{agent.Event{Kind: agent.KindTextDelta, Text: "Once upon a"}})
	h.key("esc")
	for h.m.busy || h.m.printing {
		msg := <-done
		h.run(func() tea.Msg { return msg })
	}
	if h.m.busy {
		t.Fatal("still busy after Esc")
	}
	contains(t, "scrollback", h.scrollback(), "Once upon a", "Interrupted; the partial reply is kept")

	h.key("ctrl+c")
	if h.m.quit {
		t.Fatal("one Ctrl-C quit")
	}
	contains(t, "hint", h.view(), "Press Ctrl-C again to exit")
	_, cmd = h.m.Update(keys("ctrl+c")[0])
	if !h.m.quit || cmd == nil {
		t.Fatal("a second Ctrl-C did not quit")
	}
}

func TestQueuedWhileBusyAndModeCycle(t *testing.T) {
	h := newHarness(t)
	h.m.busy = true
	h.key("next thing")
	h.key("enter")
	if len(h.b.prompts) != 0 || len(h.m.queued) != 1 {
		t.Fatalf("prompts %q queued %q", h.b.prompts, h.m.queued)
	}
	contains(t, "view", h.view(), "1 queued")
	h.send(turnDoneMsg{})
	if len(h.b.prompts) != 1 || h.b.prompts[0] != "next thing" {
		t.Fatalf("the queued prompt did not run: %q", h.b.prompts)
	}
	h.key("shift+tab")
	contains(t, "status", h.view(), "accept edits", "ctx 12%", "3.4k tok", "~/proj (main)")
	h.key("shift+tab")
	contains(t, "status", h.view(), "plan mode")
}

func TestTodosPanel(t *testing.T) {
	h := newHarness(t)
	h.m.busy = true
	todos := json.RawMessage(`{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},{"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}`)
	h.send(eventMsg{agent.Event{Kind: agent.KindToolUse, ToolName: "TodoWrite", ToolUseID: "w1", ToolInput: todos}})
	contains(t, "todos", h.view(), "Todos", "☒ Read the code", "◐ Fixing the bug", "☐ Run the tests")
}

func TestResumeReplaysTranscript(t *testing.T) {
	h := newHarness(t)
	h.b.sessions = []SessionRow{{ID: "s-1", Updated: time.Now(), Prompts: 2, First: "fix calc"}}
	h.key("/resume")
	h.m.popup.close()
	h.key("enter")
	contains(t, "picker", h.view(), "Resume a session", "fix calc")
	h.b.msgs = []provider.Message{
		{Role: provider.RoleUser, Content: []provider.Block{{Type: "text", Text: "fix calc"}}},
		{Role: provider.RoleAssistant, Content: []provider.Block{{Type: "text", Text: "Done."}, {Type: "tool_use", ID: "r1", Name: "Read", Input: json.RawMessage(`{"file_path":"calc.py"}`)}}},
		{Role: provider.RoleUser, Content: []provider.Block{{Type: "tool_result", ToolUseID: "r1", Content: "1 def add"}}},
	}
	h.key("enter")
	if len(h.b.commands) != 1 || h.b.commands[0] != "/resume s-1" {
		t.Fatalf("commands = %q", h.b.commands)
	}
	contains(t, "scrollback", h.scrollback(), "> fix calc", "Done.", "● Read(calc.py)")
}

func TestSmallTerminalFits(t *testing.T) {
	h := newHarness(t)
	h.m.busy = true
	h.send(eventMsg{agent.Event{Kind: agent.KindTextDelta, Text: strings.Repeat("word ", 2000)}})
	h.m.renderLive()
	if n := lineCount(h.view()); n > 24 {
		t.Fatalf("the live region is %d lines on a 24-line terminal", n)
	}
	for _, l := range strings.Split(h.view(), "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Fatalf("a line is %d wide on an 80-column terminal: %q", w, l)
		}
	}
}

// BenchmarkKeystroke measures a key press to a new frame with a long
// transcript behind it (issue: ≤ 16 ms with 2,000 messages).
func BenchmarkKeystroke(b *testing.B) {
	b.Setenv("NO_COLOR", "")
	m := newModel(Options{Backend: &fakeBackend{mode: "default"}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for i := range 2000 {
		m.items = append(m.items, &item{kind: itemAssistant, text: fmt.Sprintf("Reply %d with `code` and **bold** text.", i)})
	}
	k := keys("a")[0]
	b.ResetTimer()
	for range b.N {
		m.Update(k)
		_ = m.View()
	}
}

// BenchmarkTranscriptOpen measures Ctrl-O over 2,000 rendered messages.
func BenchmarkTranscriptOpen(b *testing.B) {
	m := newModel(Options{Backend: &fakeBackend{mode: "default"}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for i := range 2000 {
		m.items = append(m.items, &item{kind: itemAssistant, text: fmt.Sprintf("Reply %d with `code` and **bold** text.", i)})
	}
	m.openPager() // the first opening renders every message once
	m.pager = nil
	b.ResetTimer()
	for range b.N {
		m.openPager()
		_ = m.View()
		m.pager = nil
	}
}
