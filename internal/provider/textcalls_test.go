package provider

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestParseAction(t *testing.T) {
	known := map[string]bool{"Read": true, "Bash": true}
	for _, tc := range []struct {
		name       string
		text       string
		wantOK     bool
		wantBefore string
		wantTool   string
		wantInput  string
	}{
		{"action block", "```action\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"x\"}}\n```", true, "", "Read", `{"file_path": "x"}`},
		{"prose before, kept", "Let me look.\n```action\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"x\"}}\n```\n", true, "Let me look.\n", "Read", `{"file_path": "x"}`},
		{"trailing prose, dropped", "```action\n{\"tool\": \"Bash\", \"input\": {\"command\": \"ls\"}}\n```\nResult: a.py b.py\n", true, "", "Bash", `{"command": "ls"}`},
		{"json fence, known tool", "```json\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"x\"}}\n```", true, "", "Read", `{"file_path": "x"}`},
		{"json fence, unknown tool", "```json\n{\"tool\": \"Fly\", \"input\": {}}\n```", false, "", "", ""},
		{"action fence, unknown tool goes to the tool layer", "```action\n{\"tool\": \"Fly\", \"input\": {}}\n```", true, "", "Fly", `{}`},
		{"single quotes are text", "```action\n{'tool': 'Read', 'input': {'file_path': 'x'}}\n```", false, "", "", ""},
		{"bare object", "  {\"tool\": \"Read\", \"input\": {\"file_path\": \"x\"}}\n", true, "", "Read", `{"file_path": "x"}`},
		{"bare object of an unknown tool is text", `{"tool": "nope", "input": {}}`, false, "", "", ""},
		{"unclosed fence at the end", "```action\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"x\"}}\n", true, "", "Read", `{"file_path": "x"}`},
		{"name and arguments as a string", "```action\n{\"name\": \"Bash\", \"arguments\": \"{\\\"command\\\": \\\"ls\\\"}\"}\n```", true, "", "Bash", `{"command": "ls"}`},
		{"missing input", "```action\n{\"tool\": \"Bash\"}\n```", true, "", "Bash", `{}`},
		{"input not an object", "```action\n{\"tool\": \"Bash\", \"input\": [1]}\n```", false, "", "", ""},
		{"junk after the JSON inside the fence", "```action\n{\"tool\": \"Bash\", \"input\": {\"command\": \"ls\"}}\n// list files\n```", true, "", "Bash", `{"command": "ls"}`},
		{"first of two blocks", "```action\n{\"tool\": \"Bash\", \"input\": {\"command\": \"ls\"}}\n```\n```action\n{\"tool\": \"Read\", \"input\": {}}\n```", true, "", "Bash", `{"command": "ls"}`},
		{"code block skipped", "Here:\n```python\nprint({\"tool\": \"Read\"})\n```\nNow:\n```action\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"a.py\"}}\n```", true, "Here:\n```python\nprint({\"tool\": \"Read\"})\n```\nNow:\n", "Read", `{"file_path": "a.py"}`},
		{"longer fence", "````action\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"x\"}}\n````", true, "", "Read", `{"file_path": "x"}`},
		{"plain answer", "The bug is in add.", false, "", "", ""},
		{"empty", "", false, "", "", ""},
		{"trailing comma is text", "```action\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"x\",}}\n```", false, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, a, ok := ParseAction(tc.text, known)
			if ok != tc.wantOK {
				t.Fatalf("ParseAction(%q) ok = %v, want %v (action %+v)", tc.text, ok, tc.wantOK, a)
			}
			if !ok {
				return
			}
			if before != tc.wantBefore || a.Tool != tc.wantTool || !jsonEqual(a.Input, []byte(tc.wantInput)) {
				t.Errorf("ParseAction(%q) = %q, {%s %s}, want %q, {%s %s}", tc.text, before, a.Tool, a.Input, tc.wantBefore, tc.wantTool, tc.wantInput)
			}
		})
	}
}

func TestTextCallsPromptGolden(t *testing.T) {
	got, err := RenderTextCallsPrompt(testTools)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "textcalls_prompt.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestTextCallsPromptGolden -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("rendered textcalls.md (-want +got):\n%s", d)
	}
}

// The text protocol end to end over a real provider: the action block in the
// reply becomes a tool_use; the next request carries it and its result as
// text, and no native tools.
func TestTextCallsRoundTrip(t *testing.T) {
	rec := loadRecording(t, "textcalls")
	srv := newReplayServer(t, rec.http(t, "action"), rec.http(t, "answer"))
	p, err := New("ollama:qwen2.5-coder:1.5b", Options{BaseURL: srv.URL, ContextWindow: 8192, ToolCalls: ToolCallsText})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*TextCalls); !ok || p.Name() != "ollama:qwen2.5-coder:1.5b" {
		t.Fatalf("New with ToolCalls text = %T %q, want *TextCalls named ollama:qwen2.5-coder:1.5b", p, p.Name())
	}
	ctx := context.Background()
	var ev collect
	req := &Request{System: "You are Grit.", Tools: testTools, Messages: readCalcTurns("")[:1]}
	resp, err := p.Send(ctx, req, ev.on)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{
		{Type: BlockText, Text: "I'll read the file.\n\n"},
		{Type: BlockToolUse, ID: "textcall_1", Name: "Read", Input: []byte(`{"file_path":"calc.py"}`)},
	}
	if d := cmp.Diff(want, resp.Content, cmp.Comparer(jsonEqual)); d != "" || resp.StopReason != StopToolUse {
		t.Errorf("first reply: stop %q, want tool_use; content (-want +got):\n%s", resp.StopReason, d)
	}
	if !contains(ev.events, Event{Type: "tool_use_start", Name: "Read"}) {
		t.Errorf("events = %v, want a tool_use_start for Read", ev.events)
	}

	req.Messages = append(req.Messages, resp.Message(), Message{Role: RoleUser, Content: []Block{
		{Type: BlockToolResult, ToolUseID: "textcall_1", Content: "def add(a, b):\n    return a - b\n"},
	}})
	resp, err = p.Send(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != StopEndTurn || resp.Message().Text() != "`add` subtracts: it should return a + b." {
		t.Errorf("second reply = %+v, want the answer with end_turn", resp)
	}

	prompt, _ := RenderTextCallsPrompt(testTools)
	wantBody := map[string]any{
		"model":   "qwen2.5-coder:1.5b",
		"stream":  true,
		"options": map[string]any{"num_ctx": float64(8192)},
		"messages": []any{
			map[string]any{"role": "system", "content": "You are Grit.\n\n" + prompt},
			map[string]any{"role": "user", "content": "Why does test_add fail?"},
			map[string]any{"role": "assistant", "content": "I'll read the file.\n\n\n\n```action\n{\"tool\": \"Read\", \"input\": {\"file_path\":\"calc.py\"}}\n```"},
			map[string]any{"role": "user", "content": "Result of Read:\n```\ndef add(a, b):\n    return a - b\n```"},
		},
	}
	if d := diffJSON(wantBody, srv.got()[1].decoded(t)); d != "" {
		t.Errorf("second request body (-want +got):\n%s", d)
	}
}

func TestTextCallsResultFence(t *testing.T) {
	got := formatResult("Read", "```go\nx\n```\n", true)
	want := "Error from Read:\n````\n```go\nx\n```\n````"
	if got != want {
		t.Errorf("formatResult = %q, want %q", got, want)
	}
	if !strings.HasPrefix(formatResult("", "ok", false), "Result:\n") {
		t.Errorf("formatResult without a name = %q, want it to start with Result:", formatResult("", "ok", false))
	}
}
