package mcp

import (
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/locate"
)

// Budgets, in tokens (estimated at four bytes a token, as the fix pipeline does).
const (
	DefaultBudget = 2000  // what a call gets when it names no budget: a screenful a model can afford
	MinBudget     = 200   // below this not even one candidate with its scores fits
	MaxBudget     = 50000 // a quarter of a large window; more is a dump, not an answer
	noteReserve   = 60    // kept free for the note that says what was cut
)

// estimateTokens approximates a token count (locate.Tokens: about four
// bytes per token for code and English).
func estimateTokens(s string) int { return locate.Tokens(s) }

// clampBudget turns a requested budget into one in [MinBudget, MaxBudget].
func clampBudget(b int) int {
	switch {
	case b <= 0:
		return DefaultBudget
	case b < MinBudget:
		return MinBudget
	case b > MaxBudget:
		return MaxBudget
	}
	return b
}

// answer builds a tool's text within a token budget. Parts are added whole or
// not at all; what did not fit is counted by kind and said in a closing note.
type answer struct {
	budget int
	b      strings.Builder
	cut    []string // "3 more candidates", in the order they were cut
}

func newAnswer(budget int) *answer { return &answer{budget: clampBudget(budget)} }

func (a *answer) used() int { return estimateTokens(a.b.String()) }

// room is how many tokens are left before the note's reserve.
func (a *answer) room() int { return a.budget - noteReserve - a.used() }

// add appends s if it fits; it reports whether it did.
func (a *answer) add(s string) bool {
	if estimateTokens(s) > a.room() {
		return false
	}
	a.b.WriteString(s)
	return true
}

// must appends s whatever the budget (headers, a single short error line).
func (a *answer) must(s string) { a.b.WriteString(s) }

// printf is add with formatting.
func (a *answer) printf(format string, args ...any) bool { return a.add(fmt.Sprintf(format, args...)) }

// cutf records that something was left out.
func (a *answer) cutf(format string, args ...any) {
	a.cut = append(a.cut, fmt.Sprintf(format, args...))
}

// text is the answer with its note.
func (a *answer) text() string {
	if len(a.cut) == 0 {
		return a.b.String()
	}
	out := a.b.String()
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out + fmt.Sprintf("[cut to fit the budget of %d tokens: %s not shown; call again with a larger budget (max %d) or a narrower question]\n",
		a.budget, strings.Join(a.cut, ", "), MaxBudget)
}

// truncateLines keeps the leading whole lines of src that fit in tokens and
// reports how many lines were dropped.
func truncateLines(src string, tokens int) (string, int) {
	if estimateTokens(src) <= tokens {
		return src, 0
	}
	lines := strings.SplitAfter(src, "\n")
	n, size := 0, 0
	for n < len(lines) && (size+len(lines[n])+3)/4 <= tokens {
		size += len(lines[n])
		n++
	}
	dropped := len(lines) - n
	if lines[len(lines)-1] == "" {
		dropped--
	}
	return strings.Join(lines[:n], ""), dropped
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
