package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grit-dev/grit/internal/tool"
)

// serverEnv makes the test binary a small stdio MCP server (TestMain).
const serverEnv = "GRIT_MCPCLIENT_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		runTestServer()
		return
	}
	os.Exit(m.Run())
}

// runTestServer serves: echo (text back), die (the process exits, once
// per marker file, to test the restart), a resource and a prompt. It
// writes "started" to stderr, which must go to the log.
func runTestServer() {
	fmt.Fprintln(os.Stderr, "test server started")
	s := sdk.NewServer(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	type echoIn struct {
		Text string `json:"text" jsonschema:"what to echo"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes text."}, func(ctx context.Context, r *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "die", Description: "Exits the server the first time."}, func(ctx context.Context, r *sdk.CallToolRequest, in struct{}) (*sdk.CallToolResult, any, error) {
		marker := os.Getenv("DIE_MARKER")
		if _, err := os.Stat(marker); err != nil {
			os.WriteFile(marker, []byte("x"), 0o644)
			os.Exit(3)
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "alive again"}}}, nil, nil
	})
	s.AddResource(&sdk.Resource{URI: "test://readme", Name: "readme", MIMEType: "text/plain"}, func(ctx context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "test://readme", Text: "read me first"}}}, nil
	})
	s.AddPrompt(&sdk.Prompt{Name: "greet", Arguments: []*sdk.PromptArgument{{Name: "who"}}}, func(ctx context.Context, r *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Greet " + r.Params.Arguments["who"]}}}}, nil
	})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func testServer(t *testing.T) Named {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Named{Name: "t", Source: "project", Server: Server{Command: exe, Env: map[string]string{serverEnv: "1", "DIE_MARKER": filepath.Join(t.TempDir(), "died")}}}
}

func TestToolsCallRestartAndLog(t *testing.T) {
	logs := t.TempDir()
	m := NewManager([]Named{testServer(t)}, logs, "test")
	if st := m.Status()[0]; st.State != StateIdle {
		t.Errorf("state before any use = %s, want %s (servers start lazily)", st.State, StateIdle)
	}
	reg := tool.NewRegistry()
	if w := Register(context.Background(), m, reg); len(w) > 0 {
		t.Fatal(w)
	}
	names := strings.Join(reg.Names(), " ")
	if names != "mcp__t__die mcp__t__echo ListMcpResourcesTool ReadMcpResourceTool" && names != "mcp__t__echo mcp__t__die ListMcpResourcesTool ReadMcpResourceTool" {
		t.Fatalf("registered %s", names)
	}
	echo, _ := reg.Get("mcp__t__echo")
	if !strings.Contains(string(echo.Schema()), `"text"`) || !strings.Contains(string(echo.Schema()), "what to echo") {
		t.Errorf("schema not passed through: %s", echo.Schema())
	}
	if tool.KindOf(echo) != tool.KindExecute {
		t.Errorf("an MCP tool must ask like any tool with side effects")
	}
	res, err := echo.Run(context.Background(), nil, json.RawMessage(`{"text":"hi"}`))
	if err != nil || res.Content != "echo: hi" {
		t.Fatalf("echo = %+v, %v", res, err)
	}
	die, _ := reg.Get("mcp__t__die")
	res, err = die.Run(context.Background(), nil, json.RawMessage(`{}`))
	if err != nil || res.Content != "alive again" {
		t.Fatalf("after the server died: %+v, %v; want it restarted once and the call retried", res, err)
	}
	if st := m.Status()[0]; st.Restarts != 1 || st.State != StateConnected || st.Tools != 2 {
		t.Errorf("status = %+v, want connected, 2 tools, 1 restart", st)
	}
	list, _ := reg.Get("ListMcpResourcesTool")
	if res, _ := list.Run(context.Background(), nil, json.RawMessage(`{}`)); !strings.Contains(res.Content, "t\ttest://readme\treadme") {
		t.Errorf("resources = %s", res.Content)
	}
	read, _ := reg.Get("ReadMcpResourceTool")
	if res, _ := read.Run(context.Background(), nil, json.RawMessage(`{"server":"t","uri":"test://readme"}`)); res.Content != "read me first" {
		t.Errorf("resource = %+v", res)
	}
	prompts, err := m.Prompts(context.Background(), "t")
	if err != nil || len(prompts) != 1 || prompts[0].Name != "greet" {
		t.Errorf("prompts = %v, %v", prompts, err)
	}
	if p, err := m.GetPrompt(context.Background(), "t", "greet", map[string]string{"who": "Ann"}); err != nil || p.Messages[0].Content.(*sdk.TextContent).Text != "Greet Ann" {
		t.Errorf("prompt = %+v, %v", p, err)
	}
	if text, err := RenderPrompt(context.Background(), m, "t", "greet", "Ann and Bob"); err != nil || text != "Greet Ann and Bob" {
		t.Errorf("RenderPrompt = %q, %v", text, err)
	}
	if _, err := RenderPrompt(context.Background(), m, "t", "nope", ""); err == nil || !strings.Contains(err.Error(), "prompts: greet") {
		t.Errorf("unknown prompt: %v", err)
	}
	if s, p, ok := PromptCommand("mcp__t__greet"); !ok || s != "t" || p != "greet" {
		t.Errorf("PromptCommand = %s %s %v", s, p, ok)
	}
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if st := m.Status()[0]; st.State != StateStopped {
		t.Errorf("after Close: %s", st.State)
	}
	if res, err := echo.Run(context.Background(), nil, json.RawMessage(`{"text":"x"}`)); err != nil || !res.IsError {
		t.Errorf("a call after Close = %+v, %v; want an error result", res, err)
	}
	log, _ := os.ReadFile(filepath.Join(logs, "t.log"))
	if strings.Count(string(log), "test server started") != 2 {
		t.Errorf("server stderr should be in the log, once per start:\n%s", log)
	}
}

func TestFailingServer(t *testing.T) {
	m := NewManager([]Named{{Name: "bad", Server: Server{Command: "/nonexistent/server"}}}, "", "test")
	defer m.Close()
	reg := tool.NewRegistry()
	w := Register(context.Background(), m, reg)
	if len(w) != 1 || !strings.Contains(w[0], "MCP server bad") {
		t.Errorf("warnings = %v", w)
	}
	if st := m.Status()[0]; st.State != StateFailed || st.Error == "" {
		t.Errorf("status = %+v, want failed with the error", st)
	}
}

func TestLoadAndEdit(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ProjectFile)
	os.WriteFile(path, []byte(`{"other": 1, "mcpServers": {"gh": {"command": "gh-mcp", "args": ["--x"], "env": {"T": "1"}}, "web": {"type": "http", "url": "https://x/mcp", "headers": {"A": "b"}}, "bad": {"type": "sse"}}}`), 0o644)
	servers, warnings := Load(root, json.RawMessage(`{"gh": {"command": "user-gh"}, "mine": {"command": "m"}}`), true)
	var got []string
	for _, s := range servers {
		got = append(got, s.Name+"="+s.Source+":"+s.Command+s.URL)
	}
	if strings.Join(got, " ") != "gh=project:gh-mcp mine=user:m web=project:https://x/mcp" {
		t.Errorf("servers = %v", got)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `unknown type "sse"`) {
		t.Errorf("warnings = %v", warnings)
	}
	if servers, _ := Load(root, nil, false); len(servers) != 0 {
		t.Errorf("untrusted project servers loaded: %v", servers)
	}
	err := Edit(path, func(m map[string]Server) (map[string]Server, error) {
		delete(m, "bad")
		m["new"] = Server{Command: "n"}
		return m, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"other": 1`) || !strings.Contains(string(data), `"new"`) || strings.Contains(string(data), `"bad"`) {
		t.Errorf("after Edit:\n%s", data)
	}
	for name, s := range map[string]Server{"a__b": {Command: "x"}, "ok": {}, "h": {Type: "http", URL: "ftp://x"}} {
		if s.Validate(name) == nil {
			t.Errorf("Validate(%s, %+v) = nil", name, s)
		}
	}
}
