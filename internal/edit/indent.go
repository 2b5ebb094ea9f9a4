package edit

import (
	"bytes"
	"strings"
)

// ConvertEOL rewrites text's line endings to eol ("\n" or "\r\n"), whatever
// mix it had.
func ConvertEOL(text []byte, eol string) []byte {
	lf := bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	if eol == "\n" {
		return lf
	}
	return bytes.ReplaceAll(lf, []byte("\n"), []byte(eol))
}

// leading is the run of spaces and tabs that starts line.
func leading(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// Dedent removes the longest whitespace prefix shared by every non-blank
// line of text (LF line endings expected).
func Dedent(text []byte) []byte {
	lines := strings.Split(string(text), "\n")
	prefix := commonIndent(string(text))
	if prefix == "" {
		return text
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = strings.TrimLeft(l, " \t")
			continue
		}
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return []byte(strings.Join(lines, "\n"))
}

// Reindent dedents text and prefixes every non-blank line with indent.
func Reindent(text []byte, indent string) []byte {
	text = Dedent(bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n")))
	if indent == "" {
		return text
	}
	lines := strings.Split(string(text), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = indent + l
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// indentStyle describes how a block indents: with tabs, or with Width spaces.
type indentStyle struct {
	Tabs  bool
	Width int // spaces per level; 0 if unknown
}

// detectIndent looks at the indentation steps between consecutive non-blank
// lines of text (LF endings) and guesses its style. ok is false when text has
// no indented line.
func detectIndent(text string) (st indentStyle, ok bool) {
	tabs, spaces := 0, 0
	counts := map[int]int{}
	prev := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := leading(l)
		switch {
		case strings.HasPrefix(ind, "\t"):
			tabs++
		case ind != "":
			spaces++
			if d := len(ind) - prev; d > 0 {
				counts[d]++
			}
		}
		if !strings.Contains(ind, "\t") {
			prev = len(ind)
		}
	}
	if tabs == 0 && spaces == 0 {
		return indentStyle{}, false
	}
	if tabs > spaces {
		return indentStyle{Tabs: true}, true
	}
	best := 0
	for w, n := range counts {
		if n > counts[best] || (n == counts[best] && w < best) {
			best = w
		}
	}
	return indentStyle{Width: best}, true
}

// convertIndent rewrites the leading whitespace of every line of text from
// style from to style to. Only leading whitespace changes.
func convertIndent(text string, from, to indentStyle) string {
	if from == to || (!from.Tabs && from.Width == 0) || (!to.Tabs && to.Width == 0) {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		ind := leading(l)
		if ind == "" {
			continue
		}
		// Measure the level in from's units; a tab counts as one level.
		level, rest := 0, 0
		for _, c := range ind {
			if c == '\t' {
				level++
			} else {
				rest++
			}
		}
		if from.Width > 0 {
			level += rest / from.Width
			rest %= from.Width
		}
		var b strings.Builder
		if to.Tabs {
			b.WriteString(strings.Repeat("\t", level))
		} else {
			b.WriteString(strings.Repeat(" ", level*to.Width))
		}
		b.WriteString(strings.Repeat(" ", rest))
		lines[i] = b.String() + l[len(ind):]
	}
	return strings.Join(lines, "\n")
}
