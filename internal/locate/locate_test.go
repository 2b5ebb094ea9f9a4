package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/search"
)

func TestRequestN(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    int
		want int
	}{
		{"unset", 0, DefaultK},
		{"negative", -3, DefaultK},
		{"within", 7, 7},
		{"at cap", MaxK, MaxK},
		{"over cap", MaxK + 1, MaxK},
	} {
		if got := (Request{K: tc.k}).N(); got != tc.want {
			t.Errorf("%s: Request{K: %d}.N() = %d, want %d", tc.name, tc.k, got, tc.want)
		}
	}
}

func TestRequestEmpty(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Request
		want bool
	}{
		{"nothing", Request{}, true},
		{"blanks", Request{Task: " \n\t", Traceback: "  "}, true},
		{"task", Request{Task: "parse_url fails"}, false},
		{"traceback only", Request{Traceback: "File \"a.py\", line 3"}, false},
	} {
		if got := tc.r.Empty(); got != tc.want {
			t.Errorf("%s: Empty() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRequestFit: a budget keeps the best renderings that fit together,
// no budget keeps them all, and a budget too small for the best keeps none.
func TestRequestFit(t *testing.T) {
	hits := make([]search.Hit, 4)
	render := func(rank int, h search.Hit) string { return strings.Repeat("x", 38) + "\n" } // 39 bytes: 10 tokens
	for _, tc := range []struct {
		name   string
		budget int
		want   int
	}{
		{"no limit", 0, 4},
		{"two fit", 20, 2},
		{"two and a bit", 29, 2},
		{"three exactly", tokensIn(3 * 39), 3},
		{"all", 1000, 4},
		{"not even one", 9, 0},
	} {
		got := Request{Budget: tc.budget}.Fit(hits, render)
		if len(got) != tc.want {
			t.Errorf("%s: Request{Budget: %d}.Fit(4 hits of 10 tokens) kept %d, want %d", tc.name, tc.budget, len(got), tc.want)
		}
	}
	var ranks []int
	Request{}.Fit(hits, func(rank int, h search.Hit) string { ranks = append(ranks, rank); return "" })
	if fmt.Sprint(ranks) != "[1 2 3 4]" {
		t.Errorf("Fit passed ranks %v, want 1-based [1 2 3 4]", ranks)
	}
}
