package session

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grit-dev/grit/internal/provider"
)

var updateCompact = flag.Bool("update-compact", false, "rewrite testdata/compact_prompt.golden")

func TestReserveAndThreshold(t *testing.T) {
	tests := []struct {
		window, reserve, threshold int
	}{
		{0, 0, 0},
		{3_000, 1_500, 1_500},
		{4_096, 2_000, 2_096},
		{8_192, 2_000, 6_192},
		{32_768, 6_553, 26_215},
		{128_000, 13_000, 115_000},
		{200_000, 13_000, 187_000},
	}
	for _, tc := range tests {
		if got := Reserve(tc.window); got != tc.reserve {
			t.Errorf("Reserve(%d) = %d, want %d", tc.window, got, tc.reserve)
		}
		if got := Threshold(tc.window); got != tc.threshold {
			t.Errorf("Threshold(%d) = %d, want %d", tc.window, got, tc.threshold)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 1},
		{strings.Repeat("x", 36), 10},
		{strings.Repeat("x", 37), 11},
	}
	for _, tc := range tests {
		if got := EstimateTokens(tc.in); got != tc.want {
			t.Errorf("EstimateTokens(%d bytes) = %d, want %d", len(tc.in), got, tc.want)
		}
	}
}

func TestCompactPromptGolden(t *testing.T) {
	got, err := CompactPrompt("the failing test in parser.go", 1000)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "compact_prompt.golden")
	if *updateCompact {
		if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update-compact to create it)", err)
	}
	if d := cmp.Diff(strings.TrimSpace(string(want)), got); d != "" {
		t.Errorf("CompactPrompt differs from %s (-want +got; -update-compact to accept):\n%s", golden, d)
	}
	plain, _ := CompactPrompt("", 10)
	if strings.Contains(plain, "focus on") {
		t.Errorf("CompactPrompt without focus mentions a focus:\n%s", plain)
	}
}

func text(role provider.Role, s string) provider.Message {
	return provider.Message{Role: role, Content: []provider.Block{{Type: provider.BlockText, Text: s}}}
}

func scripted(t *testing.T, turns string) *provider.Scripted {
	t.Helper()
	p, err := provider.ParseScripted("test", []byte(turns))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// conversation is a user prompt, a Read call and its big result.
func conversation(resultBytes int) []provider.Message {
	return []provider.Message{
		text(provider.RoleUser, "fix the failing test"),
		{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockToolUse, ID: "t1", Name: "Read", Input: []byte(`{"file_path":"big.go"}`)}}},
		{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockToolResult, ToolUseID: "t1", Content: strings.Repeat("x", resultBytes)}}},
	}
}

func TestShouldCompactThreshold(t *testing.T) {
	const window = 4_000 // threshold 2,000
	tests := []struct {
		name     string
		window   int
		overhead int
		msgs     []provider.Message
		last     provider.Usage
		want     bool
	}{
		{"unknown window never", 0, 0, conversation(100_000), provider.Usage{}, false},
		{"estimate under", window, 500, conversation(3_600), provider.Usage{}, false}, // 500 + ~1,020
		{"estimate over", window, 500, conversation(7_200), provider.Usage{}, true},   // 500 + ~2,020
		{"one message is never compacted", window, 3_000, conversation(0)[:1], provider.Usage{}, false},
		{"provider count over", window, 0, conversation(10), provider.Usage{InputTokens: 1_500, CacheReadTokens: 600}, true},
		{"provider count under", window, 0, conversation(10), provider.Usage{InputTokens: 900}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &Compactor{Window: tc.window, Overhead: func() int { return tc.overhead }}
			if got := c.ShouldCompact(tc.msgs, tc.last); got != tc.want {
				used, counted := c.Used(tc.msgs, tc.last)
				t.Errorf("ShouldCompact = %v, want %v (used %d, counted %v, threshold %d)", got, tc.want, used, counted, Threshold(tc.window))
			}
		})
	}
}

func TestCompactSummarizes(t *testing.T) {
	p := scripted(t, `{"turns":[{"content":[{"type":"text","text":"## Primary request\nfix the test"}],"stop_reason":"end_turn","usage":{"input_tokens":1200,"output_tokens":40}}]}`)
	reloaded := 0
	c := &Compactor{Window: 4_000, Provider: func() provider.Provider { return p }, Overhead: func() int { return 300 }, Reload: func() { reloaded++ }}
	msgs := conversation(7_200)
	if !c.ShouldCompact(msgs, provider.Usage{}) {
		t.Fatal("ShouldCompact = false, want true over the threshold")
	}
	c.SetFocus("the parser")
	out, err := c.Compact(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Role != provider.RoleUser || !strings.Contains(out[0].Text(), "## Primary request") || !strings.HasPrefix(out[0].Text(), SummaryPrefix) {
		t.Errorf("Compact = %+v, want one user message holding the summary", out)
	}
	if reloaded != 1 {
		t.Errorf("Reload ran %d times, want 1", reloaded)
	}
	reqs := p.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d summary requests, want 1", len(reqs))
	}
	r := reqs[0]
	if !strings.Contains(r.System, "focus on: the parser") || !strings.Contains(r.System, "Next step") {
		t.Errorf("summary system prompt lacks the focus or the sections:\n%s", r.System)
	}
	body := r.Messages[0].Text()
	if !strings.Contains(body, "USER: fix the failing test") || !strings.Contains(body, `ASSISTANT called Read {"file_path":"big.go"}`) || !strings.Contains(body, "RESULT of Read: xxx") {
		t.Errorf("summary request does not render the conversation:\n%.600s", body)
	}
	if r.MaxTokens != 1_500 {
		t.Errorf("summary MaxTokens = %d, want 1500 (3/4 of the 2,000 reserve)", r.MaxTokens)
	}
	if got := c.Spent(); got.InputTokens != 1200 {
		t.Errorf("Spent() = %+v, want the summary call's usage", got)
	}
	// The new window is under the threshold: no compaction before the next call.
	if c.ShouldCompact(out, provider.Usage{InputTokens: 1200, OutputTokens: 40}) {
		t.Errorf("ShouldCompact right after compaction = true, want false")
	}
}

func TestCompactStuckDoesNotLoop(t *testing.T) {
	// The summary plus the prefix is still over the threshold: the first
	// compaction keeps its result, the second refuses without a model call.
	big := strings.Repeat("summary ", 900) // ~2,000 tokens
	p := scripted(t, `{"turns":[{"content":[{"type":"text","text":"`+big+`"}],"stop_reason":"end_turn"}]}`)
	c := &Compactor{Window: 4_000, Provider: func() provider.Provider { return p }, Overhead: func() int { return 500 }}
	msgs := conversation(8_000)
	if !c.ShouldCompact(msgs, provider.Usage{}) {
		t.Fatal("ShouldCompact = false, want true")
	}
	out, err := c.Compact(context.Background(), msgs)
	if !errors.Is(err, ErrCompactionStuck) || len(out) != 1 {
		t.Fatalf("first Compact = %d messages, %v; want the summary and ErrCompactionStuck", len(out), err)
	}
	if !c.ShouldCompact(out, provider.Usage{}) {
		t.Fatal("ShouldCompact after a compaction that did not fit = false, want true (so Compact can say why it stops)")
	}
	_, err = c.Compact(context.Background(), out)
	if !errors.Is(err, ErrCompactionStuck) || !strings.Contains(err.Error(), "/clear") {
		t.Fatalf("second Compact error = %v, want ErrCompactionStuck naming /clear", err)
	}
	if n := len(p.Requests()); n != 1 {
		t.Errorf("summary calls = %d, want 1 (no ping-pong)", n)
	}
	// /clear empties the conversation: the guard lifts.
	c.Reset()
	if c.ShouldCompact([]provider.Message{text(provider.RoleUser, "hi")}, provider.Usage{}) {
		t.Errorf("ShouldCompact after Reset with a short conversation = true, want false")
	}
}

func TestCalibration(t *testing.T) {
	c := &Compactor{Window: 100_000, Overhead: func() int { return 1_000 }}
	msgs := []provider.Message{text(provider.RoleUser, strings.Repeat("y", 3_600))} // ~1,000 + framing
	c.ShouldCompact(msgs, provider.Usage{})
	est := 1_000 + EstimateMessages(msgs)
	// The provider counted twice the estimate for that request.
	msgs = append(msgs, text(provider.RoleAssistant, "ok"))
	c.ShouldCompact(msgs, provider.Usage{InputTokens: 2 * est})
	if s := c.Scale(); s < 1.99 || s > 2.01 {
		t.Errorf("Scale() = %.3f, want 2", s)
	}
	used, counted := c.Used(msgs, provider.Usage{InputTokens: 2 * est})
	if !counted || used != 2*est+2*EstimateMessages(msgs[1:]) {
		t.Errorf("Used = %d, %v; want the count %d plus the scaled estimate of the reply", used, counted, 2*est)
	}
}

func TestRenderTranscriptFits(t *testing.T) {
	var msgs []provider.Message
	msgs = append(msgs, text(provider.RoleUser, "FIRST the task"))
	for i := 0; i < 50; i++ {
		msgs = append(msgs, text(provider.RoleAssistant, strings.Repeat("step ", 100)))
	}
	msgs = append(msgs, text(provider.RoleUser, "LAST message"))
	got := RenderTranscript(msgs, 5_000)
	if len(got) > 5_000 {
		t.Errorf("RenderTranscript: %d bytes, want at most 5000", len(got))
	}
	for _, want := range []string{"FIRST the task", "LAST message", "earlier entries left out"} {
		if !strings.Contains(got, want) {
			t.Errorf("RenderTranscript lacks %q", want)
		}
	}
}
