package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxChat runs the interactive grit in a private tmux server, as a user
// at a terminal would.
type tmuxChat struct {
	t      *testing.T
	socket string
}

func (m *tmuxChat) tmux(args ...string) string {
	m.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", m.socket}, args...)...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// waitFor polls the screen until it shows want (the chat answers at its
// own pace; the deadline only bounds a hung run).
func (m *tmuxChat) waitFor(want string) {
	m.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		screen := m.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "chat")
		if strings.Contains(screen, want) {
			return
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("the chat never showed %q; screen:\n%s", want, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// paste pastes text as a terminal does; bracketed says whether the
// terminal marks it (it does only if the program asked for it).
func (m *tmuxChat) paste(text string, bracketed bool) {
	m.tmux("set-buffer", "-b", "p", text)
	args := []string{"paste-buffer", "-b", "p", "-t", "chat"}
	if bracketed {
		args = append(args, "-p")
	}
	m.tmux(args...)
}

// TestChatPasteIsOneMessage (issue 20, item 6), through the real binary
// at a terminal (tmux): a multi-line paste is one message, whether the
// terminal marks it or not, and a pasted "y" does not answer a permission
// prompt; only a key pressed at the prompt does.
func TestChatPasteIsOneMessage(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	grit, err := exec.LookPath("grit")
	if err != nil {
		t.Fatal(err)
	}
	w := newGritWork(t)
	script := w.file("../s.json", `{"turns": [
	  {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "touch approved.txt"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "text", "text": "Declined, stopping."}], "stop_reason": "end_turn"},
	  {"content": [{"type": "text", "text": "Got the y."}], "stop_reason": "end_turn"},
	  {"content": [{"type": "text", "text": "Got alpha beta."}], "stop_reason": "end_turn"}]}`)
	m := &tmuxChat{t: t, socket: filepath.Join(w.dir, "tmux.sock")}
	var envs []string
	for _, kv := range agentEnv(w.dir) {
		envs = append(envs, "'"+kv+"'")
	}
	cmd := "cd '" + w.repo + "' && exec env " + strings.Join(envs, " ") + " GRIT_MODEL= '" + grit + "' --no-tui --model 'scripted:" + script + "'"
	m.tmux("-f", "/dev/null", "new-session", "-d", "-s", "chat", "-x", "200", "-y", "50", cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", m.socket, "kill-server").Run() })
	m.waitFor("/help for commands")

	// A bracketed paste of three lines, then Enter: one message, one turn.
	m.paste("line one\nline two\nline three", true)
	m.tmux("send-keys", "-t", "chat", "Enter")
	m.waitFor("Allow? [y/N")

	// A pasted "y" at the prompt does not answer it; a key pressed does.
	m.paste("y\n", true)
	m.tmux("send-keys", "-t", "chat", "Enter")
	m.waitFor("kept for later")
	m.tmux("send-keys", "-t", "chat", "n", "Enter")
	m.waitFor("Declined, stopping.")
	m.waitFor("Got the y.") // the kept paste runs as the next message

	// A terminal that does not mark pastes: the lines arrive together.
	m.paste("alpha\nbeta\n", false)
	m.waitFor("Got alpha beta.")
	m.tmux("send-keys", "-t", "chat", "/exit", "Enter")

	if fileExists(filepath.Join(w.repo, "approved.txt")) {
		t.Errorf("the pasted y approved the command")
	}
	deadline := time.Now().Add(30 * time.Second)
	var stdout string
	for {
		// The chat may still be closing its session.
		stdout, _, _ = w.run("", "sessions", "--json")
		if strings.Contains(stdout, "session_id") || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var infos []struct {
		Turns int `json:"turns"`
	}
	if err := json.Unmarshal([]byte(stdout), &infos); err != nil || len(infos) != 1 || infos[0].Turns != 3 {
		t.Errorf("grit sessions --json = %s (%v): want one session of 3 prompts (two pastes and the kept y)", stdout, err)
	}
	tr := w.transcriptText()
	for _, want := range []string{`line one\nline two\nline three`, `alpha\nbeta`} {
		if !strings.Contains(tr, want) {
			t.Errorf("no prompt %q in the transcript:\n%s", want, tr)
		}
	}
}
