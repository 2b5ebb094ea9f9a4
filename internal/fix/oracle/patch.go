package oracle

import (
	"fmt"
	"strconv"
	"strings"
)

// FilePatch is one file's part of a unified diff (git format).
type FilePatch struct {
	Old, New string // paths without a/ b/; "" for /dev/null
	Hunks    []Hunk
}

// Hunk is one @@ block: its old start line (1-based) and its lines, each
// prefixed ' ', '-' or '+'. NoEOLOld/NoEOLNew record "\ No newline at end
// of file" after the old or new side's last line.
type Hunk struct {
	OldStart           int
	Lines              []string
	NoEOLOld, NoEOLNew bool
}

// ParsePatch splits a git unified diff into its files.
func ParsePatch(patch string) ([]FilePatch, error) {
	var out []FilePatch
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	var cur *FilePatch
	var h *Hunk
	last := byte(0)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			out = append(out, FilePatch{})
			cur, h = &out[len(out)-1], nil
			if a, b, ok := gitPaths(l); ok {
				cur.Old, cur.New = a, b
			}
		case cur == nil:
			continue
		case h == nil && strings.HasPrefix(l, "--- "):
			cur.Old = diffPath(l[4:])
		case h == nil && strings.HasPrefix(l, "+++ "):
			cur.New = diffPath(l[4:])
		case strings.HasPrefix(l, "@@ "):
			start, err := hunkStart(l)
			if err != nil {
				return nil, fmt.Errorf("patch line %d: %w", i+1, err)
			}
			cur.Hunks = append(cur.Hunks, Hunk{OldStart: start})
			h = &cur.Hunks[len(cur.Hunks)-1]
		case h != nil && strings.HasPrefix(l, `\`):
			if last == '-' || last == ' ' {
				h.NoEOLOld = true
			}
			if last == '+' || last == ' ' {
				h.NoEOLNew = true
			}
		case h != nil && l != "" && (l[0] == ' ' || l[0] == '-' || l[0] == '+'):
			h.Lines = append(h.Lines, l)
			last = l[0]
		case h != nil && l == "" && i < len(lines)-1:
			h.Lines = append(h.Lines, " ") // a context line whose space was stripped
			last = ' '
		}
	}
	return out, nil
}

// gitPaths reads "diff --git a/X b/Y".
func gitPaths(l string) (string, string, bool) {
	rest := strings.TrimPrefix(l, "diff --git ")
	if !strings.HasPrefix(rest, "a/") {
		return "", "", false
	}
	i := strings.Index(rest, " b/")
	if i < 0 {
		return "", "", false
	}
	return rest[2:i], rest[i+3:], true
}

func diffPath(s string) string {
	s, _, _ = strings.Cut(s, "\t")
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		return s[2:]
	}
	return s
}

func hunkStart(l string) (int, error) {
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, fmt.Errorf("bad hunk header %q", l)
	}
	n, _, _ := strings.Cut(f[1][1:], ",")
	return strconv.Atoi(n)
}

// Apply applies fp's hunks to src (nil for a new file). Hunks are placed at
// their line numbers, or, when the old lines are not there, at the nearest
// place they match (as GNU patch does without fuzz).
func (fp FilePatch) Apply(src []byte) ([]byte, error) {
	text := string(src)
	endsNL := text == "" || strings.HasSuffix(text, "\n")
	var lines []string
	if text != "" {
		lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	var out []string
	pos := 0 // next unconsumed line of lines
	for hi, h := range fp.Hunks {
		var old, neu []string
		for _, l := range h.Lines {
			switch l[0] {
			case ' ':
				old, neu = append(old, l[1:]), append(neu, l[1:])
			case '-':
				old = append(old, l[1:])
			case '+':
				neu = append(neu, l[1:])
			}
		}
		at := h.OldStart - 1
		if len(old) == 0 {
			at = h.OldStart // a pure insertion after line OldStart
		}
		at = findLines(lines, old, at, pos)
		if at < 0 {
			return nil, fmt.Errorf("%s: hunk %d does not apply", fp.New, hi+1)
		}
		out = append(out, lines[pos:at]...)
		out = append(out, neu...)
		pos = at + len(old)
		if pos == len(lines) { // the hunk reaches the end: its new side decides the last newline
			endsNL = !h.NoEOLNew
		}
	}
	out = append(out, lines[pos:]...)
	res := strings.Join(out, "\n")
	if endsNL && len(out) > 0 {
		res += "\n"
	}
	return []byte(res), nil
}

// findLines finds old in lines at want, or the nearest offset at or after
// min where it matches; -1 if nowhere.
func findLines(lines, old []string, want, min int) int {
	match := func(at int) bool {
		if at < min || at+len(old) > len(lines) {
			return false
		}
		for i, l := range old {
			if lines[at+i] != l {
				return false
			}
		}
		return true
	}
	if want < min {
		want = min
	}
	for d := 0; d <= len(lines); d++ {
		if match(want + d) {
			return want + d
		}
		if d > 0 && match(want-d) {
			return want - d
		}
	}
	return -1
}
