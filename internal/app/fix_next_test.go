package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/fix"
)

// TestFixDeclineThenNext: the model declines the function it is shown (NO
// CHANGE); the pipeline asks which untried candidate should change instead,
// spends no attempt on the decline, and edits the one picked.
func TestFixDeclineThenNext(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "pyprices", false)
	before := readFile(t, root, "eu.py")
	reply := "```python\ndef format_price(amount):\n    \"\"\"Format an amount with two decimals and the currency sign.\"\"\"\n    return \"$%.2f\" % amount\n```"
	p := scripted(t, "A", "NO CHANGE", "A", reply)
	rep := runFix(t, root, "format_price shows one decimal instead of two", p, FixOptions{Attempts: 1})
	if got := codes(rep); len(got) != 2 || got[0] != fix.CodeNoChange || got[1] != "ok" {
		t.Fatalf("verdicts %v, want [no_change ok]", got)
	}
	if rep.Status != fix.StatusFixed || rep.Attempts[0].Target != "eu.py:format_price" || rep.Attempts[1].Target != "us.py:format_price" {
		t.Fatalf("status %s, attempts %+v; want eu.py declined, us.py fixed", rep.Status, rep.Attempts)
	}
	q := p.Requests()[2].Messages[0].Text()
	for _, want := range []string{"eu.py:format_price needs no change for this task.", "Which function, or which lines outside a function, should change next", "A) format_price in us.py", "or N if none of them needs to change."} {
		if !strings.Contains(q, want) {
			t.Errorf("the next question lacks %q:\n%s", want, q)
		}
	}
	if strings.Contains(q, "in eu.py") {
		t.Errorf("the next question offers the declined function again:\n%s", q)
	}
	if !bytes.Contains(readFile(t, root, "us.py"), []byte(`"$%.2f" % amount`)) || !bytes.Equal(readFile(t, root, "eu.py"), before) {
		t.Errorf("us.py should be fixed and eu.py untouched")
	}
}
