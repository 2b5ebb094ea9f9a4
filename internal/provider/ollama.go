package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// ollamaProvider speaks Ollama's native /api/chat over net/http, streaming
// NDJSON. num_ctx is decided once per instance (Options.ContextWindow, else
// the model's context length from /api/show) and sent identically with every
// request: a different num_ctx makes Ollama reload the model.
type ollamaProvider struct {
	model  string
	host   string // scheme://host:port, no trailing slash
	client *http.Client
	retry  *retrier

	mu         sync.Mutex
	numCtx     int  // 0: leave Ollama's default
	numCtxDone bool // numCtx is decided
}

func newOllama(model string, opts Options) *ollamaProvider {
	return &ollamaProvider{
		model:      model,
		host:       ollamaHost(envOr(opts.BaseURL, "OLLAMA_HOST", DefaultOllamaHost)),
		client:     httpClient(opts),
		retry:      newRetrier(opts),
		numCtx:     opts.ContextWindow,
		numCtxDone: opts.ContextWindow > 0,
	}
}

// ollamaHost normalizes OLLAMA_HOST's forms ("host", "host:port",
// "http://host:port/") to a base URL.
func ollamaHost(h string) string {
	h = strings.TrimRight(strings.TrimSpace(h), "/")
	if !strings.Contains(h, "://") {
		h = "http://" + h
	}
	if u, err := url.Parse(h); err == nil && u.Scheme == "http" && u.Port() == "" && u.Path == "" {
		h += ":11434"
	}
	return h
}

func (p *ollamaProvider) Name() string { return "ollama:" + p.model }

// ollamaVisionModels are name fragments of Ollama's vision models (the
// library's families that take images).
var ollamaVisionModels = []string{"llava", "vision", "bakllava", "moondream", "minicpm-v", "gemma3", "qwen2.5vl", "qwen2.5-vl", "qwen3-vl", "mistral-small3", "granite3.2-vision", "llama4"}

// AcceptsImages reports whether the model's name is one of a vision family.
func (p *ollamaProvider) AcceptsImages() bool {
	m := strings.ToLower(p.model)
	for _, v := range ollamaVisionModels {
		if strings.Contains(m, v) {
			return true
		}
	}
	return false
}

// NumCtx returns the num_ctx this instance sends, deciding it first if
// needed; 0 means Ollama's default (the model reported no context length).
func (p *ollamaProvider) NumCtx(ctx context.Context) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.numCtxDone {
		return p.numCtx, nil
	}
	var show struct {
		ModelInfo map[string]any `json:"model_info"`
	}
	if err := p.post(ctx, "/api/show", map[string]string{"model": p.model}, &show); err != nil {
		return 0, err
	}
	for k, v := range show.ModelInfo {
		if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") && n > 0 {
			p.numCtx = int(n)
		}
	}
	p.numCtxDone = true
	return p.numCtx, nil
}

// Ping lists the pulled models (GET /api/tags) and checks ours is one.
func (p *ollamaProvider) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.host+"/api/tags", nil)
	if err != nil {
		return fmt.Errorf("ollama: %w", err)
	}
	res, err := p.client.Do(req)
	if err != nil {
		return p.unreachable(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return p.statusError(res)
	}
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tags); err != nil {
		return malformed("ollama", err)
	}
	want := p.model
	if !strings.Contains(want, ":") {
		want += ":latest"
	}
	for _, m := range tags.Models {
		if m.Name == want || m.Model == want || m.Name == p.model {
			return nil
		}
	}
	return fmt.Errorf("ollama: model %q is not pulled at %s (run: ollama pull %s)", p.model, p.host, p.model)
}

// Wire format of /api/chat.
type (
	ollamaChatRequest struct {
		Model    string          `json:"model"`
		Messages []ollamaMessage `json:"messages"`
		Tools    []ollamaTool    `json:"tools,omitempty"`
		Stream   bool            `json:"stream"`
		Options  map[string]any  `json:"options,omitempty"`
	}
	ollamaMessage struct {
		Role       string           `json:"role"`
		Content    string           `json:"content"`
		Thinking   string           `json:"thinking,omitempty"`
		ToolCalls  []ollamaToolCall `json:"tool_calls,omitempty"`
		ToolName   string           `json:"tool_name,omitempty"`
		ToolCallID string           `json:"tool_call_id,omitempty"`
		Images     []string         `json:"images,omitempty"` // base64
	}
	ollamaToolCall struct {
		ID       string `json:"id,omitempty"`
		Function struct {
			Index     int             `json:"index,omitempty"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	ollamaTool struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters,omitempty"`
		} `json:"function"`
	}
	ollamaChunk struct {
		Model           string        `json:"model"`
		Message         ollamaMessage `json:"message"`
		Done            bool          `json:"done"`
		DoneReason      string        `json:"done_reason"`
		PromptEvalCount int           `json:"prompt_eval_count"`
		EvalCount       int           `json:"eval_count"`
		Error           string        `json:"error"`
	}
)

func (p *ollamaProvider) Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	numCtx, err := p.NumCtx(ctx)
	if err != nil {
		return nil, err
	}
	body, err := p.body(req, numCtx)
	if err != nil {
		return nil, err
	}
	return p.retry.do(ctx, onEvent, func(ctx context.Context, emit func(Event)) (*Response, error) {
		return p.stream(ctx, body, len(req.Messages), emit)
	})
}

// body encodes the request: tool_use blocks become tool_calls, tool_result
// blocks messages of role "tool" naming the tool and call they answer.
func (p *ollamaProvider) body(req *Request, numCtx int) ([]byte, error) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	cr := ollamaChatRequest{Model: model, Stream: true, Options: map[string]any{}}
	if numCtx > 0 {
		cr.Options["num_ctx"] = numCtx
	}
	if req.MaxTokens > 0 {
		cr.Options["num_predict"] = req.MaxTokens
	}
	if req.Temperature != nil {
		cr.Options["temperature"] = *req.Temperature
	}
	if req.System != "" {
		cr.Messages = append(cr.Messages, ollamaMessage{Role: "system", Content: req.System})
	}
	for _, t := range req.Tools {
		var ot ollamaTool
		ot.Type = "function"
		ot.Function.Name = t.Name
		ot.Function.Description = t.Description
		ot.Function.Parameters = t.InputSchema
		cr.Tools = append(cr.Tools, ot)
	}
	names := map[string]string{} // tool_use id → tool name
	for _, m := range req.Messages {
		msg := ollamaMessage{Role: string(m.Role)}
		var text strings.Builder
		for _, b := range m.Content {
			switch b.Type {
			case BlockText:
				appendText(&text, b.Text)
			case BlockToolUse:
				names[b.ID] = b.Name
				var tc ollamaToolCall
				tc.ID = b.ID
				tc.Function.Name = b.Name
				tc.Function.Arguments = rawInput(b.Input)
				msg.ToolCalls = append(msg.ToolCalls, tc)
			case BlockToolResult:
				content := b.Content
				if b.IsError {
					content = "Error: " + content
				}
				cr.Messages = append(cr.Messages, ollamaMessage{Role: "tool", Content: content, ToolName: names[b.ToolUseID], ToolCallID: b.ToolUseID})
			case BlockImage:
				msg.Images = append(msg.Images, b.Data)
			default:
				return nil, fmt.Errorf("ollama: unknown block type %q (expected: text, tool_use, tool_result, image)", b.Type)
			}
		}
		msg.Content = text.String()
		if msg.Content != "" || len(msg.ToolCalls) > 0 || len(msg.Images) > 0 {
			cr.Messages = append(cr.Messages, msg)
		}
	}
	return json.Marshal(cr)
}

// stream makes one /api/chat call and accumulates the NDJSON reply. turn
// numbers generated tool-call ids, which older servers leave out.
func (p *ollamaProvider) stream(ctx context.Context, body []byte, turn int, emit func(Event)) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.host+"/api/chat", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return &Response{}, ctx.Err()
		}
		return nil, p.unreachable(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, p.statusError(res)
	}
	resp := &Response{}
	var text strings.Builder
	finish := func() *Response {
		if text.Len() > 0 {
			resp.Content = append([]Block{{Type: BlockText, Text: text.String()}}, resp.Content...)
		}
		return resp
	}
	sc := bufio.NewScanner(newLimitReader(res.Body, maxStreamBytes))
	sc.Buffer(make([]byte, 64*1024), maxEventBytes)
	done := false
	for !done && sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var c ollamaChunk
		if err := json.Unmarshal(line, &c); err != nil {
			return finish(), malformed("ollama", fmt.Errorf("line %q: %w", truncate(string(line), 120), err))
		}
		if c.Error != "" {
			return finish(), p.classify(0, c.Error, 0)
		}
		if c.Model != "" {
			resp.Model = c.Model
		}
		if s := c.Message.Content; s != "" {
			text.WriteString(s)
			emit(Event{Type: "text_delta", Text: s})
		}
		for _, tc := range c.Message.ToolCalls {
			id := tc.ID
			if id == "" {
				id = fmt.Sprintf("call_%d_%d", turn, len(resp.Content))
			}
			resp.Content = append(resp.Content, Block{Type: BlockToolUse, ID: id, Name: tc.Function.Name, Input: ollamaArgs(tc.Function.Arguments)})
			emit(Event{Type: "tool_use_start", Name: tc.Function.Name})
		}
		if c.Done {
			done = true
			resp.Usage = Usage{InputTokens: c.PromptEvalCount, OutputTokens: c.EvalCount}
			resp.StopReason = ollamaStop(c.DoneReason, len(resp.Content) > 0)
		}
	}
	if ctx.Err() != nil {
		return finish(), ctx.Err()
	}
	if err := sc.Err(); err != nil {
		return finish(), fmt.Errorf("ollama: reading the reply: %w", err)
	}
	if !done {
		return finish(), malformed("ollama", errors.New(`stream ended before "done": true`))
	}
	emit(Event{Type: "message_stop"})
	return finish(), nil
}

// ollamaStop maps done_reason; toolCalls says the reply called tools.
func ollamaStop(reason string, toolCalls bool) StopReason {
	switch reason {
	case "length":
		return StopMaxTokens
	case "stop", "":
		if toolCalls {
			return StopToolUse
		}
		return StopEndTurn
	}
	return StopReason(reason) // "load", "unload": not a model reply
}

// ollamaArgs is a tool call's arguments: an object, or a string holding one
// (some templates produce that).
func ollamaArgs(a json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(a, &s) == nil {
		return toolArgs(s)
	}
	if len(bytes.TrimSpace(a)) == 0 || string(a) == "null" {
		return json.RawMessage(`{}`)
	}
	return a
}

// post sends a JSON request and decodes the JSON answer into out.
func (p *ollamaProvider) post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("ollama: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.host+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("ollama: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return p.unreachable(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return p.statusError(res)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		return malformed("ollama", fmt.Errorf("%s: %w", path, err))
	}
	return nil
}

func (p *ollamaProvider) unreachable(err error) error {
	return fmt.Errorf("ollama: cannot reach %s (is `ollama serve` running? set OLLAMA_HOST otherwise): %w", p.host, err)
}

// statusError reads an error answer ({"error": "..."}) and classifies it.
func (p *ollamaProvider) statusError(res *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBytes))
	_, msg := errorFields(body)
	if msg == "" {
		msg = http.StatusText(res.StatusCode)
	}
	return p.classify(res.StatusCode, msg, parseRetryAfter(res.Header, time.Now()))
}

func (p *ollamaProvider) classify(status int, msg string, retryAfter time.Duration) error {
	e := classify("ollama", status, "", msg, retryAfter)
	if e.kind == nil && (status == http.StatusNotFound || strings.Contains(msg, "not found")) {
		e.Hint = "run: ollama pull " + p.model
	}
	if e.kind == nil && strings.Contains(strings.ToLower(msg), "does not support tools") {
		e.Hint = "select the text tool-call mode for this model"
	}
	return e
}
