package search

import (
	"slices"
	"testing"
)

// TestCodeFirst: demoted files (tests of a task not about tests,
// documentation) are listed after every code file, each part keeping its
// score order, and the score order itself is left as it was.
func TestCodeFirst(t *testing.T) {
	// By score: a test file that names everything first, then code.
	forder := []int{4, 0, 3, 1, 2}
	demoted := func(i int) bool { return i == 4 || i == 1 }
	got := codeFirst(forder, demoted)
	if want := []int{0, 3, 2, 4, 1}; !slices.Equal(got, want) {
		t.Errorf("codeFirst = %v, want %v", got, want)
	}
	if want := []int{4, 0, 3, 1, 2}; !slices.Equal(forder, want) {
		t.Errorf("forder changed to %v", forder)
	}
	none := func(int) bool { return false }
	if got := codeFirst(forder, none); !slices.Equal(got, forder) {
		t.Errorf("nothing demoted: codeFirst = %v, want the score order %v", got, forder)
	}
	if got := codeFirst(nil, none); len(got) != 0 {
		t.Errorf("no files: codeFirst = %v", got)
	}
}
