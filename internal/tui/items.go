package tui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/grit-dev/grit/internal/edit"
)

// itemKind says what a transcript entry is.
type itemKind int

const (
	itemUser      itemKind = iota // the user's prompt
	itemAssistant                 // a model reply, Markdown
	itemTool                      // one tool call: a card
	itemNotice                    // the harness telling the user something
	itemCommand                   // a slash command's output, verbatim
)

// cardLines is how many lines of a tool's output or diff a collapsed card
// shows: enough to see what happened, few enough that a turn of ten tool
// calls still fits on a screen.
const cardLines = 6

// item is one entry of the transcript.
type item struct {
	kind itemKind
	text string // prompt, reply, notice or command output

	// A tool call.
	tool     string
	id       string
	input    json.RawMessage
	output   string
	isError  bool
	start    time.Time
	dur      time.Duration
	done     bool
	expanded bool

	// The last rendering, reused while width and expansion are the same:
	// the full-screen transcript lays out every item.
	cache         string
	cacheWidth    int
	cacheExpanded bool
}

// render draws the item for a terminal width; md renders Markdown (nil
// prints the text as it is).
func (it *item) render(t theme, width int, md func(string) string) string {
	if it.cache != "" && it.cacheWidth == width && it.cacheExpanded == it.expanded {
		return it.cache
	}
	s := it.draw(t, width, md)
	if it.kind != itemTool || it.done {
		it.cache, it.cacheWidth, it.cacheExpanded = s, width, it.expanded
	}
	return s
}

func (it *item) draw(t theme, width int, md func(string) string) string {
	switch it.kind {
	case itemUser:
		lines := strings.Split(strings.TrimRight(it.text, "\n"), "\n")
		for i, l := range lines {
			prefix := "  "
			if i == 0 {
				prefix = "> "
			}
			lines[i] = t.user.Render(prefix) + wrapLine(l, width-2)
		}
		return strings.Join(lines, "\n")
	case itemAssistant:
		if md != nil {
			return strings.TrimRight(md(it.text), "\n")
		}
		return wrapText(it.text, width)
	case itemNotice:
		return t.warn.Render("· ") + t.dim.Render(wrapText(it.text, width-2))
	case itemCommand:
		return strings.TrimRight(it.text, "\n")
	case itemTool:
		return it.renderCard(t, width)
	}
	return ""
}

// renderCard draws a tool call: a header line (tool, arguments, status,
// duration) and, collapsed, a few lines of its diff or output.
func (it *item) renderCard(t theme, width int) string {
	var status string
	switch {
	case !it.done:
		status = t.warn.Render("running " + formatDuration(time.Since(it.start)))
	case it.isError:
		status = t.fail.Render("✗ error") + t.dim.Render(" · "+formatDuration(it.dur))
	default:
		status = t.ok.Render("✓") + t.dim.Render(" "+formatDuration(it.dur))
	}
	bullet := t.accent.Render("● ")
	args := summarizeInput(it.tool, it.input)
	head := bullet + t.accent.Render(it.tool)
	room := width - ansi.StringWidth(head) - ansi.StringWidth(status) - 4
	if args != "" && room > 8 {
		head += t.dim.Render("(" + ansi.Truncate(args, room, "…") + ")")
	}
	head += "  " + status

	body := it.cardBody(t)
	if len(body) == 0 {
		return head
	}
	limit := len(body)
	if !it.expanded && limit > cardLines {
		limit = cardLines
	}
	var b strings.Builder
	b.WriteString(head)
	for i, l := range body[:limit] {
		gutter := "  ⎿ "
		if i > 0 {
			gutter = "    "
		}
		b.WriteString("\n" + t.dim.Render(gutter) + ansi.Truncate(l, max(10, width-4), "…"))
	}
	if limit < len(body) {
		b.WriteString("\n" + t.dim.Render(fmt.Sprintf("    … %d more lines (ctrl+o to see the transcript, enter there expands)", len(body)-limit)))
	}
	return b.String()
}

// cardBody is what a card shows under its header, already styled: a
// coloured diff for edits, ranked candidates for Locate, else the output.
func (it *item) cardBody(t theme) []string {
	if it.isError || !it.done {
		if it.output == "" {
			return nil
		}
		return styleLines(splitLines(it.output), t.fail)
	}
	switch it.tool {
	case "Edit", "Write", "EditFunction", "MultiEdit":
		if d := it.diff(); d != "" {
			return colourDiff(t, d)
		}
	case "Locate":
		if rows := locateRows(t, it.output); len(rows) > 0 {
			return rows
		}
	}
	return styleLines(splitLines(it.output), t.dim)
}

// diff is the change an edit tool made, from its input: Edit's old and new
// strings, Write's new content, EditFunction's new source.
func (it *item) diff() string {
	var in struct {
		FilePath  string `json:"file_path"`
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
		Content   string `json:"content"`
		Name      string `json:"name"`
		NewSource string `json:"new_source"`
	}
	if json.Unmarshal(it.input, &in) != nil {
		return ""
	}
	switch it.tool {
	case "Edit":
		return edit.Diff(in.FilePath, in.FilePath, []byte(in.OldString), []byte(in.NewString))
	case "Write":
		return edit.Diff("/dev/null", in.FilePath, nil, []byte(in.Content))
	case "EditFunction":
		return edit.Diff(in.Name, in.Name, nil, []byte(in.NewSource))
	}
	return ""
}

func colourDiff(t theme, d string) []string {
	var out []string
	for _, l := range splitLines(d) {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, `\ No newline`):
			continue
		case strings.HasPrefix(l, "@@"):
			out = append(out, t.hunk.Render(l))
		case strings.HasPrefix(l, "+"):
			out = append(out, t.add.Render(l))
		case strings.HasPrefix(l, "-"):
			out = append(out, t.del.Render(l))
		default:
			out = append(out, t.dim.Render(l))
		}
	}
	return out
}

// locateLine is one line of the Locate tool's result:
// "1. path:start-end qname kind score (signals)".
var locateLine = regexp.MustCompile(`^(\d+)\. (\S+):(\d+)-\d+ (\S+) (\S+) ([0-9.]+)(?: \((.*)\))?$`)

// locateRows draws Locate's ranking as rows with a score bar each.
func locateRows(t theme, out string) []string {
	var rows []string
	for _, l := range splitLines(out) {
		m := locateLine.FindStringSubmatch(l)
		if m == nil {
			if strings.HasPrefix(l, "Files:") || strings.HasPrefix(l, "Note:") {
				rows = append(rows, t.dim.Render(l))
			}
			continue
		}
		score, _ := strconv.ParseFloat(m[6], 64)
		bar := strings.Repeat("█", int(min(1, max(0, score))*8+0.5))
		row := fmt.Sprintf("%2s. %-8s %s %s  %s:%s", m[1], t.ok.Render(fmt.Sprintf("%-8s", bar)), t.dim.Render(m[6]), t.accent.Render(m[4]), m[2], m[3])
		if m[7] != "" {
			row += t.dim.Render("  " + m[7])
		}
		rows = append(rows, row)
	}
	return rows
}

// summarizeInput names a call's main argument the way a user reads it.
func summarizeInput(tool string, input json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return ""
	}
	for _, k := range []string{"command", "file_path", "name", "pattern", "task", "url", "description", "skill", "query", "path"} {
		if v, ok := m[k].(string); ok && v != "" {
			return oneLine(v)
		}
	}
	if tool == "TodoWrite" {
		if l, ok := m["todos"].([]any); ok {
			return fmt.Sprintf("%d items", len(l))
		}
	}
	b, _ := json.Marshal(m)
	return oneLine(string(b))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func splitLines(s string) []string {
	s = strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func styleLines(lines []string, st interface{ Render(...string) string }) []string {
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// wrapText wraps plain text to width, keeping its line breaks.
func wrapText(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = wrapLine(l, width)
	}
	return strings.Join(lines, "\n")
}

func wrapLine(l string, width int) string {
	if width < 10 {
		return l
	}
	return ansi.Wrap(l, width, " ")
}

func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
