package provider

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newTestOpenAI builds an openai provider for baseURL ("" for the replay
// server's /v1) whose requests all go to srv, whatever host baseURL names.
func newTestOpenAI(t *testing.T, srv *replayServer, baseURL string) (*openaiProvider, *[]time.Duration) {
	t.Helper()
	if baseURL == "" {
		baseURL = srv.URL + "/v1"
	}
	p, err := New("openai:gpt-4.1-mini", Options{BaseURL: baseURL, APIKey: "sk-test", MaxRetries: 2, RetryBaseDelay: time.Millisecond,
		HTTPClient: &http.Client{Transport: toServer{srv}}})
	if err != nil {
		t.Fatal(err)
	}
	op := p.(*openaiProvider)
	return op, recordSleeps(op.retry)
}

func TestOpenAIStreamingText(t *testing.T) {
	rec := loadRecording(t, "openai")
	srv := newReplayServer(t, rec.http(t, "text", "FINISH_REASON", "stop"))
	p, _ := newTestOpenAI(t, srv, "")
	var ev collect
	resp, err := p.Send(context.Background(), userSays("Why does test_add fail?"), ev.on)
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{
		Model:      "gpt-4.1-mini-2025-04-14",
		Content:    []Block{{Type: BlockText, Text: "The bug is in `add`: it subtracts."}},
		StopReason: StopEndTurn,
		// prompt_tokens 1536 of which cached 1280
		Usage: Usage{InputTokens: 256, OutputTokens: 12, CacheReadTokens: 1280},
	}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("Send: response (-want +got):\n%s", d)
	}
	if got := ev.text(); got != want.Content[0].Text {
		t.Errorf("streamed text = %q, want %q", got, want.Content[0].Text)
	}
	reqs := srv.got()
	if len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" || reqs[0].Header.Get("Authorization") != "Bearer sk-test" {
		t.Fatalf("requests = %+v, want one POST /v1/chat/completions with the bearer key", reqs)
	}
	body := reqs[0].decoded(t).(map[string]any)
	if body["stream"] != true || body["model"] != "gpt-4.1-mini" {
		t.Errorf("request body = %v, want stream true, model gpt-4.1-mini", body)
	}
}

func TestOpenAIToolRoundTrip(t *testing.T) {
	rec := loadRecording(t, "openai")
	srv := newReplayServer(t, rec.http(t, "tool_calls"), rec.http(t, "text", "FINISH_REASON", "stop"))
	// A base URL naming api.openai.com's host is what selects
	// max_completion_tokens; served by the replay server anyway.
	p, _ := newTestOpenAI(t, srv, "https://api.openai.com/v1")
	ctx := context.Background()

	var ev collect
	req := &Request{System: "You are Grit.", Tools: testTools, MaxTokens: 1024, Messages: readCalcTurns("")[:1]}
	resp, err := p.Send(ctx, req, ev.on)
	if err != nil {
		t.Fatal(err)
	}
	wantContent := readCalcTurns("call_Qk7ZyGk0D8Xh3MdZ1vA2")[1].Content
	if d := cmp.Diff(wantContent, resp.Content, cmp.Comparer(jsonEqual)); d != "" || resp.StopReason != StopToolUse {
		t.Errorf("first reply: stop %q, want tool_use; content (-want +got):\n%s", resp.StopReason, d)
	}
	if !contains(ev.events, Event{Type: "tool_use_start", Name: "Read"}) {
		t.Errorf("events = %v, want a tool_use_start for Read", ev.events)
	}
	if want := (Usage{InputTokens: 180, OutputTokens: 25}); resp.Usage != want {
		t.Errorf("first reply usage = %+v, want %+v", resp.Usage, want)
	}

	req.Messages = readCalcTurns(resp.Content[1].ID)
	if _, err := p.Send(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	if d := diffJSON(rec.json(t, "tool_result.request"), srv.got()[1].decoded(t)); d != "" {
		t.Errorf("tool_result request body (-want +got):\n%s", d)
	}
}

func TestOpenAICompatibleMaxTokens(t *testing.T) {
	rec := loadRecording(t, "openai")
	srv := newReplayServer(t, rec.http(t, "text", "FINISH_REASON", "stop"))
	p, _ := newTestOpenAI(t, srv, "") // a local server: vLLM, llama.cpp, LM Studio
	req := userSays("hi")
	req.MaxTokens = 512
	if _, err := p.Send(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	body := srv.got()[0].decoded(t).(map[string]any)
	if body["max_tokens"] != float64(512) || body["max_completion_tokens"] != nil {
		t.Errorf("request body = %v, want max_tokens 512 for a compatible server", body)
	}
}

func TestOpenAIStopReasons(t *testing.T) {
	rec := loadRecording(t, "openai")
	for _, tc := range []struct {
		finish string
		want   StopReason
	}{
		{"stop", StopEndTurn},
		{"tool_calls", StopToolUse},
		{"length", StopMaxTokens},
		{"content_filter", StopRefusal},
		{"function_call", StopToolUse},
	} {
		t.Run(tc.finish, func(t *testing.T) {
			srv := newReplayServer(t, rec.http(t, "text", "FINISH_REASON", tc.finish))
			p, _ := newTestOpenAI(t, srv, "")
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StopReason != tc.want {
				t.Errorf("finish_reason %q: stop reason %q, want %q", tc.finish, resp.StopReason, tc.want)
			}
		})
	}
}

func TestOpenAIRetries(t *testing.T) {
	rec := loadRecording(t, "openai")
	for _, tc := range []struct {
		name      string
		replies   []string
		wantErr   error
		wantWaits []time.Duration // 0: a jittered backoff
	}{
		{"429 with retry-after then success", []string{"rate_limited", "text"}, nil, []time.Duration{3 * time.Second}},
		{"500 then success", []string{"internal", "text"}, nil, []time.Duration{0}},
		{"error event in the stream then success", []string{"stream_error", "text"}, nil, []time.Duration{0}},
		{"repeated 500", []string{"internal", "internal", "internal"}, ErrOverloaded, []time.Duration{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var replies []reply
			for _, r := range tc.replies {
				replies = append(replies, rec.http(t, r, "FINISH_REASON", "stop"))
			}
			srv := newReplayServer(t, replies...)
			p, waits := newTestOpenAI(t, srv, "")
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

func TestOpenAIErrors(t *testing.T) {
	rec := loadRecording(t, "openai")
	for _, tc := range []struct {
		name     string
		reply    string
		wantErr  error
		wantMsg  []string
		wantText string
	}{
		{"auth", "auth", ErrAuth, []string{"OPENAI_API_KEY", "Incorrect API key"}, ""},
		{"context_length_exceeded", "too_long", ErrContextLength, []string{"too long for the model's context window", "128000 tokens"}, ""},
		{"vLLM context length", "vllm_too_long", ErrContextLength, []string{"32768 tokens"}, ""},
		{"llama.cpp context size", "llamacpp_too_long", ErrContextLength, []string{"context size"}, ""},
		{"malformed chunk", "malformed", nil, []string{"openai"}, ""},
		{"not an event stream", "html", nil, []string{"malformed response", "text/html, not an event stream"}, ""},
		{"stream cut before finish_reason", "truncated", nil, []string{"malformed response", "finish_reason"}, "Half a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplayServer(t, rec.http(t, tc.reply))
			p, waits := newTestOpenAI(t, srv, "")
			resp, err := p.Send(context.Background(), userSays("hi"), nil)
			checkSendError(t, resp, err, *waits, tc.wantErr, tc.wantMsg, tc.wantText)
		})
	}
}

func TestOpenAICancelMidStream(t *testing.T) {
	rec := loadRecording(t, "openai")
	r := rec.http(t, "truncated")
	r.hold = true
	srv := newReplayServer(t, r)
	p, _ := newTestOpenAI(t, srv, "")
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

func TestOpenAIPing(t *testing.T) {
	rec := loadRecording(t, "openai")
	srv := newReplayServer(t, rec.http(t, "models"), rec.http(t, "auth"))
	opts := Options{BaseURL: srv.URL + "/v1", APIKey: "sk-test", MaxRetries: -1}
	if err := Check(context.Background(), "openai:gpt-4.1-mini", opts); err != nil {
		t.Errorf("Check: %v, want nil", err)
	}
	if err := Check(context.Background(), "openai:gpt-4.1-mini", opts); !errors.Is(err, ErrAuth) {
		t.Errorf("Check after a 401: %v, want ErrAuth", err)
	}
	if got := srv.got(); len(got) != 2 || got[0].Method != "GET" || got[0].Path != "/v1/models" {
		t.Errorf("requests = %+v, want GET /v1/models twice", got)
	}
}

// toServer sends every request to srv over plain HTTP, whatever scheme and
// host its URL names.
type toServer struct{ srv *replayServer }

func (ts toServer) RoundTrip(req *http.Request) (*http.Response, error) {
	u, err := url.Parse(ts.srv.URL)
	if err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = u.Scheme, u.Host
	return http.DefaultTransport.RoundTrip(req)
}
