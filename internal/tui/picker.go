package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// SessionRow is one session the picker offers.
type SessionRow struct {
	ID      string
	Updated time.Time
	Prompts int
	First   string // the first prompt
}

// ErrNoChoice says the picker was left without choosing.
var ErrNoChoice = errors.New("no session chosen")

// PickSession shows sessions newest first and returns the chosen ID
// (grit -r with no ID, /resume). Typing filters by the first prompt.
func PickSession(ctx context.Context, rows []SessionRow, in io.Reader, out io.Writer) (string, error) {
	if len(rows) == 0 {
		return "", fmt.Errorf("no sessions for this project yet (start one with grit)")
	}
	pm := &picker{rows: rows, th: newTheme(true), width: 80, height: 24}
	p := tea.NewProgram(pm, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	if _, err := p.Run(); err != nil {
		return "", err
	}
	if pm.chosen == "" {
		return "", ErrNoChoice
	}
	return pm.chosen, nil
}

type picker struct {
	rows          []SessionRow
	filter        string
	sel           int
	chosen        string
	done          bool
	th            theme
	width, height int
}

func (p *picker) Init() tea.Cmd { return tea.RequestBackgroundColor }

func (p *picker) visible() []SessionRow {
	if p.filter == "" {
		return p.rows
	}
	var out []SessionRow
	q := strings.ToLower(p.filter)
	for _, r := range p.rows {
		if strings.Contains(strings.ToLower(r.First), q) || strings.HasPrefix(r.ID, q) {
			out = append(out, r)
		}
	}
	return out
}

func (p *picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.width, p.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		p.th = newTheme(msg.IsDark())
	case tea.KeyPressMsg:
		rows := p.visible()
		switch msg.String() {
		case "esc", "ctrl+c":
			p.done = true
			return p, tea.Quit
		case "up", "ctrl+p":
			p.sel = max(0, p.sel-1)
		case "down", "ctrl+n":
			p.sel = min(len(rows)-1, p.sel+1)
		case "enter":
			if p.sel < len(rows) {
				p.chosen = rows[p.sel].ID
			}
			p.done = true
			return p, tea.Quit
		case "backspace":
			if r := []rune(p.filter); len(r) > 0 {
				p.filter, p.sel = string(r[:len(r)-1]), 0
			}
		default:
			if msg.Text != "" {
				p.filter, p.sel = p.filter+msg.Text, 0
			}
		}
	}
	return p, nil
}

func (p *picker) View() tea.View {
	if p.done {
		return tea.NewView("")
	}
	rows := p.visible()
	var b strings.Builder
	b.WriteString(p.th.accent.Render("Resume a session") + p.th.dim.Render("  ↑↓ choose · enter resumes · type to filter · esc cancels") + "\n")
	if p.filter != "" {
		b.WriteString("filter: " + p.filter + "\n")
	}
	page := max(3, p.height-4)
	start := max(0, p.sel-page+1)
	for i := start; i < len(rows) && i < start+page; i++ {
		r := rows[i]
		line := fmt.Sprintf("%-16s %3d prompts  %s", ago(r.Updated), r.Prompts, oneLine(r.First))
		if i == p.sel {
			b.WriteString(p.th.accent.Render(truncate("› "+line, p.width)) + "\n")
		} else {
			b.WriteString(truncate("  "+line, p.width) + "\n")
		}
	}
	if len(rows) == 0 {
		b.WriteString(p.th.dim.Render("  no session matches") + "\n")
	}
	return tea.NewView(strings.TrimRight(b.String(), "\n"))
}

// ago says when, relative to now for the last day, else the date.
func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return t.Local().Format("2006-01-02 15:04")
}
