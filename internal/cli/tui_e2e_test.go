//go:build e2e

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
	"time"
)

// openAIStandIn speaks OpenAI's streaming chat completions and replies with
// scripted turns; it records every request's messages.
type openAIStandIn struct {
	mu       sync.Mutex
	requests [][]map[string]any
	replies  []func(w http.ResponseWriter, r *http.Request)
	canceled chan struct{}
}

func (s *openAIStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []map[string]any `json:"messages"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req.Messages)
	var reply func(http.ResponseWriter, *http.Request)
	if n < len(s.replies) {
		reply = s.replies[n]
	}
	s.mu.Unlock()
	if reply == nil {
		http.Error(w, `{"error":{"message":"no more scripted replies"}}`, 500)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	reply(w, r)
}

func (s *openAIStandIn) got() [][]map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]map[string]any(nil), s.requests...)
}

func sseChunk(w http.ResponseWriter, delta map[string]any, finish string) {
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "stand-in", "choices": []any{choice}})
	fmt.Fprintf(w, "data: %s\n\n", b)
	w.(http.Flusher).Flush()
}

func sseDone(w http.ResponseWriter) {
	b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "stand-in", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": 1200, "completion_tokens": 30, "total_tokens": 1230}})
	fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", b)
	w.(http.Flusher).Flush()
}

func textReply(text string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		sseChunk(w, map[string]any{"role": "assistant", "content": text}, "")
		sseChunk(w, map[string]any{}, "stop")
		sseDone(w)
	}
}

// tmuxScreen runs a command in a detached tmux session of its own.
type tmuxScreen struct {
	t      *testing.T
	socket string
}

func (s tmuxScreen) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s tmuxScreen) capture() string { return s.run("capture-pane", "-p", "-t", "grit") }

// waitFor polls the screen until it holds want.
func (s tmuxScreen) waitFor(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		screen := s.capture()
		if strings.Contains(screen, want) {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", want, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestTUIEndToEnd drives the real binary in a real terminal (tmux) against
// a local OpenAI-compatible stand-in: a prompt, a permission dialog, a
// three-line paste sent as one message, Esc in the middle of a stream, and
// Ctrl-C twice to quit.
func TestTUIEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (scripts/test.sh installs it)")
	}
	grit, err := exec.LookPath("grit")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	os.MkdirAll(repo, 0o755)
	os.WriteFile(filepath.Join(repo, "calc.py"), []byte("def add(a, b):\n    return a - b\n"), 0o644)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
	git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")

	stand := &openAIStandIn{canceled: make(chan struct{})}
	edit := `{"file_path":"calc.py","old_string":"return a - b","new_string":"return a + b"}`
	toolCall := func(id, name, args string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			sseChunk(w, map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "function",
				"function": map[string]any{"name": name, "arguments": args}}}}, "")
			sseChunk(w, map[string]any{}, "tool_calls")
			sseDone(w)
		}
	}
	stand.replies = []func(http.ResponseWriter, *http.Request){
		toolCall("call_0", "Read", `{"file_path":"calc.py"}`),
		func(w http.ResponseWriter, r *http.Request) {
			sseChunk(w, map[string]any{"role": "assistant", "content": "I will fix **add**."}, "")
			sseChunk(w, map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": "call_1", "type": "function",
				"function": map[string]any{"name": "Edit", "arguments": edit}}}}, "")
			sseChunk(w, map[string]any{}, "tool_calls")
			sseDone(w)
		},
		textReply("Fixed: `add` now adds."),
		textReply("Got your three lines."),
		func(w http.ResponseWriter, r *http.Request) { // a long story, cut by Esc
			sseChunk(w, map[string]any{"role": "assistant", "content": "Once upon a time"}, "")
			for i := 0; i < 300; i++ {
				select {
				case <-r.Context().Done():
					close(stand.canceled)
					return
				case <-time.After(100 * time.Millisecond):
				}
				sseChunk(w, map[string]any{"content": fmt.Sprintf(" and then %d", i)}, "")
			}
			sseChunk(w, map[string]any{}, "stop")
			sseDone(w)
		},
	}
	srv := httptest.NewServer(stand)
	defer srv.Close()

	env := append(agentEnv(work), "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_API_KEY=sk-test", "TERM=xterm-256color", "NO_COLOR=")
	cfg := filepath.Join(work, "home", ".config", "grit")
	os.MkdirAll(cfg, 0o755)
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"sandbox": {"enabled": false}}`), 0o644)
	script := filepath.Join(work, "run.sh")
	var exports strings.Builder
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&exports, "export %s=%q\n", k, v)
	}
	os.WriteFile(script, []byte(exports.String()+fmt.Sprintf("cd %q\n%q --model openai:stand-in\necho \"EXITED $?\"\nsleep 600\n", repo, grit)), 0o755)

	s := tmuxScreen{t: t, socket: filepath.Join(work, "tmux.sock")}
	s.run("new-session", "-d", "-s", "grit", "-x", "100", "-y", "32", "bash "+script)
	defer exec.Command("tmux", "-S", s.socket, "kill-server").Run()

	s.waitFor("Ask anything")
	s.run("send-keys", "-t", "grit", "-l", "fix the add function")
	s.run("send-keys", "-t", "grit", "Enter")
	screen := s.waitFor("Permission")
	if !strings.Contains(screen, "+return a + b") || !strings.Contains(screen, "1. Yes, allow once") {
		t.Fatalf("the dialog does not show the edit:\n%s", screen)
	}
	time.Sleep(500 * time.Millisecond) // past the dialog's guard against typed-ahead keys
	s.run("send-keys", "-t", "grit", "1")
	screen = s.waitFor("now adds")
	if !strings.Contains(screen, "● Edit(calc.py)") || !strings.Contains(screen, "-return a - b") {
		t.Fatalf("no edit card with its diff:\n%s", screen)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "calc.py")); !strings.Contains(string(b), "return a + b") {
		t.Fatalf("calc.py was not edited:\n%s", b)
	}

	// A paste of three lines is one message, sent by Enter.
	s.run("set-buffer", "alpha\nbeta\ngamma")
	s.run("paste-buffer", "-p", "-t", "grit")
	time.Sleep(300 * time.Millisecond)
	if n := len(stand.got()); n != 3 {
		t.Fatalf("the paste sent a message by itself: %d requests", n)
	}
	s.run("send-keys", "-t", "grit", "Enter")
	s.waitFor("Got your three lines")
	reqs := stand.got()
	last := reqs[3][len(reqs[3])-1]
	if content := fmt.Sprint(last["content"]); !strings.Contains(content, "alpha\nbeta\ngamma") {
		t.Fatalf("the pasted message arrived as %q", content)
	}

	// Esc in the middle of a stream stops it and keeps the partial reply.
	s.run("send-keys", "-t", "grit", "-l", "tell me a long story")
	s.run("send-keys", "-t", "grit", "Enter")
	s.waitFor("and then 3")
	s.run("send-keys", "-t", "grit", "Escape")
	select {
	case <-stand.canceled:
	case <-time.After(10 * time.Second):
		t.Fatal("Esc did not cancel the model's request")
	}
	screen = s.waitFor("Interrupted")
	if !strings.Contains(screen, "Once upon a time") {
		t.Fatalf("the partial reply is gone:\n%s", screen)
	}
	if n := len(stand.got()); n != 5 {
		t.Fatalf("%d requests, want 5", n)
	}

	s.run("send-keys", "-t", "grit", "C-c")
	s.waitFor("Ctrl-C again")
	s.run("send-keys", "-t", "grit", "C-c")
	s.waitFor("EXITED 0")
	if os.Getenv("GRIT_TUI_SCREENSHOT") != "" {
		os.WriteFile(os.Getenv("GRIT_TUI_SCREENSHOT"), []byte(s.run("capture-pane", "-p", "-e", "-S", "-60", "-t", "grit")), 0o644)
	}
}
