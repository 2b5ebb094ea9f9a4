package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

// TestMarkdownPlain holds the layout of each kind of block, drawn without
// colour (NO_COLOR) at a width of 40 columns.
func TestMarkdownPlain(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"heading and paragraph", "## Fix\n\nThe **add** function\nsubtracts.", "## Fix\n\nThe add function subtracts."},
		{"wrap", "one two three four five six seven eight nine ten eleven twelve",
			"one two three four five six seven eight\nnine ten eleven twelve"},
		{"hard break", "a  \nb", "a\nb"},
		{"code span and link", "Run `go test` as [the guide](https://x.dev/g) says; see [https://x.dev](https://x.dev).",
			"Run go test as the guide\n(https://x.dev/g) says; see\nhttps://x.dev."},
		{"tight list, wrapped and nested", "- first item is long enough to wrap at forty columns\n  - nested\n- [x] done",
			"• first item is long enough to wrap at\n  forty columns\n  • nested\n• [x] done"},
		{"ordered list from 3", "3. c\n4. d", "3. c\n4. d"},
		{"loose list", "- a\n\n- b", "• a\n\n• b"},
		{"quote", "> quoted\n> text", "│ quoted text"},
		{"code block keeps lines, tabs as spaces", "```go\nfunc f() {\n\treturn 1 // a comment that is longer than the forty columns\n}\n```",
			"  func f() {\n      return 1 // a comment that is longer than the forty columns\n  }"},
		{"table", "| name | n |\n|---|--:|\n| add | 1 |\n| subtract | 22 |",
			"name     │  n\n─────────┼───\nadd      │  1\nsubtract │ 22"},
		{"rule and strikethrough", "~~old~~ new\n\n---", "old new\n\n────────────────────────────────────────"},
	} {
		th := newTheme(true)
		th.plain = true
		got, err := th.markdown(42).Render(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: Render(%q) (-want +got):\n%s", c.name, c.src, diff)
		}
	}
}

// TestMarkdownStyles checks that colour is added around the text, not
// into it, and that emphasis nested in emphasis is restored after the
// inner span ends.
func TestMarkdownStyles(t *testing.T) {
	th := newTheme(true)
	th.plain = false
	src := "*it **bold** it* and `x`\n\n- item with a line long enough to be wrapped by the renderer"
	got, err := th.markdown(42).Render(src)
	if err != nil {
		t.Fatal(err)
	}
	if want := "it bold it and x\n\n• item with a line long enough to be\n  wrapped by the renderer"; ansi.Strip(got) != want {
		t.Errorf("Render(%q) stripped of styles = %q, want %q", src, ansi.Strip(got), want)
	}
	if want := "\x1b[3mit \x1b[1mbold\x1b[m\x1b[3m it\x1b[m"; !strings.Contains(got, want) {
		t.Errorf("Render(%q) = %q, want the italic span reopened after the bold one: %q", src, got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %q is %d columns wide, want at most 40", l, w)
		}
	}
}
