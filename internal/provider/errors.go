package provider

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinels callers branch on with errors.Is. Errors returned by Send wrap at
// most one of them.
var (
	// ErrAuth: the endpoint refused the credentials (401/403); the message
	// names the environment variable to set.
	ErrAuth = errors.New("authentication failed")
	// ErrContextLength: the request does not fit the model's context window.
	ErrContextLength = errors.New("the conversation is too long for the model's context window")
	// ErrRateLimited: 429 or a rate_limit error, still failing after the retries.
	ErrRateLimited = errors.New("rate limited")
	// ErrOverloaded: 5xx, 529 or an overloaded error, still failing after the retries.
	ErrOverloaded = errors.New("overloaded")
)

// APIError is an error answer from a model endpoint, classified.
type APIError struct {
	Provider   string // "anthropic", "openai", "ollama"
	StatusCode int    // HTTP status; 0 for an error event inside a stream
	Type       string // the endpoint's error type or code, if it gave one
	Message    string // the endpoint's message
	// RetryAfter is what the endpoint asked us to wait (retry-after), or 0.
	RetryAfter time.Duration
	// Hint tells the user what to do (which variable to set, ...).
	Hint string
	kind error // one of the sentinels, or nil
}

func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(": ")
	if e.kind != nil {
		b.WriteString(e.kind.Error())
		b.WriteString(": ")
	}
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, "%d ", e.StatusCode)
	}
	if e.Type != "" {
		b.WriteString(e.Type)
		b.WriteString(" ")
	}
	msg := e.Message
	if msg == "" {
		msg = "(no message)"
	}
	b.WriteString(msg)
	if e.Hint != "" {
		b.WriteString(" (")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the sentinel the error belongs to, if any.
func (e *APIError) Unwrap() error { return e.kind }

// Retryable reports whether the call may succeed if made again.
func (e *APIError) Retryable() bool {
	return e.kind == ErrRateLimited || e.kind == ErrOverloaded
}

// keyVar names the environment variable holding each provider's credentials.
var keyVar = map[string]string{
	"anthropic": "ANTHROPIC_API_KEY",
	"openai":    "OPENAI_API_KEY",
}

// classify builds the APIError for an error answer: status is the HTTP
// status (0 inside a stream), typ the endpoint's error type or code.
func classify(provider string, status int, typ, message string, retryAfter time.Duration) *APIError {
	e := &APIError{Provider: provider, StatusCode: status, Type: typ, Message: message, RetryAfter: retryAfter}
	switch {
	case isContextLength(typ, message):
		e.kind = ErrContextLength
		e.Hint = "shorten the conversation, compact it, or use a model with a larger window"
	case status == 401 || status == 403 || typ == "authentication_error" || typ == "permission_error" || typ == "invalid_api_key":
		e.kind = ErrAuth
		if v := keyVar[provider]; v != "" {
			e.Hint = "set " + v + " to a valid key"
		} else {
			e.Hint = "check that OLLAMA_HOST points at an Ollama server that needs no credentials"
		}
	case status == 429 || typ == "rate_limit_error" || typ == "rate_limit_exceeded":
		e.kind = ErrRateLimited
	case status == 529 || status >= 500 || typ == "overloaded_error" || typ == "api_error" || typ == "server_error":
		e.kind = ErrOverloaded
	}
	return e
}

// isContextLength recognizes the context-window errors of Anthropic
// ("prompt is too long"), OpenAI (context_length_exceeded), vLLM ("maximum
// context length"), llama.cpp (exceed_context_size_error) and Ollama
// ("exceeds the context length").
func isContextLength(typ, message string) bool {
	switch typ {
	case "context_length_exceeded", "exceed_context_size_error", "string_above_max_length":
		return true
	}
	m := strings.ToLower(message)
	for _, s := range []string{
		"prompt is too long",
		"context_length_exceeded",
		"maximum context length",
		"context length exceeded",
		"exceeds the context length",
		"exceeds the available context size",
		"exceed_context_size",
		"context window",
		"input length exceeds",
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// malformed reports a body that is not the wire format it should be.
func malformed(provider string, err error) error {
	return fmt.Errorf("%s: malformed response: %w", provider, err)
}
