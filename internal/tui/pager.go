package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// pager is the whole transcript, full-screen (Ctrl-O): scroll it, select a
// tool card with Tab and expand it with Enter.
type pager struct {
	offset int   // first line shown
	sel    int   // index into m.items of the selected card; -1 none
	starts []int // each item's first line, from the last layout
	lines  []string
}

func (m *model) openPager() {
	p := &pager{sel: -1}
	for i := len(m.items) - 1; i >= 0; i-- {
		if m.items[i].kind == itemTool {
			p.sel = i
			break
		}
	}
	m.pager = p
	p.layout(m)
	p.offset = max(0, len(p.lines)-p.rows(m))
}

func (p *pager) rows(m *model) int { return max(1, m.height-2) }

// layout renders every item; a card's collapsed and expanded forms differ,
// so it runs again after Enter.
func (p *pager) layout(m *model) {
	p.lines, p.starts = p.lines[:0], p.starts[:0]
	for i, it := range m.items {
		p.starts = append(p.starts, len(p.lines))
		s := it.render(m.th, m.width-2, m.renderMarkdown)
		for _, l := range strings.Split(s, "\n") {
			mark := "  "
			if i == p.sel {
				mark = m.th.accent.Render("▌ ")
			}
			p.lines = append(p.lines, mark+l)
		}
		p.lines = append(p.lines, "")
	}
}

func (p *pager) key(m *model, k string) tea.Cmd {
	page := p.rows(m)
	switch k {
	case "q", "esc", "ctrl+o", "ctrl+c":
		m.pager = nil
		return m.flush()
	case "up", "k":
		p.offset--
	case "down", "j":
		p.offset++
	case "pgup", "b":
		p.offset -= page
	case "pgdown", "space", "f":
		p.offset += page
	case "home", "g":
		p.offset = 0
	case "end", "G":
		p.offset = len(p.lines)
	case "tab", "n":
		p.selectCard(m, 1)
	case "shift+tab", "p":
		p.selectCard(m, -1)
	case "enter":
		if p.sel >= 0 {
			m.items[p.sel].expanded = !m.items[p.sel].expanded
			p.layout(m)
		}
	}
	p.offset = min(max(0, p.offset), max(0, len(p.lines)-page))
	return nil
}

func (p *pager) selectCard(m *model, dir int) {
	for i := p.sel + dir; i >= 0 && i < len(m.items); i += dir {
		if m.items[i].kind == itemTool {
			p.sel = i
			p.layout(m)
			if s := p.starts[i]; s < p.offset || s >= p.offset+p.rows(m) {
				p.offset = s
			}
			return
		}
	}
}

func (p *pager) view(m *model) string {
	page := p.rows(m)
	end := min(len(p.lines), p.offset+page)
	body := strings.Join(p.lines[p.offset:end], "\n")
	if n := page - (end - p.offset); n > 0 {
		body += strings.Repeat("\n", n)
	}
	help := m.th.dim.Render("transcript · ↑↓ pgup pgdn scroll · tab selects a tool card · enter expands · q or ctrl+o returns")
	return body + "\n" + truncate(help, m.width)
}
