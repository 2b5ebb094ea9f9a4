package tui

import (
	"image/color"
	"os"

	"charm.land/lipgloss/v2"
)

// theme holds every style the interface draws with, chosen for the
// terminal's background; with NO_COLOR set all of them are plain.
type theme struct {
	dark, plain bool

	accent, dim, user, ok, fail, warn, add, del, hunk lipgloss.Style
	code                                              lipgloss.Style // code spans and blocks in Markdown
	border                                            lipgloss.Style
	bar                                               lipgloss.Style // the status line
}

func newTheme(dark bool) theme {
	plain := os.Getenv("NO_COLOR") != ""
	t := theme{dark: dark, plain: plain}
	if plain {
		s := lipgloss.NewStyle()
		t.accent, t.dim, t.user, t.ok, t.fail, t.warn = s.Bold(true), s, s.Bold(true), s, s.Bold(true), s
		t.add, t.del, t.hunk, t.bar, t.code = s, s, s, s, s
		t.border = s.Border(lipgloss.NormalBorder())
		return t
	}
	ld := lipgloss.LightDark(dark)
	c := func(light, darkc string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(darkc)) }
	s := lipgloss.NewStyle()
	t.accent = s.Foreground(c("#5A3FC0", "#A99BFF")).Bold(true)
	t.dim = s.Foreground(c("#6B6B6B", "#8A8A8A"))
	t.user = s.Foreground(c("#1F5FAF", "#7FB4FF")).Bold(true)
	t.ok = s.Foreground(c("#1E7B34", "#5FD27A"))
	t.fail = s.Foreground(c("#B3261E", "#FF6B6B")).Bold(true)
	t.warn = s.Foreground(c("#9A6700", "#F2C744"))
	t.add = s.Foreground(c("#1E7B34", "#5FD27A"))
	t.del = s.Foreground(c("#B3261E", "#FF7B7B"))
	t.hunk = s.Foreground(c("#5A3FC0", "#A99BFF"))
	t.border = s.Border(lipgloss.RoundedBorder()).BorderForeground(c("#5A3FC0", "#A99BFF"))
	t.bar = s.Foreground(c("#444444", "#BBBBBB"))
	t.code = s.Foreground(c("#9A3412", "#FFB86C"))
	return t
}
