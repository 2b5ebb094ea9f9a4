package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// Options configure a provider. The zero value works: keys and hosts come
// from the environment, retries and timeouts from the defaults.
type Options struct {
	// BaseURL overrides the endpoint. Else ANTHROPIC_BASE_URL (anthropic,
	// default https://api.anthropic.com), OPENAI_BASE_URL (openai, default
	// https://api.openai.com/v1), OLLAMA_HOST (ollama, default
	// http://127.0.0.1:11434).
	BaseURL string
	// APIKey overrides ANTHROPIC_API_KEY / OPENAI_API_KEY.
	APIKey string
	// ContextWindow is num_ctx for ollama, set once per provider instance;
	// 0 asks the server for the model's context length (once).
	ContextWindow int
	// ToolCalls is "native" (default) or "text": tools described in the
	// system prompt and called with one fenced action block per reply, for
	// small local models without reliable native tool calls.
	ToolCalls string
	// MaxRetries for 429, 5xx and overloaded answers: 0 means
	// DefaultMaxRetries, negative means none.
	MaxRetries int
	// RetryBaseDelay is the first backoff (default DefaultRetryBaseDelay).
	RetryBaseDelay time.Duration
	// MaxRetryWait caps one wait, retry-after included (default DefaultMaxRetryWait).
	MaxRetryWait time.Duration
	// HTTPClient to use instead of a new one.
	HTTPClient *http.Client
	// Timeout bounds the wait for an answer to begin (response headers); a
	// streaming reply then runs as long as it flows. 0 means no bound.
	// Ignored when HTTPClient is set.
	Timeout time.Duration
}

// Tool-call modes of Options.ToolCalls.
const (
	ToolCallsNative = "native"
	ToolCallsText   = "text"
)

// DefaultOllamaHost is where Ollama listens unless OLLAMA_HOST says otherwise.
const DefaultOllamaHost = "http://127.0.0.1:11434"

// New builds the provider named by spec, "PROVIDER:MODEL": anthropic:MODEL,
// openai:MODEL, ollama:MODEL (the model may contain colons, as in
// ollama:qwen2.5-coder:7b) or scripted:PATH.
func New(spec string, opts Options) (Provider, error) {
	kind, model, err := splitSpec(spec)
	if err != nil {
		return nil, err
	}
	switch opts.ToolCalls {
	case "", ToolCallsNative, ToolCallsText:
	default:
		return nil, fmt.Errorf("unknown tool-call mode %q (expected: native, text)", opts.ToolCalls)
	}
	var p Provider
	switch kind {
	case "anthropic":
		p = newAnthropic(model, opts)
	case "openai":
		p = newOpenAI(model, opts)
	case "ollama":
		p = newOllama(model, opts)
	case "scripted":
		p, err = NewScripted(model)
		if err != nil {
			return nil, err
		}
	}
	if opts.ToolCalls == ToolCallsText && kind != "scripted" { // scripted replays blocks as they are
		p = NewTextCalls(p)
	}
	return p, nil
}

// splitSpec splits "PROVIDER:MODEL" and checks the provider name.
func splitSpec(spec string) (kind, model string, err error) {
	kind, model, ok := strings.Cut(spec, ":")
	switch kind {
	case "anthropic", "openai", "ollama", "scripted":
	default:
		return "", "", fmt.Errorf("unknown provider %q (expected: anthropic, openai, ollama, scripted)", kind)
	}
	if !ok || model == "" {
		if kind == "scripted" {
			return "", "", fmt.Errorf("model %q: missing path (expected: scripted:PATH)", spec)
		}
		return "", "", fmt.Errorf("model %q: missing model name (expected: %s:MODEL)", spec, kind)
	}
	return kind, model, nil
}

// Check reports whether the provider named by spec can answer, without
// spending tokens: anthropic checks that a key is present, openai lists the
// models (GET /models), ollama lists the pulled models (GET /api/tags) and
// checks the model is among them, scripted loads its file. For grit doctor.
func Check(ctx context.Context, spec string, opts Options) error {
	kind, model, err := splitSpec(spec)
	if err != nil {
		return err
	}
	switch kind {
	case "anthropic":
		return newAnthropic(model, opts).Ping(ctx)
	case "openai":
		return newOpenAI(model, opts).Ping(ctx)
	case "ollama":
		return newOllama(model, opts).Ping(ctx)
	default: // scripted
		_, err := NewScripted(model)
		return err
	}
}

// httpClient returns the client a provider uses.
func httpClient(opts Options) *http.Client {
	if opts.HTTPClient != nil {
		return opts.HTTPClient
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = opts.Timeout
	return &http.Client{Transport: tr}
}

// envOr returns v, else the environment variable name, else def.
func envOr(v, name, def string) string {
	if v != "" {
		return v
	}
	if e := os.Getenv(name); e != "" {
		return e
	}
	return def
}
