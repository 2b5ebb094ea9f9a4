package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// mdRenderer renders the model's Markdown for the terminal: goldmark parses
// it (CommonMark with GFM tables, strikethrough and task lists) and this
// file draws the tree, wrapped to a width, in the theme's styles.
//
// Why not glamour: it highlights code blocks with chroma, whose lexers and
// styles are parsed from XML in package initialisation, and Go runs every
// linked package's init in every process. That was a quarter of the CPU of
// a no-change `grit index` (docs/performance-notes.md, 2026-12-03). Code
// blocks are drawn in one code colour instead.
type mdRenderer struct {
	th    theme
	width int
	md    goldmark.Markdown
}

// SGR attributes of the emphasis spans, which nest (bold inside italic);
// the stack of open ones is re-emitted after each reset.
const (
	sgrBold   = "1"
	sgrItalic = "3"
	sgrStrike = "9"
)

// codeIndent is how far code blocks are indented (they are not wrapped, so
// the indent is what sets them apart without colour); tabs in them become
// tabWidth spaces, which the width arithmetic of the terminal needs.
const (
	codeIndent = "  "
	tabWidth   = 4
)

// markdown returns a renderer for the given width in the theme's style.
func (t theme) markdown(width int) *mdRenderer {
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	return &mdRenderer{th: t, width: max(20, width-2), md: md}
}

// Render draws src: blocks separated by a blank line, no trailing padding.
func (r *mdRenderer) Render(src string) (string, error) {
	source := []byte(src)
	doc := r.md.Parser().Parse(text.NewReader(source))
	d := &mdDoc{r: r, src: source}
	return strings.Join(d.blocks(doc, r.width, false), "\n"), nil
}

// mdDoc is one rendering: the source the tree points into and the open
// emphasis spans of the inline run being drawn.
type mdDoc struct {
	r    *mdRenderer
	src  []byte
	sgr  []string
	line strings.Builder
}

// blocks draws n's children as blocks within width, separated by a blank
// line unless tight (the items of a tight list).
func (d *mdDoc) blocks(n ast.Node, width int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := d.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// block draws one block node within width.
func (d *mdDoc) block(n ast.Node, width int) []string {
	th := d.r.th
	switch n := n.(type) {
	case *ast.Heading:
		head := strings.Repeat("#", n.Level) + " " + ansi.Strip(d.inline(n))
		return d.style(th.accent, wrap(head, width))
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(d.inline(n), width)
	case *ast.List:
		return d.list(n, width)
	case *ast.Blockquote:
		lines := d.blocks(n, width-2, false)
		for i, l := range lines {
			lines[i] = d.paint(th.dim, "│") + " " + l
		}
		return lines
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		var lines []string
		for i := range n.Lines().Len() {
			seg := n.Lines().At(i)
			l := strings.TrimRight(string(seg.Value(d.src)), "\r\n")
			l = strings.ReplaceAll(l, "\t", strings.Repeat(" ", tabWidth))
			lines = append(lines, codeIndent+d.paint(th.code, l))
		}
		return lines
	case *ast.ThematicBreak:
		return []string{d.paint(th.dim, strings.Repeat("─", min(width, 40)))}
	case *ast.HTMLBlock:
		var lines []string
		for i := range n.Lines().Len() {
			seg := n.Lines().At(i)
			lines = append(lines, strings.TrimRight(string(seg.Value(d.src)), "\r\n"))
		}
		return lines
	case *east.Table:
		return d.table(n)
	}
	return d.blocks(n, width, false)
}

// list draws a list: each item's blocks after its marker, wrapped lines
// hanging under the item's text.
func (d *mdDoc) list(n *ast.List, width int) []string {
	var out []string
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		pad := strings.Repeat(" ", ansi.StringWidth(marker))
		lines := d.blocks(item, width-len(pad), n.IsTight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		for i, l := range lines {
			switch {
			case i == 0:
				l = d.paint(d.r.th.accent, marker) + l
			case l != "":
				l = pad + l
			}
			out = append(out, l)
		}
	}
	return out
}

// table draws a GFM table with its columns aligned; it is not wrapped.
func (d *mdDoc) table(n *east.Table) []string {
	var rows [][]string
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, d.inline(c))
		}
		rows = append(rows, cells)
	}
	widths := make([]int, len(n.Alignments))
	for _, cells := range rows {
		for i, c := range cells {
			if i < len(widths) {
				widths[i] = max(widths[i], ansi.StringWidth(c))
			}
		}
	}
	var out []string
	for ri, cells := range rows {
		parts := make([]string, len(widths))
		for i := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			gap := widths[i] - ansi.StringWidth(c)
			switch n.Alignments[i] {
			case east.AlignRight:
				c = strings.Repeat(" ", gap) + c
			case east.AlignCenter:
				c = strings.Repeat(" ", gap/2) + c + strings.Repeat(" ", gap-gap/2)
			default:
				c += strings.Repeat(" ", gap)
			}
			if ri == 0 {
				c = d.paint(d.r.th.accent, ansi.Strip(c))
			}
			parts[i] = c
		}
		out = append(out, strings.TrimRight(strings.Join(parts, d.paint(d.r.th.dim, " │ ")), " "))
		if ri == 0 {
			rule := make([]string, len(widths))
			for i, w := range widths {
				rule[i] = strings.Repeat("─", w)
			}
			out = append(out, d.paint(d.r.th.dim, strings.Join(rule, "─┼─")))
		}
	}
	return out
}

// inline draws n's inline children as one string (hard breaks as
// newlines), with the emphasis stack empty at both ends.
func (d *mdDoc) inline(n ast.Node) string {
	d.line.Reset()
	d.sgr = d.sgr[:0]
	d.inlines(n)
	return d.line.String()
}

func (d *mdDoc) inlines(n ast.Node) {
	th := d.r.th
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			d.line.Write(c.Segment.Value(d.src))
			switch {
			case c.HardLineBreak():
				d.line.WriteByte('\n')
			case c.SoftLineBreak():
				d.line.WriteByte(' ')
			}
		case *ast.String:
			d.line.Write(c.Value)
		case *ast.CodeSpan:
			d.leaf(th.code, string(d.rawText(c)))
		case *ast.Emphasis:
			attr := sgrItalic
			if c.Level >= 2 {
				attr = sgrBold
			}
			d.span(attr, c)
		case *east.Strikethrough:
			d.span(sgrStrike, c)
		case *east.TaskCheckBox:
			box := "[ ] "
			if c.IsChecked {
				box = "[x] "
			}
			d.line.WriteString(box)
		case *ast.Link:
			d.inlines(c)
			if dest := string(c.Destination); dest != "" && dest != ansi.Strip(string(d.rawText(c))) {
				d.line.WriteString(" ")
				d.leaf(th.dim, "("+dest+")")
			}
		case *ast.AutoLink:
			d.leaf(th.user, string(c.URL(d.src)))
		case *ast.Image:
			d.inlines(c)
			d.line.WriteString(" ")
			d.leaf(th.dim, "("+string(c.Destination)+")")
		case *ast.RawHTML:
			for i := range c.Segments.Len() {
				seg := c.Segments.At(i)
				d.line.Write(seg.Value(d.src))
			}
		default:
			d.inlines(c)
		}
	}
}

// rawText is the text of n's descendant Text nodes, unstyled.
func (d *mdDoc) rawText(n ast.Node) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b = append(b, t.Segment.Value(d.src)...)
			continue
		}
		b = append(b, d.rawText(c)...)
	}
	return b
}

// span draws n's children with attr added to the open emphasis.
func (d *mdDoc) span(attr string, n ast.Node) {
	if d.r.th.plain {
		d.inlines(n)
		return
	}
	d.sgr = append(d.sgr, attr)
	d.line.WriteString(sgr(attr))
	d.inlines(n)
	d.sgr = d.sgr[:len(d.sgr)-1]
	d.line.WriteString(ansi.ResetStyle)
	d.reopen()
}

// leaf draws s in style, then restores the open emphasis its reset ended.
func (d *mdDoc) leaf(st styler, s string) {
	d.line.WriteString(d.paint(st, s))
	d.reopen()
}

// sgr is the escape sequence that turns attrs on.
func sgr(attrs ...string) string { return "\x1b[" + strings.Join(attrs, ";") + "m" }

func (d *mdDoc) reopen() {
	if len(d.sgr) > 0 && !d.r.th.plain {
		d.line.WriteString(sgr(d.sgr...))
	}
}

// styler is what paint needs of a lipgloss.Style.
type styler interface{ Render(...string) string }

// paint styles s unless the theme is plain (NO_COLOR).
func (d *mdDoc) paint(st styler, s string) string {
	if d.r.th.plain || s == "" {
		return s
	}
	return st.Render(s)
}

// style paints each of lines.
func (d *mdDoc) style(st styler, lines []string) []string {
	for i, l := range lines {
		lines[i] = d.paint(st, l)
	}
	return lines
}

// wrap word-wraps s (which may hold styles and newlines) to width, breaking
// a word longer than a line.
func wrap(s string, width int) []string {
	return strings.Split(ansi.Wrap(s, max(width, 1), ""), "\n")
}
