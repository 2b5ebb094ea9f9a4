package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// echoTool is a tool without I/O: it returns its input.
type echoTool struct {
	name string
	mu   sync.Mutex
	runs []string
}

func (t *echoTool) Name() string            { return t.name }
func (t *echoTool) Description() string     { return "Echo the input." }
func (t *echoTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (t *echoTool) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	t.mu.Lock()
	t.runs = append(t.runs, canonical(input))
	t.mu.Unlock()
	return tool.Result{Content: t.name + " ran with " + canonical(input)}, nil
}

// script builds a scripted provider from turns written as Go values.
func script(t testing.TB, turns ...map[string]any) *provider.Scripted {
	t.Helper()
	data, err := json.Marshal(map[string]any{"turns": turns})
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider.ParseScripted("test", data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
func call(id, name string, input any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}
func turn(stop string, blocks ...map[string]any) map[string]any {
	return map[string]any{"content": blocks, "stop_reason": stop, "usage": map[string]int{"input_tokens": 10, "output_tokens": 2}}
}

func newAgent(t testing.TB, p provider.Provider, opts Options) (*Agent, *echoTool) {
	t.Helper()
	echo := &echoTool{name: "Echo"}
	opts.Provider = p
	if opts.Tools == nil {
		opts.Tools = tool.NewRegistry(echo)
	}
	opts.System = "test system prompt"
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return a, echo
}

func lastUserBlocks(r provider.Request) []provider.Block {
	return r.Messages[len(r.Messages)-1].Content
}

func TestToolCallsAnsweredInOrder(t *testing.T) {
	p := script(t,
		turn("tool_use", text("Three at once."), call("a", "Echo", map[string]int{"n": 1}), call("b", "Echo", map[string]int{"n": 2}), call("c", "Nope", map[string]int{})),
		turn("end_turn", text("All done.")),
	)
	var kinds []EventKind
	a, echo := newAgent(t, p, Options{OnEvent: func(e Event) { kinds = append(kinds, e.Kind) }})
	res, err := a.Run(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if res.Subtype != SubtypeSuccess || res.Text != "All done." || res.Turns != 2 || res.IsError {
		t.Errorf("Run = %+v, want success with the final text after 2 calls", res)
	}
	if res.Usage != (provider.Usage{InputTokens: 20, OutputTokens: 4}) {
		t.Errorf("usage = %+v, want the sum of both calls", res.Usage)
	}
	if len(echo.runs) != 2 || echo.runs[0] != `{"n":1}` || echo.runs[1] != `{"n":2}` {
		t.Errorf("Echo runs = %q, want n=1 then n=2", echo.runs)
	}
	reqs := p.Requests()
	results := lastUserBlocks(reqs[1])
	if len(results) != 3 {
		t.Fatalf("second request's last message has %d blocks, want 3 tool_results", len(results))
	}
	for i, id := range []string{"a", "b", "c"} {
		if results[i].Type != provider.BlockToolResult || results[i].ToolUseID != id {
			t.Errorf("result %d = %+v, want tool_result for %s", i, results[i], id)
		}
	}
	if !results[2].IsError || !strings.Contains(results[2].Content, `Unknown tool "Nope"`) {
		t.Errorf("unknown tool result = %+v, want an error naming it", results[2])
	}
	if reqs[0].System != "test system prompt" || len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Name != "Echo" {
		t.Errorf("request 1 system %q tools %+v, want the system prompt and Echo", reqs[0].System, reqs[0].Tools)
	}
	want := []EventKind{KindTextDelta, KindTextDelta, KindTextDelta, KindToolStart, KindToolStart, KindToolStart, KindUsage, KindAssistant, KindToolUse, KindToolUse, KindToolResults, KindTextDelta, KindTextDelta, KindUsage, KindAssistant}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("events = %v, want %v", kinds, want)
	}
}

func TestLoopDetection(t *testing.T) {
	var turns []map[string]any
	for i := range 8 {
		turns = append(turns, turn("tool_use", call(fmt.Sprint("t", i), "Echo", map[string]any{"b": 1, "a": "same"})))
	}
	p := script(t, turns...)
	a, echo := newAgent(t, p, Options{})
	res, err := a.Run(context.Background(), "loop please")
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Text, "loop") || res.Turns != LoopRepeats+1 {
		t.Errorf("Run = %+v, want a loop explanation after %d calls", res, LoopRepeats+1)
	}
	if len(echo.runs) != LoopRepeats {
		t.Errorf("Echo ran %d times, want %d (the repeat past the limit is not run)", len(echo.runs), LoopRepeats)
	}
	msgs := a.Messages()
	last := msgs[len(msgs)-1]
	if last.Content[0].ToolUseID != "t5" || !strings.HasPrefix(last.Content[0].Content, "Not run") {
		t.Errorf("last message = %+v, want the stopped call answered as not run", last)
	}
}

func TestLoopDetectorWindow(t *testing.T) {
	var l loopDetector
	in := json.RawMessage(`{"x":1}`)
	other := json.RawMessage(`{"x":2}`)
	// Alternating calls never exceed 5 of the last 10.
	for i := range 30 {
		input := in
		if i%2 == 1 {
			input = other
		}
		if n := l.see("Read", input); n > LoopRepeats {
			t.Fatalf("step %d: alternating calls counted %d in the window", i, n)
		}
	}
	// Key order and spacing do not make a different call.
	var m loopDetector
	m.see("Read", json.RawMessage(`{"a":1,"b":2}`))
	if n := m.see("Read", json.RawMessage(`{ "b": 2, "a": 1 }`)); n != 2 {
		t.Errorf("canonical inputs counted %d, want 2", n)
	}
}

func TestMaxTokensContinues(t *testing.T) {
	p := script(t,
		turn("max_tokens", text("The answer is 4"), call("cut", "Echo", map[string]any{})),
		turn("end_turn", text("2.")),
	)
	a, echo := newAgent(t, p, Options{})
	res, err := a.Run(context.Background(), "what is 6*7")
	if err != nil {
		t.Fatal(err)
	}
	if res.Subtype != SubtypeSuccess || res.Text != "2." {
		t.Errorf("Run = %+v, want success after the continuation", res)
	}
	if len(echo.runs) != 0 {
		t.Errorf("a tool call cut by max_tokens ran %d times, want 0", len(echo.runs))
	}
	req := p.Requests()[1]
	n := len(req.Messages)
	if got := req.Messages[n-2]; got.Role != provider.RoleAssistant || got.Text() != "The answer is 4" || len(got.Content) != 1 {
		t.Errorf("continued request keeps %+v, want the partial text only", got)
	}
	if got := req.Messages[n-1].Text(); got != fmt.Sprintf(CutCallNudge, "Echo") {
		t.Errorf("last message = %q, want the cut-call nudge", got)
	}

	// Bounded: the limit hit again and again ends the turn.
	var turns []map[string]any
	for range MaxContinues + 2 {
		turns = append(turns, turn("max_tokens", text("more")))
	}
	b, _ := newAgent(t, script(t, turns...), Options{})
	res, err = b.Run(context.Background(), "long")
	if err == nil || !res.IsError || res.Turns != MaxContinues+1 {
		t.Errorf("endless max_tokens: Run = %+v, %v; want an error after %d calls", res, err, MaxContinues+1)
	}
}

func TestStopReasons(t *testing.T) {
	tests := []struct {
		name     string
		turn     map[string]any
		wantErr  bool
		wantText string
	}{
		{"refusal with text", turn("refusal", text("I can't help with that.")), true, "I can't help with that."},
		{"refusal empty", turn("refusal"), true, "The model refused"},
		{"unknown", turn("pause_turn", text("hm")), true, `reason "pause_turn"`},
		{"context window", turn("model_context_window_exceeded"), true, "model_context_window_exceeded"},
		{"end_turn", turn("end_turn", text("fine")), false, "fine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := newAgent(t, script(t, tt.turn), Options{})
			res, err := a.Run(context.Background(), "x")
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.wantErr || !strings.Contains(res.Text, tt.wantText) || res.Turns != 1 {
				t.Errorf("Run = %+v, want IsError=%v and text containing %q after one call", res, tt.wantErr, tt.wantText)
			}
		})
	}
}

func TestMaxTurns(t *testing.T) {
	var turns []map[string]any
	for i := range 5 {
		turns = append(turns, turn("tool_use", call(fmt.Sprint("t", i), "Echo", map[string]int{"i": i})))
	}
	a, _ := newAgent(t, script(t, turns...), Options{MaxTurns: 3})
	res, err := a.Run(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if res.Subtype != SubtypeMaxTurns || !res.IsError || res.Turns != 3 {
		t.Errorf("Run = %+v, want error_max_turns after 3 calls", res)
	}
}

type fixedGate struct{ d Decision }

func (g fixedGate) Check(ctx context.Context, c Call) Decision {
	return g.d
}

type answerAsker struct {
	ok    bool
	asked []string
}

func (a *answerAsker) Ask(ctx context.Context, c Call, reason string) (bool, error) {
	a.asked = append(a.asked, c.Tool+": "+reason)
	return a.ok, nil
}

func TestGate(t *testing.T) {
	bash := map[string]string{"command": "go test ./..."}
	tests := []struct {
		name     string
		gate     Decision
		asker    *answerAsker
		wantRuns int
		want     string
	}{
		{"allow", Decision{Behavior: Allow, Reason: ""}, nil, 1, "Echo ran"},
		{"deny", Decision{Behavior: Deny, Reason: "deny rule Echo in user settings"}, nil, 0, "denied: deny rule Echo"},
		{"headless ask", Decision{Behavior: Ask, Reason: "Echo runs commands"}, nil, 0, "--permission-mode"},
		{"ask approved", Decision{Behavior: Ask, Reason: "Echo runs commands"}, &answerAsker{ok: true}, 1, "Echo ran"},
		{"ask declined", Decision{Behavior: Ask, Reason: "Echo runs commands"}, &answerAsker{ok: false}, 0, "user declined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, turn("tool_use", call("t1", "Echo", bash)), turn("end_turn", text("ok")))
			opts := Options{Gate: fixedGate{tt.gate}}
			if tt.asker != nil {
				opts.Asker = tt.asker
			}
			a, echo := newAgent(t, p, opts)
			if _, err := a.Run(context.Background(), "x"); err != nil {
				t.Fatal(err)
			}
			if len(echo.runs) != tt.wantRuns {
				t.Errorf("tool ran %d times, want %d", len(echo.runs), tt.wantRuns)
			}
			got := lastUserBlocks(p.Requests()[1])[0]
			if !strings.Contains(got.Content, tt.want) || got.IsError != (tt.wantRuns == 0) {
				t.Errorf("tool_result = %+v, want containing %q", got, tt.want)
			}
			if tt.asker != nil && len(tt.asker.asked) != 1 {
				t.Errorf("asker asked %d times, want 1", len(tt.asker.asked))
			}
		})
	}
}

func TestHeadlessDenialSaysHowToAllow(t *testing.T) {
	msg := headlessDenial("Bash", json.RawMessage(`{"command":"npm test -- --watch"}`), Decision{Reason: "commands ask in default mode"})
	for _, want := range []string{"non-interactive", "--permission-mode bypassPermissions", `"Bash(npm:*)"`, "permissions.allow", "commands ask in default mode"} {
		if !strings.Contains(msg, want) {
			t.Errorf("headlessDenial = %q, want it to contain %q", msg, want)
		}
	}
	if msg := headlessDenial("Edit", json.RawMessage(`{}`), Decision{}); !strings.Contains(msg, "--permission-mode acceptEdits") {
		t.Errorf("headlessDenial(Edit) = %q, want acceptEdits suggested", msg)
	}
	// Issue 21, finding 10: no rule is offered where none helps, and an
	// untrusted repository's settings file is not the one named.
	if msg := headlessDenial("Bash", json.RawMessage(`{"command":"mv .git x"}`), Decision{Reason: "protected", Protected: true}); strings.Contains(msg, "Bash(mv:*)") || strings.Contains(msg, "--permission-mode") {
		t.Errorf("headlessDenial(protected) = %q, want no rule or mode suggested", msg)
	}
	if msg := headlessDenial("Bash", json.RawMessage(`{"command":"make"}`), Decision{RulesFile: "~/.config/grit/settings.json"}); !strings.Contains(msg, "in ~/.config/grit/settings.json") {
		t.Errorf("headlessDenial(untrusted) = %q, want the user's settings file named", msg)
	}
}

// recordingHooks records every event and blocks as told.
type recordingHooks struct {
	mu     sync.Mutex
	events []map[string]any
	block  map[string]int // event → how many times to block
	extra  map[string]string
}

func (h *recordingHooks) Fire(ctx context.Context, event string, input map[string]any) (HookOutcome, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	in := map[string]any{"hook_event_name": event}
	for k, v := range input {
		in[k] = v
	}
	h.events = append(h.events, in)
	out := HookOutcome{AdditionalContext: h.extra[event]}
	if h.block[event] > 0 {
		h.block[event]--
		out.Block = true
		out.Reason = event + " says no"
	}
	return out, nil
}

func TestHooks(t *testing.T) {
	p := script(t,
		turn("tool_use", call("t1", "Echo", map[string]int{"n": 1})),
		turn("end_turn", text("first stop")),
		turn("tool_use", call("t2", "Echo", map[string]int{"n": 2})),
		turn("end_turn", text("second stop")),
	)
	h := &recordingHooks{
		block: map[string]int{EventPreToolUse: 1, EventStop: 1},
		extra: map[string]string{EventUserPromptSubmit: "branch: main", EventSessionStart: "started"},
	}
	st, err := session.NewStore(t.TempDir(), "/w")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	a, echo := newAgent(t, p, Options{Hooks: h, Session: sess})
	res, err := a.Run(context.Background(), "do it")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "second stop" || res.Turns != 4 {
		t.Errorf("Run = %+v, want the reply after the Stop hook sent the model back", res)
	}
	if len(echo.runs) != 1 || echo.runs[0] != `{"n":2}` {
		t.Errorf("Echo runs = %q, want only n=2 (n=1 blocked by PreToolUse)", echo.runs)
	}
	reqs := p.Requests()
	if first := reqs[0].Messages[0].Text(); !strings.Contains(first, "started") || !strings.Contains(first, "branch: main") || !strings.Contains(first, "do it") {
		t.Errorf("first user message = %q, want hook context and the prompt", first)
	}
	if got := lastUserBlocks(reqs[1])[0].Content; got != "Blocked by a PreToolUse hook: PreToolUse says no" {
		t.Errorf("blocked tool_result = %q", got)
	}
	if got := reqs[2].Messages[len(reqs[2].Messages)-1].Text(); !strings.Contains(got, "Stop says no") {
		t.Errorf("after a Stop block the model gets %q, want the reason", got)
	}
	var names []string
	for _, e := range h.events {
		names = append(names, e["hook_event_name"].(string))
		if e["session_id"] != sess.ID || e["transcript_path"] != sess.Path {
			t.Errorf("%s payload = %v, want session_id and transcript_path", e["hook_event_name"], e)
		}
	}
	want := "[SessionStart UserPromptSubmit PreToolUse Stop PreToolUse PostToolUse Stop]"
	if fmt.Sprint(names) != want {
		t.Errorf("hook events = %v, want %s", names, want)
	}
	post := h.events[5]
	if post["tool_name"] != "Echo" || post["tool_response"].(map[string]any)["content"] != `Echo ran with {"n":2}` {
		t.Errorf("PostToolUse payload = %v", post)
	}
	if h.events[3]["stop_hook_active"] != false || h.events[6]["stop_hook_active"] != true {
		t.Errorf("stop_hook_active = %v then %v, want false then true", h.events[3]["stop_hook_active"], h.events[6]["stop_hook_active"])
	}
}

func TestInterruptKeepsPartialReply(t *testing.T) {
	p := script(t, map[string]any{"content": []any{text("I am halfway through")}, "stop_reason": "end_turn", "hang": true})
	st, err := session.NewStore(t.TempDir(), "/w")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, _ := newAgent(t, p, Options{Session: sess, OnEvent: func(e Event) {
		if e.Kind == KindTextDelta && e.Text == "through" {
			cancel()
		}
	}})
	res, err := a.Run(ctx, "start")
	if !errors.Is(err, context.Canceled) || !res.Interrupted {
		t.Fatalf("Run = %+v, %v; want interrupted with context.Canceled", res, err)
	}
	sess.Close()
	tr, err := st.Read(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Records[len(tr.Records)-1]
	if last.Type != session.TypeMessage || !last.Interrupted || last.Message.Text() != "I am halfway through" {
		t.Errorf("last record = %+v, want the partial reply marked interrupted", last)
	}
}

// slowTool blocks until canceled, like a long Bash command.
type slowTool struct{ started chan struct{} }

func (slowTool) Name() string            { return "Slow" }
func (slowTool) Description() string     { return "Wait." }
func (slowTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (s slowTool) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	close(s.started)
	<-ctx.Done()
	return tool.Result{}, ctx.Err()
}

func TestInterruptDuringToolAnswersEveryCall(t *testing.T) {
	p := script(t, turn("tool_use", call("s1", "Slow", map[string]any{}), call("s2", "Slow", map[string]any{})))
	slow := slowTool{started: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-slow.started; cancel() }()
	a, _ := newAgent(t, p, Options{Tools: tool.NewRegistry(slow)})
	res, err := a.Run(ctx, "x")
	if !errors.Is(err, context.Canceled) || !res.Interrupted {
		t.Fatalf("Run = %+v, %v; want interrupted", res, err)
	}
	msgs := a.Messages()
	last := msgs[len(msgs)-1]
	if len(last.Content) != 2 || last.Content[0].ToolUseID != "s1" || last.Content[1].ToolUseID != "s2" {
		t.Errorf("last message = %+v, want both calls answered", last)
	}
}

func TestWellFormed(t *testing.T) {
	u := func(s string) provider.Message { return textMessage(provider.RoleUser, s) }
	asst := provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockToolUse, ID: "x", Name: "Bash"}}}
	got := wellFormed([]provider.Message{u("a"), u("b"), {Role: provider.RoleAssistant}, asst, u("after crash")})
	if len(got) != 3 {
		t.Fatalf("wellFormed = %d messages, want 3: %+v", len(got), got)
	}
	if got[0].Text() != "ab" {
		t.Errorf("merged user text = %q, want ab", got[0].Text())
	}
	if b := got[2].Content[0]; b.Type != provider.BlockToolResult || b.ToolUseID != "x" || !b.IsError {
		t.Errorf("dangling tool_use answered by %+v, want an interrupted tool_result first", b)
	}
	if got[2].Content[1].Text != "after crash" {
		t.Errorf("user text after the synthesized result = %+v", got[2].Content)
	}
	// A dangling call at the very end gets its own user message.
	got = wellFormed([]provider.Message{u("a"), asst})
	if len(got) != 3 || got[2].Role != provider.RoleUser {
		t.Errorf("wellFormed(trailing call) = %+v, want a user message of results appended", got)
	}
}

func TestSessionRecordsEveryStep(t *testing.T) {
	p := script(t, turn("tool_use", call("t1", "Echo", map[string]int{"n": 1})), turn("end_turn", text("done")))
	st, err := session.NewStore(t.TempDir(), "/w")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Meta{Model: p.Name()})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := newAgent(t, p, Options{Session: sess})
	if _, err := a.Run(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	tr, err := st.Read(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range tr.Records {
		types = append(types, r.Type)
	}
	want := "[session message usage message message usage message]"
	if fmt.Sprint(types) != want {
		t.Errorf("records = %v, want %s", types, want)
	}
	if u := tr.Usage(); u.InputTokens != 20 {
		t.Errorf("recorded usage = %+v, want 20 input tokens", u)
	}

	// Resuming replays the conversation into the next request.
	p2 := script(t, turn("end_turn", text("again")))
	b, _ := newAgent(t, p2, Options{History: tr.Messages(), Resumed: true})
	if _, err := b.Run(context.Background(), "more"); err != nil {
		t.Fatal(err)
	}
	if n := len(p2.Requests()[0].Messages); n != 5 {
		t.Errorf("resumed request has %d messages, want 5 (4 old + the new prompt)", n)
	}
}

func TestProviderErrorEndsTurn(t *testing.T) {
	a, _ := newAgent(t, script(t), Options{})
	res, err := a.Run(context.Background(), "x")
	if err == nil || !strings.Contains(err.Error(), "no turn left") || res.Subtype != SubtypeDuringExecute || !res.IsError {
		t.Errorf("Run with an exhausted script = %+v, %v; want error_during_execution", res, err)
	}
}

// BenchmarkTurn measures the harness's own overhead for one turn of three
// model calls and two tool calls (scripted model, tools without I/O).
func BenchmarkTurn(b *testing.B) {
	turns := []map[string]any{
		turn("tool_use", text("Looking."), call("t1", "Echo", map[string]any{"file_path": "a.go"})),
		turn("tool_use", call("t2", "Echo", map[string]any{"command": "go test ./..."})),
		turn("end_turn", text("Fixed the off-by-one in a.go; tests pass.")),
	}
	data, _ := json.Marshal(map[string]any{"turns": turns})
	b.ReportAllocs()
	for b.Loop() {
		p, err := provider.ParseScripted("bench", data)
		if err != nil {
			b.Fatal(err)
		}
		a, err := New(Options{Provider: p, Tools: tool.NewRegistry(&echoTool{name: "Echo"}), System: "s", Gate: fixedGate{Decision{Behavior: Allow, Reason: ""}}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := a.Run(context.Background(), "fix it"); err != nil {
			b.Fatal(err)
		}
	}
}

// stuckTool blocks and ignores its context, like a read stuck in the kernel.
type stuckTool struct{ started, release chan struct{} }

func (stuckTool) Name() string            { return "Stuck" }
func (stuckTool) Description() string     { return "Hang." }
func (stuckTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (s stuckTool) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	close(s.started)
	<-s.release
	return tool.Result{Content: "late"}, nil
}

// TestInterruptStuckTool (issue 21, finding 4): cancelling the run ends it
// even when a tool call ignores its context.
func TestInterruptStuckTool(t *testing.T) {
	p := script(t, turn("tool_use", call("s1", "Stuck", map[string]any{})))
	stuck := stuckTool{started: make(chan struct{}), release: make(chan struct{})}
	defer close(stuck.release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-stuck.started; cancel() }()
	a, _ := newAgent(t, p, Options{Tools: tool.NewRegistry(stuck)})
	res, err := a.Run(ctx, "x")
	if !errors.Is(err, context.Canceled) || !res.Interrupted {
		t.Fatalf("Run = %+v, %v; want interrupted", res, err)
	}
}
