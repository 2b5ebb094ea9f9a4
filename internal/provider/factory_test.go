package provider

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNewSpecs(t *testing.T) {
	for _, tc := range []struct {
		spec     string
		opts     Options
		wantName string
		wantErr  string
	}{
		{"anthropic:claude-sonnet-4-5", Options{}, "anthropic:claude-sonnet-4-5", ""},
		{"openai:gpt-4.1-mini", Options{}, "openai:gpt-4.1-mini", ""},
		{"ollama:qwen2.5-coder:7b", Options{}, "ollama:qwen2.5-coder:7b", ""},
		{"ollama:qwen2.5-coder:7b", Options{ToolCalls: ToolCallsText}, "ollama:qwen2.5-coder:7b", ""},
		{"x:y", Options{}, "", `unknown provider "x" (expected: anthropic, openai, ollama, scripted)`},
		{"gpt-4", Options{}, "", `unknown provider "gpt-4" (expected: anthropic, openai, ollama, scripted)`},
		{"anthropic", Options{}, "", `model "anthropic": missing model name (expected: anthropic:MODEL)`},
		{"ollama:", Options{}, "", `model "ollama:": missing model name (expected: ollama:MODEL)`},
		{"scripted:", Options{}, "", `model "scripted:": missing path (expected: scripted:PATH)`},
		{"openai:gpt-4.1-mini", Options{ToolCalls: "json"}, "", `unknown tool-call mode "json" (expected: native, text)`},
	} {
		p, err := New(tc.spec, tc.opts)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("New(%q) error = %v, want %q", tc.spec, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%q) error = %v, want nil", tc.spec, err)
			continue
		}
		if p.Name() != tc.wantName {
			t.Errorf("New(%q).Name() = %q, want %q", tc.spec, p.Name(), tc.wantName)
		}
		if _, isText := p.(*TextCalls); isText != (tc.opts.ToolCalls == ToolCallsText) {
			t.Errorf("New(%q, ToolCalls %q) = %T, want text wrapper %v", tc.spec, tc.opts.ToolCalls, p, tc.opts.ToolCalls == ToolCallsText)
		}
	}
}

// Keys and hosts come from the environment unless Options say otherwise.
func TestNewEnvironment(t *testing.T) {
	rec := loadRecording(t, "openai")
	srv := newReplayServer(t, rec.http(t, "text", "FINISH_REASON", "stop"), rec.http(t, "text", "FINISH_REASON", "stop"))
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-env")
	ctx := context.Background()

	p, err := New("openai:gpt-4.1-mini", Options{MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Send(ctx, userSays("hi"), nil); err != nil {
		t.Fatal(err)
	}
	p, err = New("openai:gpt-4.1-mini", Options{APIKey: "sk-option", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Send(ctx, userSays("hi"), nil); err != nil {
		t.Fatal(err)
	}
	got := srv.got()
	if a, b := got[0].Header.Get("Authorization"), got[1].Header.Get("Authorization"); a != "Bearer sk-env" || b != "Bearer sk-option" {
		t.Errorf("Authorization = %q then %q, want the env key then the option's", a, b)
	}

	t.Setenv("OLLAMA_HOST", "127.0.0.1:11500")
	if h := newOllama("m", Options{}).host; h != "http://127.0.0.1:11500" {
		t.Errorf("ollama host with OLLAMA_HOST set = %q, want http://127.0.0.1:11500", h)
	}
	t.Setenv("OLLAMA_HOST", "")
	if h := newOllama("m", Options{}).host; h != DefaultOllamaHost {
		t.Errorf("ollama host = %q, want %q", h, DefaultOllamaHost)
	}
}

func TestCheckAnthropicKey(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	err := Check(context.Background(), "anthropic:claude-sonnet-4-5", Options{})
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "set ANTHROPIC_API_KEY") {
		t.Errorf("Check without a key = %v, want ErrAuth saying to set ANTHROPIC_API_KEY", err)
	}
	// With a key, Check contacts the API: TestAnthropicPing covers it against a local server.
	if err := Check(context.Background(), "nope:x", Options{}); err == nil || !strings.Contains(err.Error(), "unknown provider") {
		t.Errorf("Check(nope:x) = %v, want unknown provider", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := mustTime(t, "Wed, 21 Oct 2025 07:28:00 GMT")
	for _, tc := range []struct {
		header map[string]string
		want   string
	}{
		{map[string]string{"Retry-After": "7"}, "7s"},
		{map[string]string{"Retry-After": "1.5"}, "1.5s"},
		{map[string]string{"Retry-After": "Wed, 21 Oct 2025 07:28:30 GMT"}, "30s"},
		{map[string]string{"Retry-After": "Wed, 21 Oct 2025 07:27:00 GMT"}, "0s"},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "1"}, "250ms"},
		{map[string]string{"Retry-After": "soon"}, "0s"},
		{map[string]string{}, "0s"},
	} {
		h := make(map[string][]string)
		for k, v := range tc.header {
			h[k] = []string{v}
		}
		if got := parseRetryAfter(h, now).String(); got != tc.want {
			t.Errorf("parseRetryAfter(%v) = %s, want %s", tc.header, got, tc.want)
		}
	}
}

func TestRetryWaitCapped(t *testing.T) {
	r := newRetrier(Options{RetryBaseDelay: 1 << 40, MaxRetryWait: 5e9})
	for attempt := range 40 {
		if w := r.wait(attempt, 0); w <= 0 || w > 5e9 {
			t.Errorf("wait(%d) = %v, want in (0, 5s]", attempt, w)
		}
	}
	if w := r.wait(0, 1e12); w != 5e9 {
		t.Errorf("wait with a long retry-after = %v, want the 5s cap", w)
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := http.ParseTime(s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}
