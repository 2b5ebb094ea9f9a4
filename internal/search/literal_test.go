package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestExtractLiterals: hyphenated names in the reporter's prose are
// literals; options, pasted output, paths, numbers and short ranges are not.
func TestExtractLiterals(t *testing.T) {
	ex := ExtractIdents("Fix ``used-before-assignment`` false positive with --word-regexp.\n" +
		"The zh-cn en-us locales, see docs/how-to.md and 1-2 or a-b, color-mode=dark. Set Content-Type too.\n" +
		"```\n<Group rng-seed=\"1\" xml-format-version=\"3\"/>\n```\n")
	want := []string{"used-before-assignment", "zh-cn", "en-us", "Content-Type"}
	if !slices.Equal(ex.Literals, want) {
		t.Errorf("Literals = %q, want %q", ex.Literals, want)
	}
}

// TestSearchLiteralFindsItsEmitter: a message id the task quotes ranks the
// method that emits it and its file first, though the task's other words
// fit another checker better; a name quoted in many files counts nowhere.
func TestSearchLiteralFindsItsEmitter(t *testing.T) {
	files := map[string]string{
		"checkers/variables.py": "class VariablesChecker:\n    def visit_name(self, node):\n        if node.late:\n            self.add_message(\"used-before-assignment\", node=node)\n\n    def visit_del(self, node):\n        pass\n",
		"checkers/loops.py":     "class LoopChecker:\n    def visit_for(self, node):\n        # a name in a loop, an except block, else: continue\n        for name in node.loop_names:\n            self.check_except_block(name)\n",
	}
	for i := range 5 {
		files[fmt.Sprintf("common/m%d.py", i)] = "HEADER = \"content-type\"\n"
	}
	q := "``used-before-assignment`` is no longer emitted when using a name in a loop and an except block with else: continue."
	res := searchRepo(t, files, q)
	if got := filePaths(res.Files); len(got) == 0 || got[0] != "checkers/variables.py" {
		t.Fatalf("files = %v, want checkers/variables.py first", got)
	}
	if len(res.Hits) == 0 || res.Hits[0].Def.QName != "VariablesChecker.visit_name" {
		t.Fatalf("first hit = %+v, want VariablesChecker.visit_name", res.Hits)
	}
	if why := strings.Join(res.Hits[0].Explain, "\n"); !strings.Contains(why, "`used-before-assignment`") {
		t.Errorf("explanation %q does not name the literal", why)
	}
	common := searchRepo(t, files, "requests without a content-type header fail")
	for _, h := range common.Hits {
		if h.Signals.Traceback != 0 {
			t.Errorf("%s got %v from a literal quoted in five files", h.Def.Path, h.Signals.Traceback)
		}
	}
}
