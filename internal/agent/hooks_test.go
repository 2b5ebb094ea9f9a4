package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/config"
)

func hookLayer(event, matcher, command string, timeout int) map[string][]config.Hook {
	return map[string][]config.Hook{event: {{Matcher: matcher, Hooks: []config.HookCommand{{Type: "command", Command: command, Timeout: timeout}}}}}
}

func newTestHooks(t *testing.T, layers ...HookLayer) (*CommandHooks, *[]string) {
	t.Helper()
	var logs []string
	h, err := NewHooks(HookOptions{Layers: layers, Dir: t.TempDir(), SessionID: "s1", TranscriptPath: "/t.jsonl", Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	return h, &logs
}

func TestHookOutcomes(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, command string
		timeout       int
		wantBlock     bool
		wantReason    string
		wantLogged    bool
	}{
		{name: "exit 0", command: "true"},
		{name: "exit 2 blocks with stderr", command: "echo 'tests still failing' >&2; exit 2", wantBlock: true, wantReason: "tests still failing"},
		{name: "json block", command: `echo '{"decision":"block","reason":"no rm"}'`, wantBlock: true, wantReason: "no rm"},
		{name: "json deny", command: `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"policy"}}'`, wantBlock: true, wantReason: "policy"},
		{name: "json approve", command: `echo '{"decision":"approve"}'`},
		// Only exit 2 blocks (Claude Code); other failures are shown, not blocking.
		{name: "timeout is shown", command: "sleep 30", timeout: 1, wantLogged: true},
		{name: "crash is shown", command: "kill -SEGV $$", wantLogged: true},
		{name: "exit 1 is shown", command: "echo broken >&2; exit 1", wantLogged: true},
		{name: "missing command is shown", command: "/nonexistent/hook", wantLogged: true},
		{name: "bad json is shown", command: "echo '{oops'", wantLogged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, logs := newTestHooks(t, HookLayer{Name: "user", Trusted: true, Hooks: hookLayer(EventPreToolUse, "Bash", tt.command, tt.timeout)})
			o, err := h.Fire(ctx, EventPreToolUse, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
			if err != nil {
				t.Fatal(err)
			}
			if o.Block != tt.wantBlock || !strings.Contains(o.Reason, tt.wantReason) {
				t.Errorf("Fire = %+v, want block %v with reason containing %q", o, tt.wantBlock, tt.wantReason)
			}
			if got := len(*logs) > 0; got != tt.wantLogged {
				t.Errorf("logged %q, want logged %v", *logs, tt.wantLogged)
			}
		})
	}
}

// The event reaches the hook as Claude Code sends it, and matchers are
// anchored regular expressions on the tool name.
func TestHookInputAndMatcher(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "stdin.json")
	h, _ := newTestHooks(t, HookLayer{Name: "user", Trusted: true, Hooks: hookLayer(EventPreToolUse, "Edit|Write", "cat > "+got, 0)})
	ctx := context.Background()
	h.Fire(ctx, EventPreToolUse, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if _, err := os.Stat(got); err == nil {
		t.Fatal("matcher Edit|Write ran for Bash")
	}
	h.Fire(ctx, EventPreToolUse, map[string]any{"tool_name": "MultiEditX"})
	if _, err := os.Stat(got); err == nil {
		t.Fatal("matcher is not anchored")
	}
	h.Fire(ctx, EventPreToolUse, map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "a.go", "content": "x"}})
	data, err := os.ReadFile(got)
	if err != nil {
		t.Fatal("hook did not run for Write")
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"session_id", "transcript_path", "cwd", "hook_event_name", "tool_name", "tool_input"} {
		if _, ok := in[k]; !ok {
			t.Errorf("hook input lacks %q: %s", k, data)
		}
	}
	if in["hook_event_name"] != EventPreToolUse {
		t.Errorf("hook_event_name = %v", in["hook_event_name"])
	}
}

// Stop hooks send the model back to work; prompt hooks add context.
func TestStopAndPromptHooks(t *testing.T) {
	ctx := context.Background()
	h, _ := newTestHooks(t,
		HookLayer{Name: "user", Trusted: true, Hooks: map[string][]config.Hook{
			EventStop:             {{Hooks: []config.HookCommand{{Type: "command", Command: `echo '{"decision":"block","reason":"tests still failing"}'`}}}},
			EventUserPromptSubmit: {{Hooks: []config.HookCommand{{Type: "command", Command: "echo 'branch: main'"}}}},
		}})
	o, err := h.Fire(ctx, EventStop, map[string]any{"stop_hook_active": false})
	if err != nil || !o.Block || o.Reason != "tests still failing" {
		t.Errorf("Stop: %+v, %v; want block with the reason", o, err)
	}
	o, _ = h.Fire(ctx, EventUserPromptSubmit, map[string]any{"prompt": "hi"})
	if o.Block || o.AdditionalContext != "branch: main" {
		t.Errorf("UserPromptSubmit: %+v, want additional context", o)
	}
}

// C10 and E1: hooks from an untrusted repository never run.
func TestUntrustedHooksNeverRun(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "pwned")
	layer := map[string][]config.Hook{}
	for _, ev := range []string{EventPreToolUse, EventPostToolUse, EventUserPromptSubmit, EventStop, EventSessionStart, EventPreCompact} {
		layer[ev] = []config.Hook{{Hooks: []config.HookCommand{{Type: "command", Command: "touch " + marker + "; exit 2"}}}}
	}
	h, logs := newTestHooks(t, HookLayer{Name: "project", Trusted: false, Hooks: layer})
	for ev := range layer {
		o, err := h.Fire(context.Background(), ev, map[string]any{"tool_name": "Bash"})
		if err != nil || o.Block {
			t.Errorf("Fire(%s) = %+v, %v; want nothing", ev, o, err)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an untrusted repository's hook ran")
	}
	if len(*logs) != 1 || !strings.Contains((*logs)[0], "not trusted") {
		t.Errorf("logs = %q, want one notice that the project hooks were ignored", *logs)
	}
}

func TestNewHooksErrors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		hooks map[string][]config.Hook
		want  string
	}{
		{"bad matcher", hookLayer(EventPreToolUse, "(", "true", 0), "matcher"},
	} {
		_, err := NewHooks(HookOptions{Layers: []HookLayer{{Name: "user", Trusted: true, Hooks: tt.hooks}}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: NewHooks error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// An event or a hook type Grit does not run is logged once and ignored: a
// Claude Code settings file always loads.
func TestHooksIgnoreUnknown(t *testing.T) {
	var logs []string
	layer := HookLayer{Name: "user", Trusted: true, Hooks: map[string][]config.Hook{
		"OnSave":  {{Hooks: []config.HookCommand{{Type: "command", Command: "true"}}}},
		EventStop: {{Hooks: []config.HookCommand{{Type: "prompt", Command: "x"}}}},
	}}
	_, err := NewHooks(HookOptions{Layers: []HookLayer{layer, layer}, Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatalf("NewHooks: %v", err)
	}
	joined := strings.Join(logs, "\n")
	if strings.Count(joined, `"OnSave"`) != 1 || strings.Count(joined, `"prompt"`) != 1 {
		t.Errorf("logs = %q, want one notice for the event OnSave and one for the type prompt", logs)
	}
}
