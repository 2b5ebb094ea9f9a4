package provider

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func newTestOllama(t *testing.T, srv *replayServer, opts Options) (*ollamaProvider, *[]time.Duration) {
	t.Helper()
	opts.BaseURL = srv.URL
	opts.MaxRetries = 2
	opts.RetryBaseDelay = time.Millisecond
	p, err := New("ollama:qwen2.5-coder:7b", opts)
	if err != nil {
		t.Fatal(err)
	}
	op := p.(*ollamaProvider)
	return op, recordSleeps(op.retry)
}

// chatRequests returns the /api/chat requests received.
func chatRequests(srv *replayServer) []received {
	var out []received
	for _, r := range srv.got() {
		if r.Path == "/api/chat" {
			out = append(out, r)
		}
	}
	return out
}

func TestOllamaStreamingText(t *testing.T) {
	rec := loadRecording(t, "ollama")
	srv := newReplayServer(t, rec.http(t, "text", "DONE_REASON", "stop"))
	srv.route("/api/show", rec.http(t, "show"))
	p, _ := newTestOllama(t, srv, Options{})
	var ev collect
	resp, err := p.Send(context.Background(), userSays("Why does test_add fail?"), ev.on)
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{
		Model:      "qwen2.5-coder:7b",
		Content:    []Block{{Type: BlockText, Text: "The bug is in `add`: it subtracts."}},
		StopReason: StopEndTurn,
		Usage:      Usage{InputTokens: 318, OutputTokens: 12},
	}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("Send: response (-want +got):\n%s", d)
	}
	if got := ev.text(); got != want.Content[0].Text {
		t.Errorf("streamed text = %q, want %q", got, want.Content[0].Text)
	}
	body := chatRequests(srv)[0].decoded(t).(map[string]any)
	if body["stream"] != true || body["model"] != "qwen2.5-coder:7b" {
		t.Errorf("request body = %v, want stream true, model qwen2.5-coder:7b", body)
	}
}

func TestOllamaToolRoundTrip(t *testing.T) {
	rec := loadRecording(t, "ollama")
	srv := newReplayServer(t, rec.http(t, "tool_calls"), rec.http(t, "text", "DONE_REASON", "stop"))
	srv.route("/api/show", rec.http(t, "show"))
	p, _ := newTestOllama(t, srv, Options{})
	ctx := context.Background()

	var ev collect
	req := &Request{System: "You are Grit.", Tools: testTools, MaxTokens: 1024, Messages: readCalcTurns("")[:1]}
	resp, err := p.Send(ctx, req, ev.on)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{{Type: BlockToolUse, ID: "call_h5kx0ny3", Name: "Read", Input: []byte(`{"file_path":"calc.py"}`)}}
	if d := cmp.Diff(want, resp.Content, cmp.Comparer(jsonEqual)); d != "" || resp.StopReason != StopToolUse {
		t.Errorf("first reply: stop %q, want tool_use; content (-want +got):\n%s", resp.StopReason, d)
	}
	if !contains(ev.events, Event{Type: "tool_use_start", Name: "Read"}) {
		t.Errorf("events = %v, want a tool_use_start for Read", ev.events)
	}

	req.Messages = readCalcTurns(resp.Content[0].ID)
	req.Messages[1].Content = req.Messages[1].Content[1:] // the model said nothing before the call
	if _, err := p.Send(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	if d := diffJSON(rec.json(t, "tool_result.request"), chatRequests(srv)[1].decoded(t)); d != "" {
		t.Errorf("tool_result request body (-want +got):\n%s", d)
	}
}

func TestOllamaToolCallWithoutID(t *testing.T) {
	rec := loadRecording(t, "ollama")
	srv := newReplayServer(t, rec.http(t, "tool_calls_old"))
	p, _ := newTestOllama(t, srv, Options{ContextWindow: 8192})
	resp, err := p.Send(context.Background(), userSays("run the tests"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{{Type: BlockToolUse, ID: "call_1_0", Name: "Bash", Input: []byte(`{"command":"pytest -q"}`)}}
	if d := cmp.Diff(want, resp.Content, cmp.Comparer(jsonEqual)); d != "" || resp.StopReason != StopToolUse {
		t.Errorf("Send: stop %q, want tool_use; content (-want +got):\n%s", resp.StopReason, d)
	}
}

// num_ctx must be the same in every request: a change reloads the model.
func TestOllamaNumCtxOncePerInstance(t *testing.T) {
	rec := loadRecording(t, "ollama")
	for _, tc := range []struct {
		name      string
		opts      Options
		wantCtx   float64
		wantShows int
	}{
		{"from the model's context length", Options{}, 32768, 1},
		{"from the settings", Options{ContextWindow: 8192}, 8192, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := rec.http(t, "text", "DONE_REASON", "stop")
			srv := newReplayServer(t, text, text, text)
			srv.route("/api/show", rec.http(t, "show"))
			p, _ := newTestOllama(t, srv, tc.opts)
			req := userSays("hi")
			for i := range 3 {
				req.MaxTokens = 100 * (i + 1) // other options vary; num_ctx must not
				if _, err := p.Send(context.Background(), req, nil); err != nil {
					t.Fatal(err)
				}
			}
			shows := 0
			for _, r := range srv.got() {
				if r.Path == "/api/show" {
					shows++
				}
			}
			if shows != tc.wantShows {
				t.Errorf("/api/show called %d times, want %d", shows, tc.wantShows)
			}
			for i, r := range chatRequests(srv) {
				opts := r.decoded(t).(map[string]any)["options"].(map[string]any)
				if opts["num_ctx"] != tc.wantCtx {
					t.Errorf("request %d: num_ctx %v, want %v", i, opts["num_ctx"], tc.wantCtx)
				}
			}
		})
	}
}

func TestOllamaStopReasons(t *testing.T) {
	rec := loadRecording(t, "ollama")
	for _, tc := range []struct {
		done string
		want StopReason
	}{
		{"stop", StopEndTurn},
		{"length", StopMaxTokens},
		{"", StopEndTurn},
		{"unload", StopReason("unload")},
	} {
		t.Run(tc.done, func(t *testing.T) {
			srv := newReplayServer(t, rec.http(t, "text", "DONE_REASON", tc.done))
			p, _ := newTestOllama(t, srv, Options{ContextWindow: 4096})
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StopReason != tc.want {
				t.Errorf("done_reason %q: stop reason %q, want %q", tc.done, resp.StopReason, tc.want)
			}
		})
	}
}

func TestOllamaRetries(t *testing.T) {
	rec := loadRecording(t, "ollama")
	for _, tc := range []struct {
		name      string
		replies   []string
		wantErr   error
		wantWaits []time.Duration
	}{
		{"503 with retry-after then success", []string{"busy", "text"}, nil, []time.Duration{2 * time.Second}},
		{"429 with a far retry-after date is capped", []string{"rate_limited", "text"}, nil, []time.Duration{DefaultMaxRetryWait}},
		{"500 then success", []string{"internal", "text"}, nil, []time.Duration{0}},
		{"repeated 500", []string{"internal", "internal", "internal"}, ErrOverloaded, []time.Duration{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var replies []reply
			for _, r := range tc.replies {
				replies = append(replies, rec.http(t, r, "DONE_REASON", "stop"))
			}
			srv := newReplayServer(t, replies...)
			p, waits := newTestOllama(t, srv, Options{ContextWindow: 4096})
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Send: error %v, want %v", err, tc.wantErr)
			}
			if err == nil && resp.Message().Text() != "The bug is in `add`: it subtracts." {
				t.Errorf("Send: response %+v, want the text reply", resp)
			}
			checkWaits(t, *waits, tc.wantWaits, time.Millisecond)
		})
	}
}

func TestOllamaErrors(t *testing.T) {
	rec := loadRecording(t, "ollama")
	for _, tc := range []struct {
		name     string
		reply    string
		wantErr  error
		wantMsg  []string
		wantText string
	}{
		{"model not pulled", "not_found", nil, []string{"not found", "ollama pull qwen2.5-coder:7b"}, ""},
		{"auth", "auth", ErrAuth, []string{"OLLAMA_HOST"}, ""},
		{"context length", "too_long", ErrContextLength, []string{"exceeds the context length"}, ""},
		{"error line in the stream", "stream_error", nil, []string{"unexpected EOF"}, "Let"},
		{"malformed line", "malformed", nil, []string{"malformed response", "502 Bad Gateway"}, "Hi"},
		{"stream cut before done", "truncated", nil, []string{"malformed response", `"done": true`}, "Half a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplayServer(t, rec.http(t, tc.reply))
			p, waits := newTestOllama(t, srv, Options{ContextWindow: 4096})
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			checkSendError(t, resp, err, *waits, tc.wantErr, tc.wantMsg, tc.wantText)
		})
	}
}

func TestOllamaShowNotFound(t *testing.T) {
	rec := loadRecording(t, "ollama")
	srv := newReplayServer(t)
	srv.route("/api/show", rec.http(t, "not_found"))
	p, _ := newTestOllama(t, srv, Options{})
	_, err := p.Send(context.Background(), userSays("hi"), nil)
	if err == nil || !strings.Contains(err.Error(), "ollama pull qwen2.5-coder:7b") {
		t.Errorf("Send with an unknown model: error %v, want one saying to pull it", err)
	}
}

func TestOllamaCancelMidStream(t *testing.T) {
	rec := loadRecording(t, "ollama")
	r := rec.http(t, "truncated")
	r.hold = true
	srv := newReplayServer(t, r)
	p, _ := newTestOllama(t, srv, Options{ContextWindow: 4096})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := p.Send(ctx, userSays("hi"), func(ev Event) {
		if ev.Type == "text_delta" {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Send: error %v, want context.Canceled", err)
	}
	if resp == nil || resp.Message().Text() != "Half a" {
		t.Errorf("Send: partial response %+v, want text %q", resp, "Half a")
	}
}

func TestOllamaPing(t *testing.T) {
	rec := loadRecording(t, "ollama")
	srv := newReplayServer(t)
	srv.route("/api/tags", rec.http(t, "tags"))
	for _, tc := range []struct {
		spec    string
		wantErr string
	}{
		{"ollama:qwen2.5-coder:7b", ""},
		{"ollama:llama3.2", ""},
		{"ollama:qwen3:8b", "ollama pull qwen3:8b"},
	} {
		err := Check(context.Background(), tc.spec, Options{BaseURL: srv.URL})
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("Check(%q) = %v, want error containing %q", tc.spec, err, tc.wantErr)
		}
	}
	// Nothing listening: the error says where it looked.
	srv.Close()
	if err := Check(context.Background(), "ollama:qwen2.5-coder:7b", Options{BaseURL: srv.URL}); err == nil || !strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("Check with no server = %v, want a cannot-reach error", err)
	}
}

func TestOllamaHost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"127.0.0.1", "http://127.0.0.1:11434"},
		{"0.0.0.0:11500", "http://0.0.0.0:11500"},
		{"http://gpu-box:11434/", "http://gpu-box:11434"},
		{"https://ollama.example.com", "https://ollama.example.com"},
	} {
		if got := ollamaHost(tc.in); got != tc.want {
			t.Errorf("ollamaHost(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
