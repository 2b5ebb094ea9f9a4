package provider

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func newTestAnthropic(t *testing.T, srv *replayServer) (*anthropicProvider, *[]time.Duration) {
	t.Helper()
	p, err := New("anthropic:claude-sonnet-4-5", Options{BaseURL: srv.URL, APIKey: "test-key", MaxRetries: 2, RetryBaseDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ap := p.(*anthropicProvider)
	return ap, recordSleeps(ap.retry)
}

func TestAnthropicStreamingText(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	srv := newReplayServer(t, rec.http(t, "text"))
	p, _ := newTestAnthropic(t, srv)
	var ev collect
	resp, err := p.Send(context.Background(), userSays("Why does test_add fail?"), ev.on)
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{
		Model:      "claude-sonnet-4-5-20250929",
		Content:    []Block{{Type: BlockText, Text: "The bug is in `add`: it subtracts."}},
		StopReason: StopEndTurn,
		Usage:      Usage{InputTokens: 12, OutputTokens: 14, CacheWriteTokens: 1830},
	}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("Send: response (-want +got):\n%s", d)
	}
	if got := ev.text(); got != want.Content[0].Text {
		t.Errorf("streamed text = %q, want %q", got, want.Content[0].Text)
	}
	if ts := ev.types(); len(ts) != 3 || ts[2] != "message_stop" {
		t.Errorf("event types = %v, want two text_delta then message_stop", ts)
	}
	reqs := srv.got()
	if len(reqs) != 1 || reqs[0].Path != "/v1/messages" || reqs[0].Header.Get("X-Api-Key") != "test-key" {
		t.Fatalf("requests = %+v, want one POST /v1/messages with x-api-key test-key", reqs)
	}
	body := reqs[0].decoded(t).(map[string]any)
	if body["stream"] != true || body["max_tokens"] != float64(anthropicDefaultMaxTokens) {
		t.Errorf("request body = %v, want stream true and max_tokens %d", body, anthropicDefaultMaxTokens)
	}
	if _, ok := body["system"]; ok {
		t.Errorf("request body has a system prompt, want none: %v", body)
	}
}

func TestAnthropicToolRoundTrip(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	srv := newReplayServer(t, rec.http(t, "tool_use"), rec.http(t, "cached"))
	p, _ := newTestAnthropic(t, srv)
	ctx := context.Background()

	var ev collect
	req := &Request{System: "You are Grit.", Tools: testTools, MaxTokens: 1024, CacheSystem: true,
		Messages: readCalcTurns("")[:1]}
	resp, err := p.Send(ctx, req, ev.on)
	if err != nil {
		t.Fatal(err)
	}
	wantContent := readCalcTurns("toolu_01T1x1fJ34qAmk2tNTrN7Up6")[1].Content
	if d := cmp.Diff(wantContent, resp.Content, cmp.Comparer(jsonEqual)); d != "" || resp.StopReason != StopToolUse {
		t.Errorf("first reply: stop %q, want tool_use; content (-want +got):\n%s", resp.StopReason, d)
	}
	if !contains(ev.events, Event{Type: "tool_use_start", Name: "Read"}) {
		t.Errorf("events = %v, want a tool_use_start for Read", ev.events)
	}

	req.Messages = readCalcTurns(resp.Content[1].ID)
	resp, err = p.Send(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Usage{InputTokens: 45, OutputTokens: 3, CacheReadTokens: 1830}); resp.Usage != want {
		t.Errorf("second reply usage = %+v, want %+v", resp.Usage, want)
	}
	reqs := srv.got()
	if d := diffJSON(rec.json(t, "tool_result.request"), reqs[1].decoded(t)); d != "" {
		t.Errorf("tool_result request body (-want +got):\n%s", d)
	}
}

func TestAnthropicStopReasons(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	for _, stop := range []StopReason{StopEndTurn, StopToolUse, StopMaxTokens, StopSequence, StopPauseTurn, StopRefusal, StopContextLimit} {
		t.Run(string(stop), func(t *testing.T) {
			srv := newReplayServer(t, rec.http(t, "stop", "STOP_REASON", string(stop)))
			p, _ := newTestAnthropic(t, srv)
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StopReason != stop || resp.Content[0].Text != "Partial" {
				t.Errorf("Send: stop %q, content %v; want stop %q and text Partial", resp.StopReason, resp.Content, stop)
			}
		})
	}
}

func TestAnthropicRetries(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	for _, tc := range []struct {
		name      string
		replies   []string
		wantErr   error
		wantWaits []time.Duration // 0: a backoff in [0.5ms, 1ms]·2^i
	}{
		{"429 with retry-after then success", []string{"rate_limited", "text"}, nil, []time.Duration{7 * time.Second}},
		{"500 then success", []string{"internal", "text"}, nil, []time.Duration{0}},
		{"529 twice then success", []string{"overloaded", "overloaded", "text"}, nil, []time.Duration{0, 0}},
		{"overloaded event in the stream then success", []string{"stream_overloaded", "text"}, nil, []time.Duration{0}},
		{"repeated 500", []string{"internal", "internal", "internal"}, ErrOverloaded, []time.Duration{0, 0}},
		{"repeated 429", []string{"rate_limited", "rate_limited", "rate_limited"}, ErrRateLimited, []time.Duration{7 * time.Second, 7 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var replies []reply
			for _, r := range tc.replies {
				replies = append(replies, rec.http(t, r))
			}
			srv := newReplayServer(t, replies...)
			p, waits := newTestAnthropic(t, srv)
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Send: error %v, want %v", err, tc.wantErr)
			}
			if err == nil && resp.Message().Text() != "The bug is in `add`: it subtracts." {
				t.Errorf("Send: response %+v, want the text reply", resp)
			}
			checkWaits(t, *waits, tc.wantWaits, time.Millisecond)
			if n := len(srv.got()); n != len(tc.replies) {
				t.Errorf("requests = %d, want %d", n, len(tc.replies))
			}
		})
	}
}

// checkWaits compares retry waits; a 0 in want stands for a jittered
// backoff base·2^i in its upper half.
func checkWaits(t *testing.T, got, want []time.Duration, base time.Duration) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("waits = %v, want %d waits", got, len(want))
	}
	for i, w := range want {
		if w == 0 {
			hi := base << i
			if got[i] < hi/2 || got[i] > hi {
				t.Errorf("wait %d = %v, want backoff in [%v, %v]", i, got[i], hi/2, hi)
			}
		} else if got[i] != w {
			t.Errorf("wait %d = %v, want %v (retry-after)", i, got[i], w)
		}
	}
}

func TestAnthropicErrors(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	for _, tc := range []struct {
		name     string
		reply    string
		wantErr  error    // sentinel, or nil for any error
		wantMsg  []string // substrings of the error message
		wantText string   // partial text returned with the error
	}{
		{"auth", "auth", ErrAuth, []string{"ANTHROPIC_API_KEY", "invalid x-api-key"}, ""},
		{"prompt too long", "too_long", ErrContextLength, []string{"too long for the model's context window", "208151 tokens"}, ""},
		{"malformed event", "malformed", nil, []string{"anthropic"}, ""},
		{"not an event stream", "html", nil, []string{"anthropic", "malformed response", "text/html, not an event stream"}, ""},
		{"delta for a block never started", "out_of_order", nil, []string{"malformed response", "block 1"}, ""},
		{"stream cut before message_stop", "truncated", nil, []string{"malformed response", "message_stop"}, "Half a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplayServer(t, rec.http(t, tc.reply))
			p, waits := newTestAnthropic(t, srv)
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			checkSendError(t, resp, err, *waits, tc.wantErr, tc.wantMsg, tc.wantText)
		})
	}
}

func TestAnthropicCancelMidStream(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	r := rec.http(t, "truncated")
	r.hold = true
	srv := newReplayServer(t, r)
	p, _ := newTestAnthropic(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := p.Send(ctx, userSays("hi"), func(ev Event) {
		if ev.Type == "text_delta" {
			cancel() // Ctrl-C once text arrives
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Send: error %v, want context.Canceled", err)
	}
	if resp == nil || resp.Message().Text() != "Half a" {
		t.Errorf("Send: partial response %+v, want text %q", resp, "Half a")
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return cmp.Equal(x, y)
}

func contains(evs []Event, want Event) bool {
	for _, ev := range evs {
		if ev == want {
			return true
		}
	}
	return false
}

// Ping reaches the API (GET /v1/models, no tokens spent): a working key
// answers, a rejected one is ErrAuth. A key that is merely set is not enough.
func TestAnthropicPing(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	srv := newReplayServer(t, rec.http(t, "models"), rec.http(t, "auth"))
	opts := Options{BaseURL: srv.URL, APIKey: "sk-ant-test", MaxRetries: -1}
	if err := Check(context.Background(), "anthropic:claude-sonnet-4-5", opts); err != nil {
		t.Errorf("Check: %v, want nil", err)
	}
	if err := Check(context.Background(), "anthropic:claude-sonnet-4-5", opts); !errors.Is(err, ErrAuth) {
		t.Errorf("Check after a 401: %v, want ErrAuth", err)
	}
	if got := srv.got(); len(got) != 2 || got[0].Method != "GET" || got[0].Path != "/v1/models" {
		t.Errorf("requests = %+v, want GET /v1/models twice", got)
	}
}

// message_delta carries whole-message totals: those present replace
// message_start's, absent or null ones leave them. A tool call without
// input deltas keeps its {} input.
func TestAnthropicUsageInMessageDelta(t *testing.T) {
	rec := loadRecording(t, "anthropic")
	srv := newReplayServer(t, rec.http(t, "delta_usage"))
	p, _ := newTestAnthropic(t, srv)
	resp, err := p.Send(context.Background(), userSays("hi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{
		Model:      "claude-sonnet-4-5-20250929",
		Content:    []Block{{Type: BlockToolUse, ID: "toolu_01", Name: "Bash", Input: json.RawMessage(`{}`)}},
		StopReason: StopToolUse,
		Usage:      Usage{InputTokens: 25, OutputTokens: 9, CacheWriteTokens: 100},
	}
	if d := cmp.Diff(want, resp, cmp.Comparer(jsonEqual)); d != "" {
		t.Errorf("Send: response (-want +got):\n%s", d)
	}
}
