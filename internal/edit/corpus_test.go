package edit

import (
	"context"
	"testing"
)

// TestCorpus runs the edit-robustness corpus through the monitor (lexical
// checks only: this package links no parser; app's test adds tree-sitter).
func TestCorpus(t *testing.T) {
	cases, err := Corpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Errorf("corpus has %d cases, want at least 40", len(cases))
	}
	res := Bench(context.Background(), cases, nil)
	for _, r := range res.Rows {
		if !r.Right {
			t.Errorf("%s (%s): Check = %s (%s), want %s", r.Case, r.Kind, r.Got, r.Reason, r.Expect)
		}
	}
	t.Logf("verdicts right: %d/%d; exact SEARCH/REPLACE failed to place %d/%d (%d of %d good replies)",
		res.Right, res.Cases, res.ExactFailed, res.Cases, res.ExactFailedGood, res.Good)
}
