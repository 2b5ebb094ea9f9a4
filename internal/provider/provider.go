// Package provider speaks the models' wire formats behind one neutral
// interface: messages of content blocks (text, tool_use, tool_result), tool
// schemas, usage with cache accounting, stop reasons and streaming events.
// Implementations: anthropic (Messages API), openai (Chat Completions),
// ollama (native /api/chat), each over net/http with no vendor SDK (sse.go
// reads the event streams, with bounds on lines and replies; http.go sends
// and classifies errors), and scripted (replays a JSON file; for tests and
// demos). It knows wire formats, not sessions.
package provider

import (
	"context"
	"encoding/json"
	"strings"
)

// Role of a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Block types.
const (
	BlockText       = "text"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
	// BlockImage is an image in a user message (a Read of an image file, a
	// pasted image path): MediaType and base64 Data.
	BlockImage = "image"
)

// Block is one content block, shaped like the Anthropic Messages API's.
type Block struct {
	Type string `json:"type"`
	// text
	Text string `json:"text,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result
	ToolUseID string `json:"tool_use_id,omitempty"`
	Content   string `json:"content,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`
	// image
	MediaType string `json:"media_type,omitempty"` // image/png, image/jpeg, image/gif, image/webp
	Data      string `json:"data,omitempty"`       // base64
}

// Vision is implemented by providers that can say whether their model
// accepts images.
type Vision interface{ AcceptsImages() bool }

// AcceptsImages reports whether p's model takes image blocks; a provider
// that does not say is taken as text-only.
func AcceptsImages(p Provider) bool {
	v, ok := p.(Vision)
	return ok && v.AcceptsImages()
}

// Message is one turn of the conversation.
type Message struct {
	Role    Role    `json:"role"`
	Content []Block `json:"content"`
}

// Text concatenates the message's text blocks.
func (m Message) Text() string {
	var s string
	for _, b := range m.Content {
		if b.Type == BlockText {
			s += b.Text
		}
	}
	return s
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Request is one model call.
type Request struct {
	Model     string     `json:"model,omitempty"`
	System    string     `json:"system,omitempty"`
	Messages  []Message  `json:"messages"`
	Tools     []ToolSpec `json:"tools,omitempty"`
	MaxTokens int        `json:"max_tokens,omitempty"`
	// Temperature is nil for the provider's default.
	Temperature *float64 `json:"temperature,omitempty"`
	// CacheSystem asks providers that support it to mark the prefix
	// cacheable where Claude Code does: the tools, the system prompt and
	// the latest messages.
	CacheSystem bool `json:"cache_system,omitempty"`
}

// StopReason says why the model stopped.
type StopReason string

const (
	StopEndTurn      StopReason = "end_turn"
	StopToolUse      StopReason = "tool_use"
	StopMaxTokens    StopReason = "max_tokens"
	StopRefusal      StopReason = "refusal"
	StopSequence     StopReason = "stop_sequence"
	StopPauseTurn    StopReason = "pause_turn"
	StopContextLimit StopReason = "model_context_window_exceeded"
)

// Usage counts tokens of one call. As in the Anthropic API, InputTokens
// excludes the cached input: OpenAI's prompt_tokens is split into
// InputTokens and CacheReadTokens (prompt_tokens_details.cached_tokens).
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_input_tokens"`
	CacheWriteTokens int `json:"cache_creation_input_tokens"`
}

// Add accumulates u2 into u.
func (u *Usage) Add(u2 Usage) {
	u.InputTokens += u2.InputTokens
	u.OutputTokens += u2.OutputTokens
	u.CacheReadTokens += u2.CacheReadTokens
	u.CacheWriteTokens += u2.CacheWriteTokens
}

// Response is the whole reply of one call.
type Response struct {
	Model      string     `json:"model,omitempty"`
	Content    []Block    `json:"content"`
	StopReason StopReason `json:"stop_reason"`
	Usage      Usage      `json:"usage"`
}

// Event is a streaming event: text as it arrives, and tool calls as they start.
type Event struct {
	Type string `json:"type"` // "text_delta", "tool_use_start", "message_stop"
	Text string `json:"text,omitempty"`
	Name string `json:"name,omitempty"`
}

// Provider is one model endpoint.
type Provider interface {
	// Name is "anthropic:claude-sonnet-4-5", "ollama:qwen2.5-coder:7b", ...
	Name() string
	// Send makes one call. onEvent, if non-nil, receives streaming events; the
	// returned Response is complete either way. On ctx cancellation it returns
	// the partial Response received so far together with ctx.Err().
	Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error)
}

// Message returns the reply as an assistant message, to append to the
// conversation.
func (r *Response) Message() Message {
	return Message{Role: RoleAssistant, Content: r.Content}
}

// TextSeparator joins the text blocks of one message for wire formats whose
// content is a single string (OpenAI, Ollama): a hook's context and the
// prompt, say, must not run into each other ("Branch is main.fix the bug").
const TextSeparator = "\n\n"

// appendText adds one text block to a message's single-string content.
func appendText(b *strings.Builder, text string) {
	if text == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteString(TextSeparator)
	}
	b.WriteString(text)
}
