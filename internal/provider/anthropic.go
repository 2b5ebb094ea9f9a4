package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// anthropicDefaultMaxTokens is max_tokens when the request leaves it 0: the
// Messages API requires one, and 8192 fits every current model.
const anthropicDefaultMaxTokens = 8192

// Endpoint defaults of the Messages API.
const (
	anthropicDefaultBaseURL = "https://api.anthropic.com"
	// anthropicVersion is the API version header every request carries.
	anthropicVersion = "2023-06-01"
)

// anthropicProvider speaks the Messages API over net/http, always streaming
// (SSE). Retries are retrier's.
type anthropicProvider struct {
	model  string
	apiKey string
	base   string // scheme://host[/prefix], no trailing slash
	client *http.Client
	retry  *retrier
}

func newAnthropic(model string, opts Options) *anthropicProvider {
	return &anthropicProvider{
		model:  model,
		apiKey: envOr(opts.APIKey, "ANTHROPIC_API_KEY", ""),
		base:   strings.TrimRight(envOr(opts.BaseURL, "ANTHROPIC_BASE_URL", anthropicDefaultBaseURL), "/"),
		client: httpClient(opts),
		retry:  newRetrier(opts),
	}
}

func (p *anthropicProvider) Name() string { return "anthropic:" + p.model }

// AcceptsImages: every Claude model since Claude 3 takes images.
func (p *anthropicProvider) AcceptsImages() bool { return true }

// header is what every request carries: the key (sent even when empty, as
// the official SDK did) and the API version.
func (p *anthropicProvider) header() http.Header {
	h := http.Header{}
	h.Set("X-Api-Key", p.apiKey)
	h.Set("Anthropic-Version", anthropicVersion)
	return h
}

// Ping lists the models (GET /v1/models): it checks the key and the
// endpoint without spending a token.
func (p *anthropicProvider) Ping(ctx context.Context) error {
	if p.apiKey == "" {
		return &APIError{Provider: "anthropic", Message: "no API key", Hint: "set ANTHROPIC_API_KEY", kind: ErrAuth}
	}
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	return getJSON(ctx, p.client, "anthropic", p.base+"/v1/models", p.header(), &list)
}

func (p *anthropicProvider) Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	body, err := marshalJSON(params)
	if err != nil {
		return nil, fmt.Errorf("anthropic: %w", err)
	}
	return p.retry.do(ctx, onEvent, func(ctx context.Context, emit func(Event)) (*Response, error) {
		return p.stream(ctx, body, emit)
	})
}

// Wire format of POST /v1/messages.
type (
	anthropicRequest struct {
		Model       string             `json:"model"`
		MaxTokens   int                `json:"max_tokens"`
		System      []anthropicBlock   `json:"system,omitempty"`
		Messages    []anthropicMessage `json:"messages"`
		Tools       []anthropicTool    `json:"tools,omitempty"`
		Temperature *float64           `json:"temperature,omitempty"`
		Stream      bool               `json:"stream"`
	}
	anthropicMessage struct {
		Role    Role             `json:"role"`
		Content []anthropicBlock `json:"content"`
	}
	// anthropicBlock is a content block of any type; the fields of the
	// others stay empty and are left out.
	anthropicBlock struct {
		Type         string                `json:"type"`
		Text         string                `json:"text,omitempty"`
		ID           string                `json:"id,omitempty"`
		Name         string                `json:"name,omitempty"`
		Input        json.RawMessage       `json:"input,omitempty"`
		ToolUseID    string                `json:"tool_use_id,omitempty"`
		Content      []anthropicBlock      `json:"content,omitempty"`
		IsError      bool                  `json:"is_error,omitempty"`
		Source       *anthropicImageSource `json:"source,omitempty"`
		CacheControl *anthropicCache       `json:"cache_control,omitempty"`
	}
	anthropicImageSource struct {
		Type      string `json:"type"` // base64
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	}
	anthropicCache struct {
		Type string `json:"type"` // ephemeral
	}
	anthropicTool struct {
		Name         string          `json:"name"`
		Description  string          `json:"description,omitempty"`
		InputSchema  map[string]any  `json:"input_schema,omitempty"`
		CacheControl *anthropicCache `json:"cache_control,omitempty"`
	}
)

// ephemeral is the cache breakpoint marker.
func ephemeral() *anthropicCache { return &anthropicCache{Type: "ephemeral"} }

// params translates the neutral request. With CacheSystem the last tool,
// the system prompt and the latest messages carry cache_control, so the
// tools, the system prompt and the conversation so far form a cached prefix.
func (p *anthropicProvider) params(req *Request) (*anthropicRequest, error) {
	params := &anthropicRequest{Model: req.Model, MaxTokens: req.MaxTokens, Temperature: req.Temperature, Stream: true, Messages: []anthropicMessage{}}
	if params.Model == "" {
		params.Model = p.model
	}
	if params.MaxTokens <= 0 {
		params.MaxTokens = anthropicDefaultMaxTokens
	}
	if req.System != "" {
		sys := anthropicBlock{Type: BlockText, Text: req.System}
		if req.CacheSystem {
			sys.CacheControl = ephemeral()
		}
		params.System = []anthropicBlock{sys}
	}
	for i, t := range req.Tools {
		schema, err := anthropicSchema(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("anthropic: tool %s: %w", t.Name, err)
		}
		tool := anthropicTool{Name: t.Name, Description: t.Description, InputSchema: schema}
		if req.CacheSystem && i == len(req.Tools)-1 {
			tool.CacheControl = ephemeral()
		}
		params.Tools = append(params.Tools, tool)
	}
	for _, m := range req.Messages {
		var blocks []anthropicBlock
		for _, b := range m.Content {
			switch b.Type {
			case BlockText:
				if b.Text != "" { // the API refuses empty text blocks
					blocks = append(blocks, anthropicBlock{Type: BlockText, Text: b.Text})
				}
			case BlockToolUse:
				blocks = append(blocks, anthropicBlock{Type: BlockToolUse, ID: b.ID, Name: b.Name, Input: rawInput(b.Input)})
			case BlockToolResult:
				tr := anthropicBlock{Type: BlockToolResult, ToolUseID: b.ToolUseID, IsError: b.IsError}
				if b.Content != "" {
					tr.Content = []anthropicBlock{{Type: BlockText, Text: b.Content}}
				}
				blocks = append(blocks, tr)
			case BlockImage:
				blocks = append(blocks, anthropicBlock{Type: BlockImage, Source: &anthropicImageSource{Type: "base64", MediaType: b.MediaType, Data: b.Data}})
			default:
				return nil, fmt.Errorf("anthropic: unknown block type %q (expected: text, tool_use, tool_result, image)", b.Type)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		role := RoleUser
		if m.Role == RoleAssistant {
			role = RoleAssistant
		}
		params.Messages = append(params.Messages, anthropicMessage{Role: role, Content: blocks})
	}
	if req.CacheSystem {
		// As Claude Code does: the last block of each of the latest
		// messages is a breakpoint, so the next call (the same prefix plus
		// a reply and its results) reads the conversation from the cache.
		// With the tools' and the system's, that is the API's limit of four.
		for i := max(len(params.Messages)-cachedTurns, 0); i < len(params.Messages); i++ {
			c := params.Messages[i].Content
			c[len(c)-1].CacheControl = ephemeral()
		}
	}
	return params, nil
}

// cachedTurns is how many of the latest messages carry a cache breakpoint
// (Claude Code marks the last two).
const cachedTurns = 2

// anthropicSchema turns a tool's JSON schema into input_schema, as the
// official SDK did: type is always "object"; required keeps its strings and is left out
// when empty, as are missing properties; other keywords pass through.
// Unlike the SDK, a schema with none of those (no schema, {}, or
// {"type":"object"} of a tool without parameters) is still sent, as
// {"type":"object"}: the API requires input_schema.
func anthropicSchema(raw json.RawMessage) (map[string]any, error) {
	m := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("input schema: %w", err)
		}
		if m == nil { // null
			m = map[string]any{}
		}
	}
	m["type"] = "object"
	if m["properties"] == nil {
		delete(m, "properties")
	}
	var required []any
	if list, ok := m["required"].([]any); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				required = append(required, name)
			}
		}
	}
	delete(m, "required")
	if len(required) > 0 {
		m["required"] = required
	}
	return m, nil
}

// rawInput is a tool call's input as JSON, {} when empty.
func rawInput(in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return json.RawMessage(`{}`)
	}
	return in
}

// Wire format of the stream's events.
type (
	anthropicEvent struct {
		Type         string                `json:"type"`
		Message      anthropicStart        `json:"message"`
		Index        int                   `json:"index"`
		ContentBlock anthropicContentBlock `json:"content_block"`
		Delta        struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			PartialJSON string `json:"partial_json"`
			StopReason  string `json:"stop_reason"`
		} `json:"delta"`
		Usage anthropicUsage `json:"usage"`
	}
	anthropicStart struct {
		Model      string         `json:"model"`
		StopReason string         `json:"stop_reason"`
		Usage      anthropicUsage `json:"usage"`
	}
	anthropicContentBlock struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	// anthropicUsage: message_delta carries whole-message totals, each
	// present only when it applies; nil is absent.
	anthropicUsage struct {
		InputTokens              *int `json:"input_tokens"`
		OutputTokens             int  `json:"output_tokens"`
		CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
	}
)

// anthropicState is the reply accumulated from the events so far.
type anthropicState struct {
	model      string
	stopReason string
	usage      Usage
	blocks     []anthropicContentBlock
}

// apply accumulates one event, as the SDK's Message.Accumulate did.
func (m *anthropicState) apply(ev *anthropicEvent) error {
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		*m = anthropicState{model: ev.Message.Model, stopReason: ev.Message.StopReason}
		m.usage = Usage{InputTokens: deref(u.InputTokens), OutputTokens: u.OutputTokens,
			CacheReadTokens: deref(u.CacheReadInputTokens), CacheWriteTokens: deref(u.CacheCreationInputTokens)}
	case "message_delta":
		m.stopReason = ev.Delta.StopReason
		u := ev.Usage
		m.usage.OutputTokens = u.OutputTokens
		setIf(&m.usage.InputTokens, u.InputTokens)
		setIf(&m.usage.CacheReadTokens, u.CacheReadInputTokens)
		setIf(&m.usage.CacheWriteTokens, u.CacheCreationInputTokens)
	case "content_block_start":
		// Blocks start in index order with no gaps.
		if ev.Index != len(m.blocks) {
			return fmt.Errorf("content_block_start for block %d, want %d", ev.Index, len(m.blocks))
		}
		m.blocks = append(m.blocks, ev.ContentBlock)
	case "content_block_delta":
		if ev.Index < 0 || ev.Index >= len(m.blocks) {
			return fmt.Errorf("content_block_delta for block %d of %d", ev.Index, len(m.blocks))
		}
		b := &m.blocks[ev.Index]
		switch ev.Delta.Type {
		case "text_delta":
			b.Text += ev.Delta.Text
		case "input_json_delta":
			// The start event's input is {}: the deltas replace it.
			if ev.Delta.PartialJSON != "" {
				if string(b.Input) == "{}" {
					b.Input = nil
				}
				b.Input = append(b.Input, ev.Delta.PartialJSON...)
			}
		}
	case "content_block_stop":
		if ev.Index < 0 || ev.Index >= len(m.blocks) {
			return fmt.Errorf("content_block_stop for block %d of %d", ev.Index, len(m.blocks))
		}
	}
	return nil
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

func setIf(dst *int, n *int) {
	if n != nil {
		*dst = *n
	}
}

// response converts what has been accumulated, complete or not.
func (m *anthropicState) response() *Response {
	resp := &Response{Model: m.model, StopReason: StopReason(m.stopReason), Usage: m.usage}
	for _, b := range m.blocks {
		switch b.Type {
		case BlockText:
			resp.Content = append(resp.Content, Block{Type: BlockText, Text: b.Text})
		case BlockToolUse:
			in := b.Input
			if !json.Valid(in) {
				in = json.RawMessage(`{}`) // cut off mid-stream
			}
			resp.Content = append(resp.Content, Block{Type: BlockToolUse, ID: b.ID, Name: b.Name, Input: in})
		}
		// thinking and server-tool blocks are not requested and not kept
	}
	return resp
}

// stream makes one streaming call and accumulates the reply.
func (p *anthropicProvider) stream(ctx context.Context, body []byte, emit func(Event)) (*Response, error) {
	res, err := postJSON(ctx, p.client, "anthropic", p.base+"/v1/messages", p.header(), body)
	if err != nil {
		if ctx.Err() != nil {
			return &Response{}, ctx.Err()
		}
		return nil, err
	}
	defer res.Body.Close()
	var msg anthropicState
	events := newSSEReader(res.Body)
	seen := false // an event arrived
	for {
		sse, err := events.next()
		if err != nil {
			if ctx.Err() != nil {
				return msg.response(), ctx.Err()
			}
			if errors.Is(err, io.EOF) {
				why := ""
				if !seen {
					why = notEventStream(res.Header)
				}
				return msg.response(), malformed("anthropic", errors.New("stream ended before message_stop"+why))
			}
			return msg.response(), fmt.Errorf("anthropic: reading the reply: %w", err)
		}
		seen = true
		switch sse.name {
		case "", "ping": // the API names every event; the SDK skipped others too
			continue
		case "error":
			typ, text := errorFields(sse.data)
			if typ == "" && text == "" {
				text = truncate(string(sse.data), 300)
			}
			return msg.response(), classify("anthropic", 0, typ, text, 0)
		}
		var ev anthropicEvent
		if err := json.Unmarshal(sse.data, &ev); err != nil {
			return msg.response(), malformed("anthropic", fmt.Errorf("event %s: %w", sse.name, err))
		}
		if err := msg.apply(&ev); err != nil {
			return msg.response(), malformed("anthropic", err)
		}
		switch ev.Type {
		case "content_block_start":
			if ev.ContentBlock.Type == BlockToolUse {
				emit(Event{Type: "tool_use_start", Name: ev.ContentBlock.Name})
			}
		case "content_block_delta":
			if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
				emit(Event{Type: "text_delta", Text: ev.Delta.Text})
			}
		case "message_stop":
			emit(Event{Type: "message_stop"})
			return msg.response(), nil
		}
	}
}
