package search

import "testing"

// TestNamedTestFileStaysDemoted: a report that links the test showing the
// bug ("tests/macros.rs doesn't cover this form") still wants the code that
// test exercises: the named test file keeps its demotion and the task does
// not become one about tests. A task that asks for test work lifts it.
func TestNamedTestFileStaysDemoted(t *testing.T) {
	files := map[string]string{
		"pkg/tests/test_macros.py": "from pkg.macros import expand_event\n\n\ndef test_event_literal_field_names():\n    assert expand_event('guid:x-request-id', 'abcdef')\n\n\ndef test_event_reserved_word_field_names():\n    assert expand_event('type', 'request')\n",
		"pkg/macros.py":            "def expand_event(name, value):\n    return {name: value}\n",
		"pkg/other.py":             "def unrelated():\n    return 1\n",
	}
	report := "String literal field names don't work in event macros\n" +
		"Field names that are string literals such as guid:x-request-id fail in expand_event.\n" +
		"pkg/tests/test_macros.py doesn't check the literal field names of events."
	res := searchRepo(t, files, report)
	if len(res.Files) < 2 || res.Files[0].Path != "pkg/macros.py" {
		t.Fatalf("files = %v, want pkg/macros.py first: a named test file is still a test", filePaths(res.Files))
	}
	for _, f := range res.Files {
		if f.Path == "pkg/tests/test_macros.py" && f.Signals.TestPenalty == 0 {
			t.Errorf("%s has no test penalty: naming a test does not make the task about tests", f.Path)
		}
	}

	asks := report + "\nPlease add tests for string literal field names."
	res = searchRepo(t, files, asks)
	if len(res.Files) == 0 || res.Files[0].Path != "pkg/tests/test_macros.py" {
		t.Errorf("files = %v, want the test file first when the task asks for tests", filePaths(res.Files))
	}
}
