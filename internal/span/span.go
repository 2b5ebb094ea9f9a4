// Package span holds the coordinates every other package speaks in: paths
// relative to the repository root (always slash-separated), byte ranges
// [Start, End) into a file's exact bytes, and conversions between byte
// offsets and line/column positions.
//
// Invariant: offsets are tree-sitter byte offsets. Nothing in Grit does
// character-index arithmetic; a column is a byte column unless a function
// says it converts (Runes, UTF16).
package span

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Range is a half-open byte range [Start, End) into a file.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Len is the number of bytes in the range.
func (r Range) Len() int { return r.End - r.Start }

// Valid reports whether r lies within a buffer of n bytes.
func (r Range) Valid(n int) bool { return 0 <= r.Start && r.Start <= r.End && r.End <= n }

// Contains reports whether the byte offset off lies in r.
func (r Range) Contains(off int) bool { return r.Start <= off && off < r.End }

func (r Range) String() string { return fmt.Sprintf("[%d,%d)", r.Start, r.End) }

// Pos is a 1-based line and a 0-based byte column.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// ErrOutside is returned when a path lies outside the repository root.
var ErrOutside = errors.New("path is outside the repository")

// Rel returns p relative to root in slash form. p may be absolute or relative
// to root; an error wrapping ErrOutside is returned if it escapes root.
func Rel(root, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil {
		return "", fmt.Errorf("relative path of %s: %w", p, err)
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("%s: %w", p, ErrOutside)
	}
	return rel, nil
}

// Clean normalises a slash-separated repository path ("./a/../b" → "b").
func Clean(p string) string { return strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(p)), "/") }

// Lines indexes the line starts of a buffer for offset ↔ position lookups.
type Lines struct {
	starts []int // byte offset of the start of each line
	n      int
}

// NewLines scans src once.
func NewLines(src []byte) *Lines {
	starts := make([]int, 1, 64+len(src)/32)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return &Lines{starts: starts, n: len(src)}
}

// Count is the number of lines (a trailing newline opens an empty last line).
func (l *Lines) Count() int { return len(l.starts) }

// Pos converts a byte offset to a 1-based line and a 0-based byte column.
func (l *Lines) Pos(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > l.n {
		off = l.n
	}
	lo, hi := 0, len(l.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Pos{Line: lo + 1, Col: off - l.starts[lo]}
}

// Offset converts a 1-based line and byte column back to an offset, clamped to the buffer.
func (l *Lines) Offset(p Pos) int {
	if p.Line < 1 {
		return 0
	}
	if p.Line > len(l.starts) {
		return l.n
	}
	off := l.starts[p.Line-1] + p.Col
	if off > l.n {
		off = l.n
	}
	return off
}

// LineRange is the byte range of 1-based line n, without its line ending.
func (l *Lines) LineRange(src []byte, n int) Range {
	if n < 1 || n > len(l.starts) {
		return Range{l.n, l.n}
	}
	start := l.starts[n-1]
	end := l.n
	if n < len(l.starts) {
		end = l.starts[n] - 1
	}
	if end > start && src[end-1] == '\r' {
		end--
	}
	return Range{start, end}
}

// Runes is the number of runes in src[:off]: a column for clients that count characters.
func Runes(src []byte, off int) int { return utf8.RuneCount(src[:off]) }

// UTF16 is the number of UTF-16 code units in src[:off] (LSP and JavaScript columns).
func UTF16(src []byte, off int) int {
	n := 0
	for _, r := range string(src[:off]) {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
