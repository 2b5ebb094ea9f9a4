package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// modelServer is a local model endpoint speaking a provider's streaming wire
// format (OpenAI Chat Completions or the Anthropic Messages API). It plays
// the replies given, in order, and keeps every request body.
type modelServer struct {
	*httptest.Server
	mu      sync.Mutex
	bodies  []map[string]any
	replies []wireReply
}

// wireReply is one model reply: text, an optional tool call, usage.
type wireReply struct {
	Text       string
	ToolName   string
	ToolInput  string // JSON
	Stop       string // anthropic stop_reason / openai finish_reason
	CacheRead  int
	CacheWrite int
}

func newModelServer(t *testing.T, kind string, replies ...wireReply) *modelServer {
	t.Helper()
	s := &modelServer{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(data, &body)
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		if n >= len(s.replies) {
			http.Error(w, `{"error":{"message":"no reply left"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		switch kind {
		case "anthropic":
			writeAnthropic(w, n, s.replies[n])
		case "ollama":
			writeOllama(w, s.replies[n])
		default:
			writeOpenAI(w, n, s.replies[n])
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// requests returns the request bodies received so far.
func (s *modelServer) requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...)
}

func sse(w io.Writer, event string, v any) {
	b, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
}

func writeOpenAI(w io.Writer, n int, r wireReply) {
	id := fmt.Sprintf("chatcmpl-%d", n)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "model": "gpt-4o",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	sse(w, "", chunk(map[string]any{"role": "assistant", "content": r.Text}, nil))
	finish := r.Stop
	if r.ToolName != "" {
		sse(w, "", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": fmt.Sprintf("call_%d", n), "type": "function",
			"function": map[string]any{"name": r.ToolName, "arguments": r.ToolInput}}}}, nil))
		if finish == "" {
			finish = "tool_calls"
		}
	}
	if finish == "" {
		finish = "stop"
	}
	sse(w, "", chunk(map[string]any{}, finish))
	sse(w, "", map[string]any{"id": id, "object": "chat.completion.chunk", "model": "gpt-4o", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": 100 + r.CacheRead, "completion_tokens": 10,
			"prompt_tokens_details": map[string]any{"cached_tokens": r.CacheRead}}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func writeOllama(w io.Writer, r wireReply) {
	line := func(v any) { b, _ := json.Marshal(v); fmt.Fprintf(w, "%s\n", b) }
	line(map[string]any{"model": "m", "message": map[string]any{"role": "assistant", "content": r.Text}, "done": false})
	line(map[string]any{"model": "m", "message": map[string]any{"role": "assistant", "content": ""}, "done": true,
		"done_reason": "stop", "prompt_eval_count": 100, "eval_count": 10})
}

func writeAnthropic(w io.Writer, n int, r wireReply) {
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": []any{},
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1, "cache_read_input_tokens": r.CacheRead, "cache_creation_input_tokens": r.CacheWrite}}})
	i := 0
	if r.Text != "" {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": r.Text}})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
		i++
	}
	stop := r.Stop
	if r.ToolName != "" {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", n), "name": r.ToolName, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": r.ToolInput}})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
		if stop == "" {
			stop = "tool_use"
		}
	}
	if stop == "" {
		stop = "end_turn"
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 10}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// gritWork is a scratch repository with its own home for one binary test.
type gritWork struct {
	t    *testing.T
	dir  string // the work directory: home/ and repo/ under it
	repo string
	env  []string
}

func newGritWork(t *testing.T) *gritWork {
	t.Helper()
	w := &gritWork{t: t, dir: t.TempDir()}
	w.repo = filepath.Join(w.dir, "repo")
	if err := os.MkdirAll(w.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	w.env = append(os.Environ(), agentEnv(w.dir)...)
	w.env = append(w.env, "OPENAI_API_KEY=sk-test", "ANTHROPIC_API_KEY=sk-ant-test", "GRIT_MODEL=", "GRIT_PERMISSION_MODE=")
	w.userSettings(`{"sandbox": {"enabled": false}}`)
	return w
}

// userSettings writes the user's settings file.
func (w *gritWork) userSettings(json string) {
	writeFile(w.t, filepath.Join(w.dir, "home", ".config", "grit", "settings.json"), json)
}

// file writes a file of the repository.
func (w *gritWork) file(rel, content string) string {
	p := filepath.Join(w.repo, rel)
	writeFile(w.t, p, content)
	return p
}

// run runs grit in dir (the repository when "") and returns stdout and
// stderr; a non-zero exit is returned as err.
func (w *gritWork) run(dir string, args ...string) (string, string, error) {
	w.t.Helper()
	cmd := exec.Command("grit", args...)
	cmd.Dir = dir
	if dir == "" {
		cmd.Dir = w.repo
	}
	cmd.Env = w.env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

// result is the -p --output-format json result message.
type result struct {
	Subtype   string `json:"subtype"`
	IsError   bool   `json:"is_error"`
	Result    string `json:"result"`
	SessionID string `json:"session_id"`
	NumTurns  int    `json:"num_turns"`
	Usage     struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
		CacheRead    int `json:"cache_read_input_tokens"`
		CacheWrite   int `json:"cache_creation_input_tokens"`
	} `json:"usage"`
	TotalCostUSD float64 `json:"total_cost_usd"`
}

func parseResult(t *testing.T, stdout string) result {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var r result
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatalf("result line %q: %v", lines[len(lines)-1], err)
	}
	return r
}

func readFileT(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
