package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (m *model) View() tea.View {
	if m.quit {
		return tea.NewView("")
	}
	if m.pager != nil {
		v := tea.NewView(m.pager.view(m))
		v.AltScreen = true
		return v
	}
	var parts []string
	// The fixed parts first, so the live text gets what is left.
	bottom := m.bottomView()
	fixed := lineCount(bottom)
	for _, it := range m.running {
		parts = append(parts, it.render(m.th, m.width, nil))
	}
	if m.liveView != "" {
		room := m.height - fixed - lineCount(strings.Join(parts, "\n")) - 1
		parts = append(parts, lastLines(m.liveView, max(3, room)))
	}
	if todos := m.todoView(); todos != "" {
		parts = append(parts, todos)
	}
	if m.busy {
		label := "Working"
		if m.preparing != "" {
			label = "Preparing " + m.preparing
		}
		line := m.th.accent.Render(spinner[m.frame%len(spinner)]+" "+label+"…") +
			m.th.dim.Render(fmt.Sprintf(" %s · esc to interrupt", elapsed(time.Since(m.turnStart))))
		if n := len(m.queued); n > 0 {
			line += m.th.dim.Render(fmt.Sprintf(" · %d queued", n))
		}
		parts = append(parts, line)
	}
	parts = append(parts, bottom)
	return tea.NewView(strings.Join(parts, "\n"))
}

// bottomView is the popup, the editor (or a dialog or the history search),
// the status line and a hint.
func (m *model) bottomView() string {
	var parts []string
	switch {
	case m.dialog != nil:
		parts = append(parts, m.dialog.view(m))
	case m.resume != nil:
		m.resume.width, m.resume.height = m.width, min(m.height, 16)
		parts = append(parts, m.resume.View().Content)
	default:
		if p := m.popup.view(m); p != "" {
			parts = append(parts, p)
		}
		if m.search != nil {
			parts = append(parts, m.th.border.Width(m.width-2).Render(m.search.view(m)))
		} else {
			parts = append(parts, m.th.border.Width(m.width-2).Render(m.input.View()))
		}
	}
	parts = append(parts, m.statusView())
	if m.hint != "" {
		parts = append(parts, m.th.warn.Render(m.hint))
	}
	return strings.Join(parts, "\n")
}

func (m *model) statusView() string {
	s := m.status
	sep := m.th.dim.Render(" · ")
	fields := []string{m.th.accent.Render(s.Model), modeLabel(m, s.Mode)}
	if s.ContextPct >= 0 {
		fields = append(fields, fmt.Sprintf("ctx %d%%", s.ContextPct))
	}
	if s.Tokens > 0 {
		fields = append(fields, compactCount(s.Tokens)+" tok")
	}
	if s.CostKnown {
		fields = append(fields, fmt.Sprintf("$%.2f", s.CostUSD))
	}
	dir := s.Dir
	if s.Branch != "" {
		dir += " (" + s.Branch + ")"
	}
	fields = append(fields, dir)
	if s.Shells > 0 {
		fields = append(fields, fmt.Sprintf("%d shell(s)", s.Shells))
	}
	line := strings.Join(fields, sep)
	return truncate(" "+line, m.width)
}

func modeLabel(m *model, mode string) string {
	label := mode + " mode"
	switch mode {
	case "acceptEdits":
		return m.th.ok.Render("⏵⏵ accept edits") + m.th.dim.Render(" (shift+tab)")
	case "plan":
		return m.th.hunk.Render("⏸ plan mode") + m.th.dim.Render(" (shift+tab)")
	case "bypassPermissions":
		return m.th.fail.Render("bypass permissions")
	}
	return m.th.dim.Render(label + " (shift+tab)")
}

func (m *model) todoView() string {
	if len(m.todos) == 0 {
		return ""
	}
	all := true
	var b strings.Builder
	b.WriteString(m.th.accent.Render("Todos") + "\n")
	for _, t := range m.todos {
		switch t.Status {
		case "completed":
			b.WriteString(m.th.ok.Render("  ☒ ") + m.th.dim.Strikethrough(!m.th.plain).Render(t.Content) + "\n")
		case "in_progress":
			all = false
			label := t.ActiveForm
			if label == "" {
				label = t.Content
			}
			b.WriteString(m.th.warn.Render("  ◐ "+label) + "\n")
		default:
			all = false
			b.WriteString("  ☐ " + t.Content + "\n")
		}
	}
	if all && !m.busy {
		return ""
	}
	return strings.TrimRight(b.String(), "\n")
}

func compactCount(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[len(lines)-n:], "\n")
}

func truncate(s string, width int) string { return ansi.Truncate(s, width, "…") }

func padRight(s string, n int) string {
	if w := ansi.StringWidth(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// elapsed is a running time in whole seconds, as a spinner shows it.
func elapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return formatDuration(d)
}
