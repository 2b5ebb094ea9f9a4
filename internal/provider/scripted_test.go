package provider

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const twoTurns = `{"turns": [
  {"content": [{"type": "text", "text": "Let me look at it."},
               {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "a.go"}}],
   "stop_reason": "tool_use", "usage": {"input_tokens": 100, "output_tokens": 20, "cache_read_input_tokens": 7}},
  {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}
]}`

func writeScript(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScriptedReplay(t *testing.T) {
	path := writeScript(t, twoTurns)
	p, err := NewScripted(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Name(), "scripted:"+path; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
	ctx := context.Background()
	var events []Event
	req := &Request{Model: "m", Messages: []Message{{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "hi"}}}}}
	resp, err := p.Send(ctx, req, func(e Event) { events = append(events, e) })
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != StopToolUse {
		t.Errorf("turn 1 stop = %q, want tool_use", resp.StopReason)
	}
	if want := (Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 7}); resp.Usage != want {
		t.Errorf("turn 1 usage = %+v, want %+v", resp.Usage, want)
	}
	if len(resp.Content) != 2 || resp.Content[1].Name != "Read" || string(resp.Content[1].Input) != `{"file_path": "a.go"}` {
		t.Errorf("turn 1 content = %+v", resp.Content)
	}
	var text strings.Builder
	for _, e := range events {
		if e.Type == "text_delta" {
			text.WriteString(e.Text)
		}
	}
	if got := text.String(); got != "Let me look at it." {
		t.Errorf("streamed text = %q, want the whole text block", got)
	}
	if n := len(events); n < 4 || events[n-2].Type != "tool_use_start" || events[n-1].Type != "message_stop" {
		t.Errorf("events = %+v, want deltas, tool_use_start, message_stop", events)
	}

	// The caller mutating its request afterwards must not change the record.
	req.Messages[0].Content[0].Text = "changed"
	if _, err := p.Send(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	_, err = p.Send(ctx, req, nil)
	if err == nil || err.Error() != "scripted provider: no turn left (2 used)" {
		t.Errorf("third Send error = %v, want no turn left (2 used)", err)
	}
	reqs := p.(*Scripted).Requests()
	if len(reqs) != 3 {
		t.Fatalf("Requests() has %d, want 3", len(reqs))
	}
	if got := reqs[0].Messages[0].Content[0].Text; got != "hi" {
		t.Errorf("recorded request 1 text = %q, want %q (a copy)", got, "hi")
	}
	if diff := cmp.Diff(reqs[1].Messages, reqs[2].Messages); diff != "" {
		t.Errorf("requests 2 and 3 differ: %s", diff)
	}
}

func TestScriptedHangReturnsPartial(t *testing.T) {
	p, err := ParseScripted("hang", []byte(`{"turns": [{"content": [{"type": "text", "text": "partial words"}], "stop_reason": "end_turn", "hang": true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := p.Send(ctx, &Request{}, func(e Event) {
		if e.Type == "text_delta" && e.Text == "words" {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Send error = %v, want context.Canceled", err)
	}
	if resp == nil || resp.Content[0].Text != "partial words" {
		t.Errorf("partial response = %+v, want the streamed text", resp)
	}
}

func TestScriptedParseErrors(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"syntax", `{"turns": [`, "parse"},
		{"no stop reason", `{"turns": [{"content": []}]}`, "no stop_reason"},
		{"bad block", `{"turns": [{"content": [{"type": "image"}], "stop_reason": "end_turn"}]}`, `unknown block type "image"`},
		{"tool_use without id", `{"turns": [{"content": [{"type": "tool_use", "name": "Bash"}], "stop_reason": "tool_use"}]}`, "needs id and name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseScripted("s.json", []byte(tt.script))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseScripted(%q) error = %v, want containing %q", tt.script, err, tt.want)
			}
		})
	}
	if _, err := NewScripted(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("NewScripted(missing) = nil error, want one")
	}
}

func TestScriptedConcurrent(t *testing.T) {
	var turns []string
	for range 50 {
		turns = append(turns, `{"content": [{"type": "text", "text": "x"}], "stop_reason": "end_turn"}`)
	}
	p, err := ParseScripted("c", []byte(`{"turns": [`+strings.Join(turns, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if _, err := p.Send(context.Background(), &Request{}, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if p.Used() != 50 || len(p.Requests()) != 50 {
		t.Errorf("after 50 concurrent sends: used %d, requests %d, want 50 and 50", p.Used(), len(p.Requests()))
	}
}
