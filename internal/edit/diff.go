package edit

import (
	"fmt"
	"strings"
)

// diffOp is one line of an edit script.
type diffOp struct {
	kind byte // ' ', '-', '+'
	line string
}

// splitLines splits s into lines that keep their terminators, so a CRLF or
// a missing final newline shows up as a change.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// myers computes a shortest edit script from a to b with Myers' O(ND)
// algorithm (greedy forward search, then backtracking through the saved
// frontiers).
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	off := max + 1
	v := make([]int, 2*max+2)
	var trace [][]int
	var d int
search:
	for d = 0; d <= max; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insertion
			} else {
				x = v[off+k-1] + 1 // right: deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				break search
			}
		}
	}
	// Backtrack from (n, m) through the frontiers saved before each step.
	var ops []diffOp
	x, y := n, m
	for ; d > 0; d-- {
		vd := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && vd[off+k-1] < vd[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vd[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			ops = append(ops, diffOp{' ', a[x]})
		}
		if x == px {
			y--
			ops = append(ops, diffOp{'+', b[y]})
		} else {
			x--
			ops = append(ops, diffOp{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		ops = append(ops, diffOp{' ', a[x]})
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops
}

// Diff returns a unified diff (3 lines of context) from a to b, with
// "--- oldName" and "+++ newName" headers (pass "a/path", "b/path" for git's
// style), or "" if they are equal.
func Diff(oldName, newName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	ops := myers(splitLines(string(a)), splitLines(string(b)))
	const ctx = 3
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Line numbers (1-based) of each op in a and b.
	type pos struct{ ai, bi int }
	at := make([]pos, len(ops)+1)
	ai, bi := 1, 1
	for i, op := range ops {
		at[i] = pos{ai, bi}
		if op.kind != '+' {
			ai++
		}
		if op.kind != '-' {
			bi++
		}
	}
	at[len(ops)] = pos{ai, bi}
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk starts ctx lines before the change and extends while changes
		// are within 2*ctx lines of each other.
		start := max(i-ctx, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*ctx {
				break
			}
		}
		stop := min(end+ctx, len(ops))
		var na, nb int
		for _, op := range ops[start:stop] {
			if op.kind != '+' {
				na++
			}
			if op.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(at[start].ai, na), hunkRange(at[start].bi, nb))
		for _, op := range ops[start:stop] {
			out.WriteByte(op.kind)
			line := op.line
			if strings.HasSuffix(line, "\n") {
				out.WriteString(line)
			} else {
				out.WriteString(line)
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// LineChange is one run of changed lines between two texts: lines
// [OldStart, OldEnd) of the old text (0-based; equal for a pure insertion
// before line OldStart) become New (each line with its terminator).
type LineChange struct {
	OldStart, OldEnd int
	New              []string
}

// LineChanges lists the runs of changed lines from a to b, in order.
func LineChanges(a, b []byte) []LineChange {
	var out []LineChange
	var cur *LineChange
	x := 0 // lines of a consumed
	for _, op := range myers(splitLines(string(a)), splitLines(string(b))) {
		if op.kind == ' ' {
			cur = nil
			x++
			continue
		}
		if cur == nil {
			out = append(out, LineChange{OldStart: x, OldEnd: x})
			cur = &out[len(out)-1]
		}
		if op.kind == '-' {
			x++
			cur.OldEnd = x
		} else {
			cur.New = append(cur.New, op.line)
		}
	}
	return out
}
