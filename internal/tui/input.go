package tui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
)

// editorMaxLines is how tall the editor grows before it scrolls.
const editorMaxLines = 10

// popupRows is how many palette or completion rows show at once.
const popupRows = 8

func newEditor() textarea.Model {
	ta := textarea.New()
	ta.SetPromptFunc(2, func(pi textarea.PromptInfo) string {
		if pi.LineNumber == 0 {
			return "> "
		}
		return "  "
	})
	ta.Placeholder = "Ask anything · / commands · @ files · alt+enter newline"
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	// A steady cursor: a blinking one redraws the screen twice a second
	// for nothing.
	st := ta.Styles()
	st.Cursor.Blink = false
	ta.SetStyles(st)
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = editorMaxLines
	// Enter is ours (send); these insert a newline.
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"))
	return ta
}

// editorKey handles a key while the editor has the focus.
func (m *model) editorKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "enter":
		if m.popup.open() {
			if cmd, done := m.popup.accept(m, true); done {
				return cmd
			}
		}
		v := m.input.Value()
		if strings.HasSuffix(v, "\\") && m.input.Line() == m.input.LineCount()-1 {
			// A trailing backslash continues the message on a new line.
			m.input.SetValue(strings.TrimSuffix(v, "\\") + "\n")
			return nil
		}
		m.input.Reset()
		m.hist.reset()
		m.popup.close()
		return m.submit(v)
	case "tab":
		if m.popup.open() {
			cmd, _ := m.popup.accept(m, false)
			return cmd
		}
		return nil
	case "up":
		if m.popup.open() {
			m.popup.move(-1)
			return nil
		}
		if m.input.Line() == 0 {
			if v, ok := m.hist.prev(m.input.Value()); ok {
				m.input.SetValue(v)
			}
			return nil
		}
	case "down":
		if m.popup.open() {
			m.popup.move(1)
			return nil
		}
		if m.input.Line() == m.input.LineCount()-1 {
			if v, ok := m.hist.next(); ok {
				m.input.SetValue(v)
			}
			return nil
		}
	case "ctrl+r":
		m.search = &histSearch{match: -1}
		return nil
	case "ctrl+d":
		if m.input.Value() == "" {
			return m.exit()
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	m.popup.update(m)
	return cmd
}

// history is the prompts entered before, oldest first, walked with Up and
// Down; the text being written is kept while walking.
type history struct {
	entries []string
	pos     int // len(entries) when not walking
	draft   string
}

func (h *history) reset() { h.pos = len(h.entries) }

func (h *history) add(s string) {
	if n := len(h.entries); n == 0 || h.entries[n-1] != s {
		h.entries = append(h.entries, s)
	}
	h.reset()
}

func (h *history) prev(current string) (string, bool) {
	if h.pos == 0 {
		return "", false
	}
	if h.pos == len(h.entries) {
		h.draft = current
	}
	h.pos--
	return h.entries[h.pos], true
}

func (h *history) next() (string, bool) {
	if h.pos >= len(h.entries) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		return h.draft, true
	}
	return h.entries[h.pos], true
}

// histSearch is Ctrl-R: the newest earlier prompt holding the query.
type histSearch struct {
	query string
	match int // index into the history; -1 none
}

func (s *histSearch) find(h *history, before int) {
	s.match = -1
	if s.query == "" {
		return
	}
	q := strings.ToLower(s.query)
	for i := min(before, len(h.entries)) - 1; i >= 0; i-- {
		if strings.Contains(strings.ToLower(h.entries[i]), q) {
			s.match = i
			return
		}
	}
}

func (s *histSearch) key(m *model, k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "ctrl+r": // the next older match
		if s.match > 0 {
			prev := s.match
			s.find(&m.hist, s.match)
			if s.match < 0 {
				s.match = prev
			}
		}
	case "backspace":
		if r := []rune(s.query); len(r) > 0 {
			s.query = string(r[:len(r)-1])
			s.find(&m.hist, len(m.hist.entries))
		}
	case "enter", "tab", "right", "left":
		if s.match >= 0 {
			m.input.SetValue(m.hist.entries[s.match])
		}
		m.search = nil
	default:
		if k.Text != "" {
			s.query += k.Text
			s.find(&m.hist, len(m.hist.entries))
		}
	}
	return nil
}

func (s *histSearch) view(m *model) string {
	found := ""
	if s.match >= 0 {
		found = oneLine(m.hist.entries[s.match])
	} else if s.query != "" {
		found = m.th.fail.Render("no match")
	}
	return m.th.accent.Render("(reverse-i-search)") + "`" + s.query + "': " + found
}

// popup is the command palette (the input starts with /) or the file
// completion (the word being typed starts with @).
type popup struct {
	kind  byte // 0 closed, '/' palette, '@' files
	rows  []popupRow
	sel   int
	token string // the text the rows complete
}

type popupRow struct{ value, help string }

func (p *popup) open() bool { return p.kind != 0 && len(p.rows) > 0 }
func (p *popup) close()     { p.kind, p.rows, p.sel = 0, nil, 0 }

func (p *popup) move(d int) {
	if n := len(p.rows); n > 0 {
		p.sel = (p.sel + d + n) % n
	}
}

// update recomputes the popup from the editor's text.
func (p *popup) update(m *model) {
	v := m.input.Value()
	switch {
	case strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " \n"):
		p.kind, p.token = '/', v
		p.rows = p.rows[:0]
		for _, c := range m.b.Commands() {
			if strings.HasPrefix(c.Name, v) {
				p.rows = append(p.rows, popupRow{c.Name, c.Help})
			}
		}
	default:
		word := lastWord(v)
		if !strings.HasPrefix(word, "@") {
			p.close()
			return
		}
		p.kind, p.token = '@', word
		p.rows = fileMatches(m.b.Files(), strings.TrimPrefix(word, "@"), popupRows*4)
	}
	if p.sel >= len(p.rows) {
		p.sel = 0
	}
}

// accept completes the selected row. For the palette, Enter on a complete
// command name runs it (done is true): the caller submits.
func (p *popup) accept(m *model, enter bool) (tea.Cmd, bool) {
	if !p.open() {
		return nil, false
	}
	row := p.rows[p.sel]
	v := m.input.Value()
	switch p.kind {
	case '/':
		p.close()
		if enter {
			m.input.Reset()
			return m.submit(row.value), true
		}
		m.input.SetValue(row.value + " ")
	case '@':
		p.close()
		m.input.SetValue(strings.TrimSuffix(v, p.token) + "@" + row.value + " ")
		if enter {
			return nil, true
		}
	}
	return nil, enter
}

func (p *popup) view(m *model) string {
	if !p.open() {
		return ""
	}
	start := 0
	if p.sel >= popupRows {
		start = p.sel - popupRows + 1
	}
	end := min(len(p.rows), start+popupRows)
	var b strings.Builder
	for i := start; i < end; i++ {
		r := p.rows[i]
		line := "  " + r.value
		if r.help != "" {
			line = "  " + padRight(r.value, 18) + "  " + m.th.dim.Render(r.help)
		}
		if i == p.sel {
			line = m.th.accent.Render("› ") + m.th.accent.Render(padRight(r.value, 18))
			if r.help != "" {
				line += "  " + r.help
			}
		}
		b.WriteString(truncate(line, m.width) + "\n")
	}
	if end < len(p.rows) {
		b.WriteString(m.th.dim.Render("  …") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// lastWord is the text after the last space or newline.
func lastWord(v string) string {
	if i := strings.LastIndexAny(v, " \n\t"); i >= 0 {
		return v[i+1:]
	}
	return v
}

// fileMatches ranks paths for a query: a path starting with it first, then
// a base name starting with it, then any path containing it; shorter first.
func fileMatches(files []string, q string, limit int) []popupRow {
	q = strings.ToLower(q)
	type scored struct {
		p    string
		rank int
	}
	var out []scored
	for _, f := range files {
		lf := strings.ToLower(f)
		base := lf[strings.LastIndex(lf, "/")+1:]
		switch {
		case strings.HasPrefix(lf, q):
			out = append(out, scored{f, 0})
		case strings.HasPrefix(base, q):
			out = append(out, scored{f, 1})
		case strings.Contains(lf, q):
			out = append(out, scored{f, 2})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].rank != out[j].rank {
			return out[i].rank < out[j].rank
		}
		if len(out[i].p) != len(out[j].p) {
			return len(out[i].p) < len(out[j].p)
		}
		return out[i].p < out[j].p
	})
	rows := make([]popupRow, 0, min(limit, len(out)))
	for i := 0; i < len(out) && i < limit; i++ {
		rows = append(rows, popupRow{value: out[i].p})
	}
	return rows
}
