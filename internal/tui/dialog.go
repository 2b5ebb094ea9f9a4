package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Answer is the user's reply to a permission dialog.
type Answer int

const (
	Deny        Answer = iota
	AllowOnce          // this call only
	AllowAlways        // add the dialog's rules for the rest of the session
)

// askMsg asks the user whether a tool call may run.
type askMsg struct {
	Tool    string
	Summary string   // the call's main argument
	Reason  string   // why it asks (the rule or mode that sent it here)
	Rules   []string // what "always" would add; empty: no such choice
	Input   json.RawMessage
	reply   chan Answer
}

// planTool is Claude Code's tool for leaving plan mode: its dialog shows
// the plan and asks how to go on.
const planTool = "ExitPlanMode"

// dialogGuard is how long a dialog ignores keys after it appears: keys typed
// ahead for the editor that were still on their way must not answer it.
const dialogGuard = 300 * time.Millisecond

type dialog struct {
	ask   askMsg
	shown time.Time
	sel   int
	opts  []dialogOption
}

type dialogOption struct {
	label  string
	key    string
	answer Answer
}

func newDialog(a askMsg, now time.Time) *dialog {
	d := &dialog{ask: a, shown: now}
	if a.Tool == planTool {
		d.opts = []dialogOption{
			{"Yes, and approve edits one by one", "y", AllowOnce},
			{"Yes, and accept edits", "a", AllowAlways},
			{"No, keep planning", "n", Deny},
		}
		return d
	}
	d.opts = append(d.opts, dialogOption{"Yes, allow once", "y", AllowOnce})
	if len(a.Rules) > 0 {
		d.opts = append(d.opts, dialogOption{"Yes, and always allow " + strings.Join(a.Rules, ", ") + " this session", "a", AllowAlways})
	}
	d.opts = append(d.opts, dialogOption{"No, tell the model what to do instead", "n", Deny})
	return d
}

func (d *dialog) key(m *model, k string) tea.Cmd {
	if time.Since(d.shown) < dialogGuard && k != "ctrl+c" && k != "esc" {
		return nil
	}
	answer, chosen := Deny, false
	switch k {
	case "up", "k", "shift+tab":
		d.sel = (d.sel + len(d.opts) - 1) % len(d.opts)
	case "down", "j", "tab":
		d.sel = (d.sel + 1) % len(d.opts)
	case "enter":
		answer, chosen = d.opts[d.sel].answer, true
	case "esc", "ctrl+c":
		answer, chosen = Deny, true
	default:
		for i, o := range d.opts {
			if k == o.key || k == fmt.Sprint(i+1) {
				answer, chosen = o.answer, true
			}
		}
	}
	if chosen {
		d.ask.reply <- answer
		m.dialog = nil
		if d.ask.Tool == planTool {
			verdict := map[Answer]string{Deny: "The plan was not approved; still planning.", AllowOnce: "Plan approved; edits will ask.", AllowAlways: "Plan approved; edits are accepted."}[answer]
			return m.emit(&item{kind: itemNotice, text: verdict})
		}
		verdict := map[Answer]string{Deny: "denied", AllowOnce: "allowed once", AllowAlways: "allowed for this session"}[answer]
		return m.emit(&item{kind: itemNotice, text: fmt.Sprintf("%s(%s) %s", d.ask.Tool, d.ask.Summary, verdict)})
	}
	return nil
}

func (d *dialog) view(m *model) string {
	t := m.th
	var b strings.Builder
	if d.ask.Tool == planTool {
		var in struct {
			Plan string `json:"plan"`
		}
		json.Unmarshal(d.ask.Input, &in)
		b.WriteString(t.warn.Render("Ready to code?") + "  " + t.dim.Render("the plan:") + "\n")
		b.WriteString(lastLines(m.renderMarkdown(in.Plan), max(6, m.height-12)) + "\n\n")
		return d.finish(m, &b)
	}
	b.WriteString(t.warn.Render("Permission") + "  " + t.accent.Render(d.ask.Tool) + "\n")
	b.WriteString(wrapText(d.ask.Summary, m.width-6) + "\n")
	// An edit shows what it would change, as its card will.
	preview := &item{kind: itemTool, tool: d.ask.Tool, input: d.ask.Input, done: true}
	if diff := preview.diff(); diff != "" {
		lines := colourDiff(t, diff)
		if n := max(4, m.height/2-8); len(lines) > n {
			lines = append(lines[:n], t.dim.Render(fmt.Sprintf("… %d more lines", len(lines)-n)))
		}
		for _, l := range lines {
			b.WriteString(truncate(l, m.width-6) + "\n")
		}
	}
	if d.ask.Reason != "" {
		b.WriteString(t.dim.Render(wrapText(d.ask.Reason, m.width-6)) + "\n")
	}
	b.WriteString("\n")
	return d.finish(m, &b)
}

// finish adds the choices and draws the box.
func (d *dialog) finish(m *model, b *strings.Builder) string {
	t := m.th
	for i, o := range d.opts {
		line := fmt.Sprintf("%d. %s", i+1, o.label)
		if i == d.sel {
			b.WriteString(t.accent.Render("› "+line) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString(t.dim.Render("enter or 1-3 to choose · esc denies"))
	return t.border.Padding(0, 1).Width(max(20, m.width-2)).Render(b.String())
}
