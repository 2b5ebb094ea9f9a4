package provider

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
)

//go:embed textcalls.md
var textCallsPrompt string

var textCallsTemplate = template.Must(template.New("textcalls.md").Parse(textCallsPrompt))

// TextCalls wraps a provider for models without reliable native tool calls:
// the tools are described in the system prompt, the model answers with one
// fenced action block per reply, which TextCalls parses into a tool_use
// block (stop reason tool_use). Earlier tool_use and tool_result blocks go
// back on the wire as text. Streaming events pass through as they are, the
// action block included, plus a tool_use_start when a call is parsed.
type TextCalls struct {
	inner Provider
}

// NewTextCalls wraps inner in the text tool-call protocol.
func NewTextCalls(inner Provider) *TextCalls { return &TextCalls{inner: inner} }

func (t *TextCalls) Name() string { return t.inner.Name() }

// Ping passes through to the wrapped provider, if it has one.
func (t *TextCalls) Ping(ctx context.Context) error {
	if p, ok := t.inner.(interface{ Ping(context.Context) error }); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (t *TextCalls) Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	wire, err := TextCallsRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := t.inner.Send(ctx, wire, onEvent)
	if err != nil || resp == nil {
		return resp, err
	}
	var text strings.Builder
	for _, b := range resp.Content {
		if b.Type == BlockToolUse {
			return resp, nil // the model called natively after all
		}
		text.WriteString(b.Text)
	}
	known := map[string]bool{}
	for _, tool := range req.Tools {
		known[tool.Name] = true
	}
	before, call, ok := ParseAction(text.String(), known)
	if !ok {
		return resp, nil
	}
	resp.Content = nil
	if strings.TrimSpace(before) != "" {
		resp.Content = append(resp.Content, Block{Type: BlockText, Text: before})
	}
	resp.Content = append(resp.Content, Block{
		Type:  BlockToolUse,
		ID:    fmt.Sprintf("textcall_%d", len(req.Messages)), // one call per reply: unique in the conversation
		Name:  call.Tool,
		Input: call.Input,
	})
	resp.StopReason = StopToolUse
	if onEvent != nil {
		onEvent(Event{Type: "tool_use_start", Name: call.Tool})
	}
	return resp, nil
}

// TextCallsRequest rewrites req for the text protocol: tools move into the
// system prompt, tool_use and tool_result blocks become text.
func TextCallsRequest(req *Request) (*Request, error) {
	wire := *req
	wire.Tools = nil
	if len(req.Tools) > 0 {
		prompt, err := RenderTextCallsPrompt(req.Tools)
		if err != nil {
			return nil, err
		}
		if wire.System != "" {
			wire.System += "\n\n"
		}
		wire.System += prompt
	}
	names := map[string]string{}
	wire.Messages = make([]Message, 0, len(req.Messages))
	for _, m := range req.Messages {
		var parts []string
		for _, b := range m.Content {
			switch b.Type {
			case BlockText:
				if b.Text != "" {
					parts = append(parts, b.Text)
				}
			case BlockToolUse:
				names[b.ID] = b.Name
				parts = append(parts, formatAction(b.Name, rawInput(b.Input)))
			case BlockToolResult:
				parts = append(parts, formatResult(names[b.ToolUseID], b.Content, b.IsError))
			default:
				return nil, fmt.Errorf("text tool calls: unknown block type %q (expected: text, tool_use, tool_result)", b.Type)
			}
		}
		if len(parts) == 0 {
			continue
		}
		wire.Messages = append(wire.Messages, Message{Role: m.Role, Content: []Block{{Type: BlockText, Text: strings.Join(parts, "\n\n")}}})
	}
	return &wire, nil
}

// RenderTextCallsPrompt renders the tool descriptions of textcalls.md.
func RenderTextCallsPrompt(tools []ToolSpec) (string, error) {
	type tool struct{ Name, Description, Schema string }
	data := struct{ Tools []tool }{}
	for _, t := range tools {
		schema := "{}"
		if len(t.InputSchema) > 0 {
			var b bytes.Buffer
			if err := json.Compact(&b, t.InputSchema); err != nil {
				return "", fmt.Errorf("text tool calls: tool %s: input schema: %w", t.Name, err)
			}
			schema = b.String()
		}
		data.Tools = append(data.Tools, tool{t.Name, strings.TrimSpace(t.Description), schema})
	}
	var b strings.Builder
	if err := textCallsTemplate.Execute(&b, data); err != nil {
		return "", fmt.Errorf("text tool calls: %w", err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}

func formatAction(name string, input json.RawMessage) string {
	var in bytes.Buffer
	if json.Compact(&in, input) != nil {
		in.Reset()
		in.WriteString("{}")
	}
	nameJSON, _ := json.Marshal(name)
	return "```action\n{\"tool\": " + string(nameJSON) + ", \"input\": " + in.String() + "}\n```"
}

func formatResult(name, content string, isError bool) string {
	head := "Result"
	if name != "" {
		head += " of " + name
	}
	if isError {
		head = "Error"
		if name != "" {
			head += " from " + name
		}
	}
	fence := "```"
	for strings.Contains(content, fence) {
		fence += "`"
	}
	return head + ":\n" + fence + "\n" + strings.TrimRight(content, "\n") + "\n" + fence
}

// Action is a tool call written as text.
type Action struct {
	Tool  string
	Input json.RawMessage // a JSON object
}

// ParseAction finds the tool call in a text reply: the first fenced block
// tagged action (or json, tool, tool_call, or untagged) holding a JSON object
// {"tool": NAME, "input": {...}} ("name" and "arguments" are accepted too),
// or a reply that is that object alone. Blocks not tagged action must name a
// known tool (when known is non-empty). before is the text ahead of the
// call; what follows the call is dropped (models tend to imagine the result
// there). Anything that is not valid JSON, single quotes included, is no
// call: ok is false and the reply is text.
func ParseAction(text string, known map[string]bool) (before string, a Action, ok bool) {
	lines := strings.SplitAfter(text, "\n")
	offset := 0
	for i := 0; i < len(lines); i++ {
		start := offset
		offset += len(lines[i])
		fence, info, isFence := fenceOpen(lines[i])
		if !isFence {
			continue
		}
		// The block runs to the closing fence, or to the end of the reply
		// (a model stopped at the fence, or cut off after the JSON).
		var body strings.Builder
		j := i + 1
		for ; j < len(lines); j++ {
			if t := strings.TrimSpace(lines[j]); strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
				break
			}
			body.WriteString(lines[j])
		}
		switch info {
		case "action", "json", "tool", "tool_call", "tool_code", "":
			if a, ok := decodeAction(body.String(), known, info == "action"); ok {
				return text[:start], a, true
			}
		}
		// Not a call: skip past this block.
		for k := i + 1; k <= j && k < len(lines); k++ {
			offset += len(lines[k])
		}
		i = j
	}
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") {
		if a, ok := decodeAction(t, known, false); ok {
			return "", a, true
		}
	}
	return "", Action{}, false
}

// fenceOpen recognizes an opening fence line: up to three spaces, three or
// more backticks, an info string.
func fenceOpen(line string) (fence, info string, ok bool) {
	t := strings.TrimRight(line, "\r\n")
	trimmed := strings.TrimLeft(t, " ")
	if len(t)-len(trimmed) > 3 || !strings.HasPrefix(trimmed, "```") {
		return "", "", false
	}
	n := len(trimmed) - len(strings.TrimLeft(trimmed, "`"))
	info = strings.ToLower(strings.TrimSpace(trimmed[n:]))
	if strings.Contains(info, "`") {
		return "", "", false
	}
	if f := strings.Fields(info); len(f) > 0 {
		info = f[0]
	}
	return trimmed[:n], info, true
}

// decodeAction reads the first JSON value of s as a call; trailing text
// after it is ignored.
func decodeAction(s string, known map[string]bool, tagged bool) (Action, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return Action{}, false
	}
	var name string
	for _, k := range []string{"tool", "name", "tool_name"} {
		if raw, has := obj[k]; has {
			if json.Unmarshal(raw, &name) == nil && name != "" {
				break
			}
		}
	}
	if name == "" || (!tagged && len(known) > 0 && !known[name]) {
		return Action{}, false
	}
	input := json.RawMessage(`{}`)
	for _, k := range []string{"input", "arguments", "parameters", "args"} {
		raw, has := obj[k]
		if !has {
			continue
		}
		var str string
		if json.Unmarshal(raw, &str) == nil {
			raw = toolArgs(str)
		}
		raw = bytes.TrimSpace(raw)
		if string(raw) == "null" {
			break
		}
		if len(raw) == 0 || raw[0] != '{' {
			return Action{}, false
		}
		input = raw
		break
	}
	return Action{Tool: name, Input: input}, true
}
