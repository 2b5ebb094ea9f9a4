package fix

import (
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/index"
)

// TestRegionsOf cuts a file into the stretches no function touches: the
// top (docstring, imports, constant, class head), trimmed of blank lines;
// comment-only stretches are left out.
func TestRegionsOf(t *testing.T) {
	src := "\"\"\"Cart.\"\"\"\nimport math\n\nRATE = 0.2\n\n\nclass Cart:\n    currency = \"EUR\"\n\n    def add(self):\n        pass\n\n    # a comment only\n\n    def total(self):\n        return 0\n"
	def := func(name, kind, parent, text string) index.Def {
		i := strings.Index(src, text)
		return index.Def{Name: name, QName: name, Kind: kind, Parent: parent, Start: i, End: i + len(text), Signature: strings.SplitN(text, "\n", 2)[0]}
	}
	defs := []index.Def{
		def("Cart", index.KindClass, "", src[strings.Index(src, "class Cart:"):len(src)-1]),
		def("add", index.KindMethod, "Cart", "def add(self):\n        pass"),
		def("total", index.KindMethod, "Cart", "def total(self):\n        return 0"),
	}
	regs := regionsOf("cart.py", []byte(src), defs, "python")
	if len(regs) != 1 {
		t.Fatalf("regions: %+v", regs)
	}
	g := regs[0]
	if got := src[g.Start:g.End]; got != "\"\"\"Cart.\"\"\"\nimport math\n\nRATE = 0.2\n\n\nclass Cart:\n    currency = \"EUR\"" || g.StartLine != 1 || g.EndLine != 8 {
		t.Errorf("region %d-%d: %q", g.StartLine, g.EndLine, got)
	}
	if g.Label() != "lines 1-8 of cart.py (outside any function)" {
		t.Errorf("label %q", g.Label())
	}
}

// TestRegionsOfCutsLongRuns: a run longer than maxRegionLines is cut at a
// blank line, so each region fits the prompt.
func TestRegionsOfCutsLongRuns(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 2*maxRegionLines; i++ {
		b.WriteString("X = 1\n")
		if i%10 == 9 {
			b.WriteString("\n")
		}
	}
	regs := regionsOf("c.py", []byte(b.String()), nil, "python")
	if len(regs) < 2 {
		t.Fatalf("one region of %d lines", regs[0].EndLine-regs[0].StartLine+1)
	}
	for _, g := range regs {
		if n := g.EndLine - g.StartLine + 1; n > maxRegionLines {
			t.Errorf("region %d-%d has %d lines", g.StartLine, g.EndLine, n)
		}
	}
}
