package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// anthropicDefaultMaxTokens is max_tokens when the request leaves it 0: the
// Messages API requires one, and 8192 fits every current model.
const anthropicDefaultMaxTokens = 8192

// anthropicProvider speaks the Messages API through the official SDK, always
// streaming (SSE). The SDK's own retries are off: retrier does them.
type anthropicProvider struct {
	model  string
	apiKey string
	client anthropic.Client
	retry  *retrier
}

func newAnthropic(model string, opts Options) *anthropicProvider {
	key := envOr(opts.APIKey, "ANTHROPIC_API_KEY", "")
	ro := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithAPIKey(key),
		option.WithHTTPClient(httpClient(opts)),
		option.WithMaxRetries(0),
	}
	if base := envOr(opts.BaseURL, "ANTHROPIC_BASE_URL", ""); base != "" {
		ro = append(ro, option.WithBaseURL(base))
	}
	return &anthropicProvider{
		model:  model,
		apiKey: key,
		client: anthropic.NewClient(ro...),
		retry:  newRetrier(opts),
	}
}

func (p *anthropicProvider) Name() string { return "anthropic:" + p.model }

// AcceptsImages: every Claude model since Claude 3 takes images.
func (p *anthropicProvider) AcceptsImages() bool { return true }

// Ping lists the models (GET /v1/models): it checks the key and the
// endpoint without spending a token.
func (p *anthropicProvider) Ping(ctx context.Context) error {
	if p.apiKey == "" {
		return &APIError{Provider: "anthropic", Message: "no API key", Hint: "set ANTHROPIC_API_KEY", kind: ErrAuth}
	}
	if _, err := p.client.Models.List(ctx, anthropic.ModelListParams{}); err != nil {
		return p.apiError(err)
	}
	return nil
}

func (p *anthropicProvider) Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	return p.retry.do(ctx, onEvent, func(ctx context.Context, emit func(Event)) (*Response, error) {
		return p.stream(ctx, params, emit)
	})
}

// params translates the neutral request. With CacheSystem the last tool,
// the system prompt and the latest messages carry cache_control, so the
// tools, the system prompt and the conversation so far form a cached prefix.
func (p *anthropicProvider) params(req *Request) (anthropic.MessageNewParams, error) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = anthropicDefaultMaxTokens
	}
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(model),
		MaxTokens: int64(maxTokens),
	}
	if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	if req.System != "" {
		sys := anthropic.TextBlockParam{Text: req.System}
		if req.CacheSystem {
			sys.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
		params.System = []anthropic.TextBlockParam{sys}
	}
	for i, t := range req.Tools {
		schema, err := anthropicSchema(t.InputSchema)
		if err != nil {
			return params, fmt.Errorf("anthropic: tool %s: %w", t.Name, err)
		}
		tp := &anthropic.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		if req.CacheSystem && i == len(req.Tools)-1 {
			tp.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: tp})
	}
	for _, m := range req.Messages {
		var blocks []anthropic.ContentBlockParamUnion
		for _, b := range m.Content {
			switch b.Type {
			case BlockText:
				if b.Text != "" { // the API refuses empty text blocks
					blocks = append(blocks, anthropic.NewTextBlock(b.Text))
				}
			case BlockToolUse:
				blocks = append(blocks, anthropic.NewToolUseBlock(b.ID, rawInput(b.Input), b.Name))
			case BlockToolResult:
				tr := anthropic.ToolResultBlockParam{ToolUseID: b.ToolUseID}
				if b.Content != "" {
					tr.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: b.Content}}}
				}
				if b.IsError {
					tr.IsError = anthropic.Bool(true)
				}
				blocks = append(blocks, anthropic.ContentBlockParamUnion{OfToolResult: &tr})
			case BlockImage:
				blocks = append(blocks, anthropic.NewImageBlockBase64(b.MediaType, b.Data))
			default:
				return params, fmt.Errorf("anthropic: unknown block type %q (expected: text, tool_use, tool_result, image)", b.Type)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		role := anthropic.MessageParamRoleUser
		if m.Role == RoleAssistant {
			role = anthropic.MessageParamRoleAssistant
		}
		params.Messages = append(params.Messages, anthropic.MessageParam{Role: role, Content: blocks})
	}
	if req.CacheSystem {
		// As Claude Code does: the last block of each of the latest
		// messages is a breakpoint, so the next call (the same prefix plus
		// a reply and its results) reads the conversation from the cache.
		// With the tools' and the system's, that is the API's limit of four.
		for i := max(len(params.Messages)-cachedTurns, 0); i < len(params.Messages); i++ {
			c := params.Messages[i].Content
			if cc := c[len(c)-1].GetCacheControl(); cc != nil {
				*cc = anthropic.NewCacheControlEphemeralParam()
			}
		}
	}
	return params, nil
}

// cachedTurns is how many of the latest messages carry a cache breakpoint
// (Claude Code marks the last two).
const cachedTurns = 2

// anthropicSchema splits a JSON schema into the SDK's input schema.
func anthropicSchema(raw json.RawMessage) (anthropic.ToolInputSchemaParam, error) {
	var s anthropic.ToolInputSchemaParam
	if len(raw) == 0 {
		return s, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return s, fmt.Errorf("input schema: %w", err)
	}
	s.Properties = m["properties"]
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	for k, v := range m {
		switch k {
		case "type", "properties", "required":
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = map[string]any{}
			}
			s.ExtraFields[k] = v
		}
	}
	return s, nil
}

// rawInput is a tool call's input as JSON, {} when empty.
func rawInput(in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return json.RawMessage(`{}`)
	}
	return in
}

// stream makes one streaming call and accumulates the reply.
func (p *anthropicProvider) stream(ctx context.Context, params anthropic.MessageNewParams, emit func(Event)) (*Response, error) {
	stream := p.client.Messages.NewStreaming(ctx, params)
	defer stream.Close()
	var msg anthropic.Message
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return anthropicResponse(&msg), malformed("anthropic", err)
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
			stopped = true
			emit(Event{Type: "message_stop"})
		}
	}
	resp := anthropicResponse(&msg)
	if ctx.Err() != nil {
		return resp, ctx.Err()
	}
	if err := stream.Err(); err != nil {
		return resp, p.apiError(err)
	}
	if !stopped {
		return resp, malformed("anthropic", errors.New("stream ended before message_stop"))
	}
	return resp, nil
}

// anthropicResponse converts what has been accumulated, complete or not.
func anthropicResponse(msg *anthropic.Message) *Response {
	resp := &Response{
		Model:      msg.Model,
		StopReason: StopReason(msg.StopReason),
		Usage: Usage{
			InputTokens:      int(msg.Usage.InputTokens),
			OutputTokens:     int(msg.Usage.OutputTokens),
			CacheReadTokens:  int(msg.Usage.CacheReadInputTokens),
			CacheWriteTokens: int(msg.Usage.CacheCreationInputTokens),
		},
	}
	for _, c := range msg.Content {
		switch c.Type {
		case BlockText:
			resp.Content = append(resp.Content, Block{Type: BlockText, Text: c.Text})
		case BlockToolUse:
			in := c.Input
			if !json.Valid(in) {
				in = json.RawMessage(`{}`) // cut off mid-stream
			}
			resp.Content = append(resp.Content, Block{Type: BlockToolUse, ID: c.ID, Name: c.Name, Input: in})
		}
		// thinking and server-tool blocks are not requested and not kept
	}
	return resp
}

// apiError classifies an SDK error; other errors (network) pass through.
func (p *anthropicProvider) apiError(err error) error {
	var ae *anthropic.Error
	if !errors.As(err, &ae) {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return malformed("anthropic", err)
		}
		return fmt.Errorf("anthropic: %w", err)
	}
	typ, msg := errorFields([]byte(ae.RawJSON()))
	if typ == "" {
		typ = string(ae.Type())
	}
	status := ae.StatusCode
	if status == 200 { // an error event inside the stream
		status = 0
	}
	var retryAfter time.Duration
	if ae.Response != nil {
		retryAfter = parseRetryAfter(ae.Response.Header, time.Now())
	}
	if msg == "" && typ == "" && ae.RawJSON() != "" {
		msg = truncate(ae.RawJSON(), 300)
	}
	return classify("anthropic", status, typ, msg, retryAfter)
}

// errorFields reads an error body of any of the shapes the endpoints use:
// {"error":{"type"|"code":..., "message":...}}, {"error":"..."},
// {"type":..., "message":...}.
func errorFields(body []byte) (typ, msg string) {
	var v struct {
		Type    string          `json:"type"`
		Code    any             `json:"code"`
		Message string          `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return "", truncate(string(body), 300)
	}
	if len(v.Error) > 0 {
		var s string
		if json.Unmarshal(v.Error, &s) == nil {
			return "", s
		}
		if t, m := errorFields(v.Error); t != "" || m != "" {
			return t, m
		}
	}
	typ = v.Type
	if c, ok := v.Code.(string); ok && c != "" { // OpenAI's code is the precise one
		typ = c
	}
	if typ == "error" {
		typ = ""
	}
	return typ, v.Message
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
