package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
)

// openaiDefaultBaseURL is OpenAI's own endpoint.
const openaiDefaultBaseURL = "https://api.openai.com/v1"

// openaiProvider speaks Chat Completions over net/http, always streaming,
// to OpenAI or any compatible server (vLLM, llama.cpp server, LM Studio,
// OpenRouter). Retries are retrier's.
type openaiProvider struct {
	model  string
	apiKey string
	base   string // scheme://host[/path], no trailing slash
	// official: the endpoint is OpenAI's own, which wants
	// max_completion_tokens; compatible servers know max_tokens.
	official bool
	header   http.Header // sent with every request
	client   *http.Client
	retry    *retrier
}

func newOpenAI(model string, opts Options) *openaiProvider {
	key := envOr(opts.APIKey, "OPENAI_API_KEY", "")
	base := envOr(opts.BaseURL, "OPENAI_BASE_URL", "")
	official := base == ""
	if u, err := url.Parse(base); err == nil && u.Hostname() == "api.openai.com" {
		official = true
	}
	if base == "" {
		base = openaiDefaultBaseURL
	}
	return &openaiProvider{
		model:    model,
		apiKey:   key,
		base:     strings.TrimRight(base, "/"),
		official: official,
		header:   openaiHeader(key),
		client:   httpClient(opts),
		retry:    newRetrier(opts),
	}
}

// openaiHeader is the header of every request: what the official SDK read
// from the environment, OPENAI_ORG_ID, OPENAI_PROJECT_ID and
// OPENAI_CUSTOM_HEADERS (one "Name: value" a line, for proxies such as
// OpenRouter's; they win over the first two), then the key, when there is
// one (local servers need none).
func openaiHeader(key string) http.Header {
	h := http.Header{}
	if org := os.Getenv("OPENAI_ORG_ID"); org != "" {
		h.Set("OpenAI-Organization", org)
	}
	if project := os.Getenv("OPENAI_PROJECT_ID"); project != "" {
		h.Set("OpenAI-Project", project)
	}
	if custom := os.Getenv("OPENAI_CUSTOM_HEADERS"); custom != "" {
		for _, line := range strings.Split(custom, "\n") {
			if name, value, ok := strings.Cut(line, ":"); ok {
				h.Set(strings.TrimSpace(name), strings.TrimSpace(value))
			}
		}
	}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	return h
}

func (p *openaiProvider) Name() string { return "openai:" + p.model }

// visionModels are OpenAI model name prefixes that take images.
var visionModels = []string{"gpt-4o", "gpt-4.1", "gpt-4-turbo", "gpt-5", "o1", "o3", "o4"}

// AcceptsImages reports whether the model is one of OpenAI's vision models.
// An OpenAI-compatible server with another model says so with
// providers.openai.vision in settings (not yet); it is taken as text-only.
func (p *openaiProvider) AcceptsImages() bool {
	for _, v := range visionModels {
		if strings.HasPrefix(p.model, v) {
			return true
		}
	}
	return false
}

// Ping lists the models (GET /models).
func (p *openaiProvider) Ping(ctx context.Context) error {
	if p.official && p.apiKey == "" {
		return &APIError{Provider: "openai", Message: "no API key", Hint: "set OPENAI_API_KEY", kind: ErrAuth}
	}
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	return getJSON(ctx, p.client, "openai", p.base+"/models", p.header, &list)
}

func (p *openaiProvider) Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	body, err := marshalJSON(params)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	return p.retry.do(ctx, onEvent, func(ctx context.Context, emit func(Event)) (*Response, error) {
		return p.stream(ctx, body, emit)
	})
}

// Wire format of POST /chat/completions.
type (
	openaiRequest struct {
		Model               string          `json:"model"`
		Messages            []openaiMessage `json:"messages"`
		Tools               []openaiTool    `json:"tools,omitempty"`
		MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
		MaxTokens           int             `json:"max_tokens,omitempty"`
		Temperature         *float64        `json:"temperature,omitempty"`
		Stream              bool            `json:"stream"`
		StreamOptions       struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	// openaiMessage's content is a string, or a list of parts for a user
	// message with images; an assistant message with tool calls only has
	// none.
	openaiMessage struct {
		Role       string           `json:"role"`
		Content    any              `json:"content,omitempty"` // "" is sent
		ToolCalls  []openaiToolCall `json:"tool_calls,omitempty"`
		ToolCallID string           `json:"tool_call_id,omitempty"`
	}
	openaiPart struct {
		Type     string `json:"type"` // text, image_url
		Text     string `json:"text,omitempty"`
		ImageURL *struct {
			URL string `json:"url"`
		} `json:"image_url,omitempty"`
	}
	openaiToolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"` // function
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	openaiTool struct {
		Type     string `json:"type"` // function
		Function struct {
			Name        string         `json:"name"`
			Description string         `json:"description,omitempty"`
			Parameters  map[string]any `json:"parameters,omitzero"` // {} is sent, null is not
		} `json:"function"`
	}
)

// params translates the neutral request: tool_use blocks become an
// assistant message's tool_calls, tool_result blocks messages of role
// "tool", placed before any text of the same user turn.
func (p *openaiProvider) params(req *Request) (*openaiRequest, error) {
	params := &openaiRequest{Model: req.Model, Temperature: req.Temperature, Stream: true, Messages: []openaiMessage{}}
	params.StreamOptions.IncludeUsage = true
	if params.Model == "" {
		params.Model = p.model
	}
	if req.MaxTokens > 0 {
		if p.official {
			params.MaxCompletionTokens = req.MaxTokens
		} else {
			params.MaxTokens = req.MaxTokens
		}
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openaiMessage{Role: "system", Content: req.System})
	}
	for _, t := range req.Tools {
		var tool openaiTool
		tool.Type = "function"
		tool.Function.Name = t.Name
		tool.Function.Description = t.Description
		if len(t.InputSchema) > 0 {
			if err := json.Unmarshal(t.InputSchema, &tool.Function.Parameters); err != nil {
				return nil, fmt.Errorf("openai: tool %s: input schema: %w", t.Name, err)
			}
		}
		params.Tools = append(params.Tools, tool)
	}
	for _, m := range req.Messages {
		var text strings.Builder
		var images []openaiPart
		var calls []openaiToolCall
		for _, b := range m.Content {
			switch b.Type {
			case BlockText:
				appendText(&text, b.Text)
			case BlockToolUse:
				var call openaiToolCall
				call.ID, call.Type = b.ID, "function"
				call.Function.Name = b.Name
				call.Function.Arguments = string(rawInput(b.Input))
				calls = append(calls, call)
			case BlockToolResult:
				content := b.Content
				if b.IsError {
					content = "Error: " + content
				}
				params.Messages = append(params.Messages, openaiMessage{Role: "tool", Content: content, ToolCallID: b.ToolUseID})
			case BlockImage:
				// Tool messages take text only: images go in a user message after them.
				part := openaiPart{Type: "image_url", ImageURL: &struct {
					URL string `json:"url"`
				}{"data:" + b.MediaType + ";base64," + b.Data}}
				images = append(images, part)
			default:
				return nil, fmt.Errorf("openai: unknown block type %q (expected: text, tool_use, tool_result, image)", b.Type)
			}
		}
		switch {
		case m.Role == RoleAssistant:
			if text.Len() == 0 && len(calls) == 0 {
				continue
			}
			am := openaiMessage{Role: "assistant", ToolCalls: calls}
			if text.Len() > 0 {
				am.Content = text.String()
			}
			params.Messages = append(params.Messages, am)
		case len(images) > 0:
			parts := images
			if text.Len() > 0 {
				parts = append([]openaiPart{{Type: "text", Text: text.String()}}, images...)
			}
			params.Messages = append(params.Messages, openaiMessage{Role: "user", Content: parts})
		case text.Len() > 0:
			params.Messages = append(params.Messages, openaiMessage{Role: "user", Content: text.String()})
		}
	}
	return params, nil
}

// openaiChunk is one chunk of the stream.
type openaiChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content   string `json:"content"`
			Refusal   string `json:"refusal"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	// Usage is in the last chunk only (stream_options.include_usage).
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens     int `json:"cached_tokens"`
			CacheWriteTokens int `json:"cache_write_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	// Error is an error reported inside the stream.
	Error json.RawMessage `json:"error"`
}

// openaiCall accumulates one tool call from its deltas.
type openaiCall struct {
	id, name string
	args     strings.Builder
}

// openaiState is the reply accumulated from the chunks so far.
type openaiState struct {
	model  string
	text   strings.Builder
	calls  map[int]*openaiCall
	finish string
	usage  Usage
}

// apply accumulates one chunk, emitting its text and new tool calls.
func (s *openaiState) apply(chunk *openaiChunk, emit func(Event)) {
	if chunk.Model != "" {
		s.model = chunk.Model
	}
	if u := chunk.Usage; u != nil {
		cached := u.PromptTokensDetails.CachedTokens
		// prompt_tokens counts the cached ones; Usage keeps them apart.
		s.usage = Usage{
			InputTokens:      u.PromptTokens - cached,
			OutputTokens:     u.CompletionTokens,
			CacheReadTokens:  cached,
			CacheWriteTokens: u.PromptTokensDetails.CacheWriteTokens,
		}
	}
	for _, c := range chunk.Choices {
		if c.Index != 0 {
			continue // we ask for one choice
		}
		d := c.Delta
		if text := d.Content + d.Refusal; text != "" {
			s.text.WriteString(text)
			emit(Event{Type: "text_delta", Text: text})
		}
		for _, tc := range d.ToolCalls {
			call := s.calls[tc.Index]
			if call == nil {
				call = &openaiCall{}
				if s.calls == nil {
					s.calls = map[int]*openaiCall{}
				}
				s.calls[tc.Index] = call
			}
			if tc.ID != "" {
				call.id = tc.ID
			}
			if tc.Function.Name != "" && call.name == "" {
				call.name = tc.Function.Name
				emit(Event{Type: "tool_use_start", Name: call.name})
			}
			call.args.WriteString(tc.Function.Arguments)
		}
		if c.FinishReason != "" {
			s.finish = c.FinishReason
		}
	}
}

// stream makes one streaming call and accumulates the reply.
func (p *openaiProvider) stream(ctx context.Context, body []byte, emit func(Event)) (*Response, error) {
	var s openaiState
	res, err := postJSON(ctx, p.client, "openai", p.base+"/chat/completions", p.header, body)
	if err != nil {
		if ctx.Err() != nil {
			return s.response(), ctx.Err()
		}
		return nil, err
	}
	defer res.Body.Close()
	events := newSSEReader(res.Body)
	seen := false // an event arrived
	for {
		ev, err := events.next()
		if errors.Is(err, io.EOF) || (err == nil && bytes.HasPrefix(ev.data, []byte("[DONE]"))) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return s.response(), ctx.Err()
			}
			return s.response(), fmt.Errorf("openai: reading the reply: %w", err)
		}
		seen = true
		var chunk openaiChunk
		if err := json.Unmarshal(ev.data, &chunk); err != nil {
			return s.response(), malformed("openai", fmt.Errorf("chunk %q: %w", truncate(string(ev.data), 120), err))
		}
		if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
			typ, msg := errorFields(ev.data)
			return s.response(), classify("openai", 0, typ, msg, 0)
		}
		s.apply(&chunk, emit)
	}
	if ctx.Err() != nil {
		return s.response(), ctx.Err()
	}
	if s.finish == "" {
		why := ""
		if !seen {
			why = notEventStream(res.Header)
		}
		return s.response(), malformed("openai", errors.New("stream ended without a finish_reason"+why))
	}
	emit(Event{Type: "message_stop"})
	return s.response(), nil
}

// openaiStop maps finish_reason to the neutral stop reasons.
var openaiStop = map[string]StopReason{
	"stop":           StopEndTurn,
	"tool_calls":     StopToolUse,
	"function_call":  StopToolUse,
	"length":         StopMaxTokens,
	"content_filter": StopRefusal,
}

// response converts what has been accumulated, complete or not.
func (s *openaiState) response() *Response {
	resp := &Response{Model: s.model, Usage: s.usage}
	if s.text.Len() > 0 {
		resp.Content = append(resp.Content, Block{Type: BlockText, Text: s.text.String()})
	}
	idx := make([]int, 0, len(s.calls))
	for i := range s.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		c := s.calls[i]
		id := c.id
		if id == "" { // some compatible servers leave it out
			id = fmt.Sprintf("call_%d", n)
		}
		resp.Content = append(resp.Content, Block{Type: BlockToolUse, ID: id, Name: c.name, Input: toolArgs(c.args.String())})
	}
	if s.finish == "" {
		return resp
	}
	stop, ok := openaiStop[s.finish]
	if !ok {
		stop = StopReason(s.finish)
	}
	// Some servers say "stop" after tool calls.
	if stop == StopEndTurn && len(s.calls) > 0 {
		stop = StopToolUse
	}
	resp.StopReason = stop
	return resp
}

// toolArgs turns a tool call's arguments into the block's input: {} when
// empty; arguments that are not a JSON object are kept as a JSON string, so
// the tool reports the mistake to the model instead of losing it.
func toolArgs(args string) json.RawMessage {
	args = strings.TrimSpace(args)
	if args == "" {
		return json.RawMessage(`{}`)
	}
	if json.Valid([]byte(args)) && strings.HasPrefix(args, "{") {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}
