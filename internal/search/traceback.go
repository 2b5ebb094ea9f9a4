package search

import (
	"path"
	"sort"
	"strconv"
	"strings"
)

// Traceback styles, innermost-first or innermost-last.
var (
	// Python: `  File "sympy/core/mul.py", line 12, in flatten`
	pyFrameRE = lazyRegexp(`File "([^"]+)", line (\d+)(?:, in ([^\s]+))?`)
	// pytest long/short: `src/_pytest/main.py:123: in runtestprotocol` or
	// `src/_pytest/main.py:123: AssertionError`.
	pytestFrameRE = lazyRegexp(`^\s*([^\s:"'()]+\.py):(\d+):(?: in ([A-Za-z_][\w.<>]*)| \w*(?:Error|Exception|Warning|Failed|Exit|Interrupt)\b)`)
	// Go panic frame: `\t/home/u/src/pkg/file.go:123 +0x1d` after a
	// `pkg.(*T).Method(...)` line.
	goPanicFileRE = lazyRegexp(`^\s+(\S+\.go):(\d+)(?:\s+\+0x[0-9a-f]+)?\s*$`)
	goFuncLineRE  = lazyRegexp(`^([\w./*()-]+)\(.*\)$`)
	// go test failure: `    file_test.go:12: message`.
	goTestRE = lazyRegexp(`^\s+([\w./-]+_test\.go):(\d+): `)
	// JavaScript: `    at fn (src/a.js:10:5)` or `    at src/a.js:10:5`.
	jsFrameRE = lazyRegexp(`^\s*at (?:(.+?) \()?((?:file://)?[^\s()]+\.(?:[cm]?js|jsx|ts|tsx)):(\d+):(\d+)\)?\s*$`)
)

// ParseTraceback finds stack frames in text: Python tracebacks, pytest long
// and short output, Go panics and `go test` failures, and JavaScript stack
// traces. Depth 0 is the innermost frame of its trace. Frames are returned
// innermost first; Rel is left empty (Resolve fills it).
func ParseTraceback(text string) []Frame {
	type group struct {
		frames       []Frame
		innermostEnd bool // true when the trace lists the innermost frame last
	}
	var groups []*group
	var cur *group
	curStyle := ""
	flush := func() { cur, curStyle = nil, "" }
	start := func(style string, innermostEnd bool) *group {
		if cur == nil || curStyle != style {
			cur = &group{innermostEnd: innermostEnd}
			curStyle = style
			groups = append(groups, cur)
		}
		return cur
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "Traceback (most recent call last)") {
			flush()
		}
		if m := pyFrameRE().FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			g := start("python", true)
			g.frames = append(g.frames, Frame{Path: m[1], Line: n, Func: m[3]})
			continue
		}
		if m := pytestFrameRE().FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			g := start("pytest", true)
			g.frames = append(g.frames, Frame{Path: m[1], Line: n, Func: m[3]})
			continue
		}
		if m := goPanicFileRE().FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			fn := ""
			if i > 0 {
				if fm := goFuncLineRE().FindStringSubmatch(strings.TrimSpace(lines[i-1])); fm != nil {
					fn = goFuncName(fm[1])
				}
			}
			g := start("go", false)
			g.frames = append(g.frames, Frame{Path: m[1], Line: n, Func: fn})
			continue
		}
		if m := goTestRE().FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			g := start("gotest", false)
			g.frames = append(g.frames, Frame{Path: m[1], Line: n})
			continue
		}
		if m := jsFrameRE().FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			fn := m[1]
			if j := strings.LastIndexByte(fn, '.'); j >= 0 {
				fn = fn[j+1:]
			}
			g := start("js", false)
			g.frames = append(g.frames, Frame{Path: strings.TrimPrefix(m[2], "file://"), Line: n, Func: strings.TrimPrefix(fn, "async ")})
			continue
		}
		if strings.HasPrefix(line, "goroutine ") || strings.TrimSpace(line) == "" && curStyle == "js" {
			flush()
		}
	}
	var out []Frame
	for gi, g := range groups {
		n := len(g.frames)
		for i, f := range g.frames {
			f.Trace = gi
			if g.innermostEnd {
				f.Depth = n - 1 - i
			} else {
				f.Depth = i
			}
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Depth < out[j].Depth })
	return out
}

// goFuncName turns "github.com/x/y/pkg.(*T).Method" into "Method".
func goFuncName(s string) string {
	s = s[strings.LastIndexByte(s, '/')+1:]
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// ResolveFrames fills each frame's Rel with the repository file it names,
// matching the longest path suffix against files (slash-separated, relative).
// A written path with a directory must match at least two trailing
// components, so "/usr/lib/python3/json/decoder.py" does not land on a
// repository's own top-level decoder.py. Frames that resolve nowhere keep Rel "".
func ResolveFrames(frames []Frame, files map[string]bool) []Frame {
	out := make([]Frame, len(frames))
	for i, f := range frames {
		out[i] = f
		p := strings.ReplaceAll(f.Path, "\\", "/")
		p = path.Clean(p)
		parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
		min := 2
		if len(parts) == 1 {
			min = 1
		}
		for k := 0; k <= len(parts)-min; k++ {
			cand := strings.Join(parts[k:], "/")
			if files[cand] {
				out[i].Rel = cand
				break
			}
		}
	}
	return out
}

// StripFrameLines removes the frame lines of stack traces from text (the
// "File ..., line N, in f" and "path:line" lines): they are evidence for the
// traceback signal, and their function names must not count again as names
// written in the task. The source lines quoted under them stay.
func StripFrameLines(text string) string {
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		if pyFrameRE().MatchString(l) || pytestFrameRE().MatchString(l) || goPanicFileRE().MatchString(l) || jsFrameRE().MatchString(l) {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
