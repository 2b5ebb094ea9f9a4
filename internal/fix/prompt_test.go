package fix

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden prompt files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", name, d)
	}
}

var samplePrompt = EditPrompt{
	Task:    "merge_headers should compare header names case-insensitively",
	Kind:    "method",
	Name:    "merge_headers",
	Path:    "net/session.py",
	Lang:    "python",
	Class:   "class Session:",
	Source:  "def merge_headers(self, extra, override=True):\n    merged = dict(self.headers)\n    for key, value in extra.items():\n        if key in merged and not override:\n            continue\n        merged[key] = value\n    return merged",
	Imports: []string{"from collections import OrderedDict"},
	Callees: []string{"def normalize(name: str) -> str"},
	Callers: []string{"net/session.py: def request(self, method, url, headers=None)", "net/adapters.py: def send(self, request)"},
}

func TestEditPromptGolden(t *testing.T) {
	system, user, tokens, err := samplePrompt.Render(DefaultPromptBudget)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "system.txt", system)
	golden(t, "edit.txt", user)
	if tokens != EstimateTokens(system)+EstimateTokens(user) {
		t.Errorf("Render tokens = %d, want the estimate of both prompts", tokens)
	}
	retry := samplePrompt
	retry.Feedback = "the tests still fail after your change."
	retry.TestOutput = "E   AssertionError: assert 'a' in {'A': 1}"
	_, user, _, err = retry.Render(DefaultPromptBudget)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "edit_retry.txt", user)
}

func TestEditPromptBudget(t *testing.T) {
	p := samplePrompt
	p.TestOutput = strings.Repeat("E   AssertionError: a long failure line that repeats\n", 400)
	_, user, tokens, err := p.Render(1000)
	if err != nil {
		t.Fatal(err)
	}
	if tokens > 1000 {
		t.Errorf("Render(1000) = %d tokens, want at most 1000", tokens)
	}
	for _, want := range []string{p.Task, p.Source, "E   AssertionError"} {
		if !strings.Contains(user, want) {
			t.Errorf("the trimmed prompt lost %q", want)
		}
	}
	if strings.Contains(user, "It is called by") {
		t.Errorf("callers should be the first context dropped over budget")
	}
}

func TestChoosePrompt(t *testing.T) {
	got, err := renderChoose("Clamp returns lo above hi", []ChooseOption{
		{Letter: "A", Name: "Clamp", Path: "calc.go", Snippet: "    func Clamp(v, lo, hi int) int {\n    \tif v < lo {\n    \t\treturn lo"},
		{Letter: "B", Name: "Scale", Path: "calc.go", Snippet: "    func Scale(v, k int) int {\n    \treturn Clamp(v*k, 0, 100)\n    }"},
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "choose.txt", got)
}

func TestParseChoice(t *testing.T) {
	tests := []struct {
		reply string
		n     int
		want  int
	}{
		{"A", 3, 0},
		{"B", 3, 1},
		{"C)", 3, 2},
		{"The answer is B.", 3, 1},
		{"Answer: C", 2, -1},
		{"I am not sure", 3, -1},
		{"b", 3, -1},
	}
	for _, tt := range tests {
		if got := parseChoice(tt.reply, tt.n); got != tt.want {
			t.Errorf("parseChoice(%q, %d) = %d, want %d", tt.reply, tt.n, got, tt.want)
		}
	}
}

func TestDetectTest(t *testing.T) {
	tests := []struct {
		file, want string
	}{
		{"go.mod", "go test ./..."},
		{"Cargo.toml", "cargo test"},
		{"package.json", "npm test"},
		{"pyproject.toml", "python3 -m pytest -q -x"},
		{"test_x.py", "python3 -m pytest -q -x"},
		{"README.md", ""},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, tt.file), nil, 0o644)
		if got := DetectTest(dir); got != tt.want {
			t.Errorf("DetectTest(dir with %s) = %q, want %q", tt.file, got, tt.want)
		}
	}
}

func TestTaskAllows(t *testing.T) {
	if !allowsSignatureChange("add a timeout parameter to fetch") || allowsSignatureChange("fetch crashes on empty input") {
		t.Errorf("allowsSignatureChange misreads tasks")
	}
	if !allowsShorter("remove the dead code in parse") || allowsShorter("parse is slow") {
		t.Errorf("allowsShorter misreads tasks")
	}
}
