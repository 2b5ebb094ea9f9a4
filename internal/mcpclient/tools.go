package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grit-dev/grit/internal/tool"
)

// ToolName is Claude Code's name for a server's tool: mcp__<server>__<tool>,
// with characters the model APIs refuse in a name replaced by _.
func ToolName(server, name string) string {
	return "mcp__" + server + "__" + badNameChar.ReplaceAllString(name, "_")
}

var badNameChar = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// maxResultBytes bounds one MCP tool result the model sees.
const maxResultBytes = 30000

// Tool is one tool of an MCP server as a Grit tool. It asks for
// permission as any tool with side effects does; rules name it
// (mcp__server__tool) or its server (mcp__server).
type Tool struct {
	M      *Manager
	Server string
	T      *sdk.Tool
}

func (t Tool) Name() string { return ToolName(t.Server, t.T.Name) }
func (t Tool) Description() string {
	d := strings.TrimSpace(t.T.Description)
	if d == "" {
		d = t.T.Name
	}
	return d + " (MCP server " + t.Server + ")"
}
func (t Tool) Kind() tool.Kind { return tool.KindExecute }
func (t Tool) Schema() json.RawMessage {
	b, err := json.Marshal(t.T.InputSchema)
	if err != nil || string(b) == "null" {
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}

func (t Tool) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	res, err := t.M.Call(ctx, t.Server, t.T.Name, input)
	if err != nil {
		if ctx.Err() != nil {
			return tool.Result{}, ctx.Err()
		}
		// A server that fails is the model's to work around, not a broken
		// harness: the turn goes on.
		return tool.Errorf("MCP server %s failed on %s: %v", t.Server, t.T.Name, err), nil
	}
	return tool.Result{Content: contentText(res.Content, res.StructuredContent), IsError: res.IsError}, nil
}

// contentText renders MCP content for the model: text as is, other kinds
// described; cut at maxResultBytes.
func contentText(content []sdk.Content, structured any) string {
	var parts []string
	for _, c := range content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes: not shown]", c.MIMEType, len(c.Data)))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes: not shown]", c.MIMEType, len(c.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.URI, c.Name))
		case *sdk.EmbeddedResource:
			if c.Resource != nil {
				parts = append(parts, resourceText(c.Resource))
			}
		}
	}
	if len(parts) == 0 && structured != nil {
		if b, err := json.Marshal(structured); err == nil {
			parts = append(parts, string(b))
		}
	}
	s := strings.Join(parts, "\n")
	if s == "" {
		s = "(no content)"
	}
	if len(s) > maxResultBytes {
		s = s[:maxResultBytes] + fmt.Sprintf("\n[cut at %d bytes]", maxResultBytes)
	}
	return s
}

func resourceText(r *sdk.ResourceContents) string {
	if r.Text != "" {
		return r.Text
	}
	return fmt.Sprintf("[%s: %s, %d bytes of binary data: not shown]", r.URI, r.MIMEType, len(r.Blob))
}

// Register starts every server, lists its tools and adds them to reg.
// Servers that fail are reported in the returned warnings (and in Status);
// the session goes on without them.
func Register(ctx context.Context, m *Manager, reg *tool.Registry) []string {
	var warnings []string
	for _, name := range m.Names() {
		tools, err := m.Tools(ctx, name)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("MCP server %s: %v (grit doctor shows its state; its log is in the session's mcp folder)", name, err))
			continue
		}
		for _, t := range tools {
			reg.Add(Tool{M: m, Server: name, T: t})
		}
	}
	if len(m.Names()) > 0 {
		reg.Add(ListResources{M: m})
		reg.Add(ReadResource{M: m})
	}
	return warnings
}

// ListResources is Claude Code's ListMcpResourcesTool.
type ListResources struct{ M *Manager }

func (ListResources) Name() string { return "ListMcpResourcesTool" }
func (ListResources) Description() string {
	return "Lists the resources of the MCP servers (server: one server's only)."
}
func (ListResources) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"Only this server"}}}`)
}
func (t ListResources) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Server string `json:"server"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return tool.Errorf("ListMcpResourcesTool: invalid input: %v", err), nil
	}
	servers := t.M.Names()
	if in.Server != "" {
		servers = []string{in.Server}
	}
	var b strings.Builder
	for _, s := range servers {
		rs, err := t.M.Resources(ctx, s)
		if err != nil {
			return tool.Errorf("MCP server %s: %v", s, err), nil
		}
		for _, r := range rs {
			fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", s, r.URI, r.Name, r.MIMEType)
		}
	}
	if b.Len() == 0 {
		return tool.Result{Content: "No resources."}, nil
	}
	return tool.Result{Content: "server\turi\tname\tmime type\n" + b.String()}, nil
}

// ReadResource is Claude Code's ReadMcpResourceTool.
type ReadResource struct{ M *Manager }

func (ReadResource) Name() string        { return "ReadMcpResourceTool" }
func (ReadResource) Description() string { return "Reads one resource of an MCP server by its URI." }
func (ReadResource) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"server":{"type":"string"},"uri":{"type":"string"}},"required":["server","uri"]}`)
}
func (t ReadResource) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if err := json.Unmarshal(input, &in); err != nil || in.Server == "" || in.URI == "" {
		return tool.Errorf("ReadMcpResourceTool needs server and uri."), nil
	}
	res, err := t.M.ReadResource(ctx, in.Server, in.URI)
	if err != nil {
		return tool.Errorf("MCP server %s: %v", in.Server, err), nil
	}
	var parts []string
	for _, c := range res.Contents {
		parts = append(parts, resourceText(c))
	}
	return tool.Result{Content: strings.Join(parts, "\n")}, nil
}

// PromptCommand splits "mcp__<server>__<prompt>", Claude Code's slash
// command name for an MCP prompt.
func PromptCommand(name string) (server, prompt string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, prompt, ok = strings.Cut(rest, "__")
	return server, prompt, ok && server != "" && prompt != ""
}

// RenderPrompt gets a server's prompt with args, the words after the
// command given to the prompt's arguments in order (the last takes the
// rest), and returns its messages' text.
func RenderPrompt(ctx context.Context, m *Manager, server, prompt, args string) (string, error) {
	prompts, err := m.Prompts(ctx, server)
	if err != nil {
		return "", err
	}
	var p *sdk.Prompt
	var names []string
	for _, q := range prompts {
		names = append(names, q.Name)
		if q.Name == prompt {
			p = q
		}
	}
	if p == nil {
		return "", fmt.Errorf("MCP server %s has no prompt %q (prompts: %s)", server, prompt, strings.Join(names, ", "))
	}
	words := strings.Fields(args)
	values := map[string]string{}
	for i, a := range p.Arguments {
		switch {
		case i >= len(words):
			if a.Required {
				return "", fmt.Errorf("/mcp__%s__%s needs the argument %q", server, prompt, a.Name)
			}
		case i == len(p.Arguments)-1:
			values[a.Name] = strings.Join(words[i:], " ")
		default:
			values[a.Name] = words[i]
		}
	}
	res, err := m.GetPrompt(ctx, server, prompt, values)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, msg := range res.Messages {
		parts = append(parts, contentText([]sdk.Content{msg.Content}, nil))
	}
	return strings.Join(parts, "\n\n"), nil
}
