package explore

import (
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/search"
)

// Trimming a pasted log: past maxLog bytes, only the lines around its stack
// frames and its end reach the search (the frames are the traceback signal;
// the rest of a CI log is noise that would swamp the task's words).
const (
	maxLog       = 32 << 10 // bytes of a task or traceback kept whole
	logTailLines = 20       // a log's last lines: the exception and its message
)

// TrimLog returns text unchanged when it is at most maxLog bytes; else the
// lines of its stack frames with one line either side (a Go frame's
// function line, a Python frame's source line) and its last logTailLines
// lines, with a note saying what was kept. A log without frames keeps its
// tail only.
func TrimLog(text string) (string, string) {
	if len(text) <= maxLog {
		return text, ""
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	keep := make([]bool, len(lines))
	frames := 0
	for i, l := range lines {
		if len(l) > 0 && len(search.ParseTraceback(l)) > 0 {
			frames++
			for j := max(0, i-1); j <= min(len(lines)-1, i+1); j++ {
				keep[j] = true
			}
		}
	}
	for j := max(0, len(lines)-logTailLines); j < len(lines); j++ {
		keep[j] = true
	}
	var b strings.Builder
	kept := 0
	for i, l := range lines {
		if keep[i] {
			b.WriteString(l)
			b.WriteByte('\n')
			kept++
		}
	}
	note := fmt.Sprintf("a %d KiB log was trimmed to its %d stack frames and last lines (%d of %d lines kept)",
		len(text)>>10, frames, kept, len(lines))
	return b.String(), note
}
