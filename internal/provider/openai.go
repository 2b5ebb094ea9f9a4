package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// openaiProvider speaks Chat Completions through the official SDK, always
// streaming, to OpenAI or any compatible server (vLLM, llama.cpp server, LM
// Studio, OpenRouter). The SDK's own retries are off: retrier does them.
type openaiProvider struct {
	model   string
	apiKey  string
	baseURL string
	client  openai.Client
	retry   *retrier
}

func newOpenAI(model string, opts Options) *openaiProvider {
	key := envOr(opts.APIKey, "OPENAI_API_KEY", "")
	base := envOr(opts.BaseURL, "OPENAI_BASE_URL", "")
	ro := []option.RequestOption{
		option.WithAPIKey(key),
		option.WithHTTPClient(httpClient(opts)),
		option.WithMaxRetries(0),
	}
	if base != "" {
		ro = append(ro, option.WithBaseURL(base))
	}
	return &openaiProvider{
		model:   model,
		apiKey:  key,
		baseURL: base,
		client:  openai.NewClient(ro...),
		retry:   newRetrier(opts),
	}
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

// official reports whether the endpoint is OpenAI's own, which wants
// max_completion_tokens; compatible servers know max_tokens.
func (p *openaiProvider) official() bool {
	if p.baseURL == "" {
		return true
	}
	u, err := url.Parse(p.baseURL)
	return err == nil && u.Hostname() == "api.openai.com"
}

// Ping lists the models (GET /models).
func (p *openaiProvider) Ping(ctx context.Context) error {
	if p.official() && p.apiKey == "" {
		return &APIError{Provider: "openai", Message: "no API key", Hint: "set OPENAI_API_KEY", kind: ErrAuth}
	}
	if _, err := p.client.Models.List(ctx); err != nil {
		return p.apiError(err)
	}
	return nil
}

func (p *openaiProvider) Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	return p.retry.do(ctx, onEvent, func(ctx context.Context, emit func(Event)) (*Response, error) {
		return p.stream(ctx, params, emit)
	})
}

// params translates the neutral request: tool_use blocks become an
// assistant message's tool_calls, tool_result blocks messages of role
// "tool", placed before any text of the same user turn.
func (p *openaiProvider) params(req *Request) (openai.ChatCompletionNewParams, error) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	params := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(model),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.MaxTokens > 0 {
		if p.official() {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, t := range req.Tools {
		var schema map[string]any
		if len(t.InputSchema) > 0 {
			if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
				return params, fmt.Errorf("openai: tool %s: input schema: %w", t.Name, err)
			}
		}
		fd := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schema}
		if t.Description != "" {
			fd.Description = openai.String(t.Description)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fd))
	}
	for _, m := range req.Messages {
		var text strings.Builder
		var images []openai.ChatCompletionContentPartUnionParam
		var calls []openai.ChatCompletionMessageToolCallUnionParam
		for _, b := range m.Content {
			switch b.Type {
			case BlockText:
				appendText(&text, b.Text)
			case BlockToolUse:
				calls = append(calls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: b.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name:      b.Name,
							Arguments: string(rawInput(b.Input)),
						},
					},
				})
			case BlockToolResult:
				content := b.Content
				if b.IsError {
					content = "Error: " + content
				}
				params.Messages = append(params.Messages, openai.ToolMessage(content, b.ToolUseID))
			case BlockImage:
				// Tool messages take text only: images go in a user message after them.
				images = append(images, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "data:" + b.MediaType + ";base64," + b.Data}))
			default:
				return params, fmt.Errorf("openai: unknown block type %q (expected: text, tool_use, tool_result, image)", b.Type)
			}
		}
		if m.Role == RoleAssistant {
			if text.Len() == 0 && len(calls) == 0 {
				continue
			}
			am := &openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}
			if text.Len() > 0 {
				am.Content.OfString = openai.String(text.String())
			}
			params.Messages = append(params.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: am})
		} else if len(images) > 0 {
			parts := images
			if text.Len() > 0 {
				parts = append([]openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(text.String())}, images...)
			}
			params.Messages = append(params.Messages, openai.UserMessage(parts))
		} else if text.Len() > 0 {
			params.Messages = append(params.Messages, openai.UserMessage(text.String()))
		}
	}
	return params, nil
}

// openaiCall accumulates one tool call from its deltas.
type openaiCall struct {
	id, name string
	args     strings.Builder
}

// stream makes one streaming call and accumulates the reply.
func (p *openaiProvider) stream(ctx context.Context, params openai.ChatCompletionNewParams, emit func(Event)) (*Response, error) {
	stream := p.client.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	var (
		model  string
		text   strings.Builder
		calls  = map[int64]*openaiCall{}
		finish string
		usage  Usage
	)
	result := func() *Response {
		return openaiResponse(model, text.String(), calls, finish, usage)
	}
	for stream.Next() {
		chunk := stream.Current()
		if chunk.Model != "" {
			model = chunk.Model
		}
		if chunk.JSON.Usage.Valid() {
			u := chunk.Usage
			cached := int(u.PromptTokensDetails.CachedTokens)
			// prompt_tokens counts the cached ones; Usage keeps them apart.
			usage = Usage{
				InputTokens:      int(u.PromptTokens) - cached,
				OutputTokens:     int(u.CompletionTokens),
				CacheReadTokens:  cached,
				CacheWriteTokens: int(u.PromptTokensDetails.CacheWriteTokens),
			}
		}
		for _, c := range chunk.Choices {
			if c.Index != 0 {
				continue // we ask for one choice
			}
			d := c.Delta
			if s := d.Content + d.Refusal; s != "" {
				text.WriteString(s)
				emit(Event{Type: "text_delta", Text: s})
			}
			for _, tc := range d.ToolCalls {
				call := calls[tc.Index]
				if call == nil {
					call = &openaiCall{}
					calls[tc.Index] = call
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
				finish = c.FinishReason
			}
		}
	}
	if ctx.Err() != nil {
		return result(), ctx.Err()
	}
	if err := stream.Err(); err != nil {
		return result(), p.apiError(err)
	}
	if finish == "" {
		return result(), malformed("openai", errors.New("stream ended without a finish_reason"))
	}
	emit(Event{Type: "message_stop"})
	return result(), nil
}

// openaiStop maps finish_reason to the neutral stop reasons.
var openaiStop = map[string]StopReason{
	"stop":           StopEndTurn,
	"tool_calls":     StopToolUse,
	"function_call":  StopToolUse,
	"length":         StopMaxTokens,
	"content_filter": StopRefusal,
}

func openaiResponse(model, text string, calls map[int64]*openaiCall, finish string, usage Usage) *Response {
	resp := &Response{Model: model, Usage: usage}
	if text != "" {
		resp.Content = append(resp.Content, Block{Type: BlockText, Text: text})
	}
	idx := make([]int64, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	for n, i := range idx {
		c := calls[i]
		id := c.id
		if id == "" { // some compatible servers leave it out
			id = fmt.Sprintf("call_%d", n)
		}
		resp.Content = append(resp.Content, Block{Type: BlockToolUse, ID: id, Name: c.name, Input: toolArgs(c.args.String())})
	}
	if finish == "" {
		return resp
	}
	stop, ok := openaiStop[finish]
	if !ok {
		stop = StopReason(finish)
	}
	// Some servers say "stop" after tool calls.
	if stop == StopEndTurn && len(calls) > 0 {
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

// apiError classifies an SDK error; other errors (network) pass through.
func (p *openaiProvider) apiError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var ae *openai.Error
	if errors.As(err, &ae) {
		raw := []byte(ae.RawJSON())
		if len(raw) == 0 && ae.Response != nil && ae.Response.Body != nil {
			// No {"error": ...} wrapper (vLLM): read the whole body, which
			// the SDK keeps for us.
			raw, _ = io.ReadAll(io.LimitReader(ae.Response.Body, 64<<10))
		}
		typ, msg := errorFields(raw)
		if typ == "" {
			typ = ae.Code
		}
		if typ == "" {
			typ = ae.Type
		}
		if msg == "" {
			msg = ae.Message
		}
		var retryAfter time.Duration
		if ae.Response != nil {
			retryAfter = parseRetryAfter(ae.Response.Header, time.Now())
		}
		return classify("openai", ae.StatusCode, typ, msg, retryAfter)
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		typ, msg := errorFields(se.Event.Data)
		return classify("openai", 0, typ, msg, 0)
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return malformed("openai", err)
	}
	return fmt.Errorf("openai: %w", err)
}
