package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/index/treesitter"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"grit": func() {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			code := Main(ctx, os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
			stop()
			os.Exit(code)
		},
	})
}

// agentEnv gives a test process (or script) its own home, config and data
// directories, so no user file is read or written.
func agentEnv(work string) []string {
	return []string{
		"HOME=" + filepath.Join(work, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(work, "home", ".config"),
		"XDG_DATA_HOME=" + filepath.Join(work, "home", ".local", "share"),
	}
}

func TestAgentScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			for _, kv := range agentEnv(env.WorkDir) {
				k, v, _ := strings.Cut(kv, "=")
				env.Setenv(k, v)
			}
			// Commands run without isolation here: the sandbox has its own tests.
			dir := filepath.Join(env.WorkDir, "home", ".config", "grit")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"sandbox": {"enabled": false}}`), 0o644)
		},
		// [ocaml]: this binary parses OCaml (built with -tags ocaml).
		Condition: func(cond string) (bool, error) {
			if cond == "ocaml" {
				return slices.ContainsFunc(treesitter.Support(), func(l treesitter.LanguageInfo) bool { return l.Name == "ocaml" }), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// webserve VAR serves testdata pages on a local HTTP server and sets VAR to its URL.
			"webserve": webserve,
			// lastsession VAR sets VAR to the newest session transcript's path.
			"lastsession": lastsession,
			// b64decode IN OUT writes the base64-decoded IN to OUT (binary fixtures).
			"b64decode": b64decode,
			// contextbudget FILE MAX fails when grit context --json's fixed rows exceed MAX tokens.
			"contextbudget": contextbudget,
			// jsonfield FILE FIELD VAR sets VAR to FIELD of the last JSON object in FILE.
			"jsonfield": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 {
					ts.Fatalf("usage: jsonfield FILE FIELD VAR")
				}
				lines := strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n")
				var m map[string]any
				ts.Check(json.Unmarshal([]byte(lines[len(lines)-1]), &m))
				v, ok := m[args[1]].(string)
				if !ok {
					ts.Fatalf("%s has no string field %s", args[0], args[1])
				}
				ts.Setenv(args[2], v)
			},
		},
	})
}

// TestKillDuringSessionThenResume kills a headless grit with SIGKILL in the
// middle of a turn, then resumes the session: every completed message is there.
func TestKillDuringSessionThenResume(t *testing.T) {
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(work, "script.json")
	writeFile(t, scriptPath, `{"turns": [
	  {"content": [{"type": "text", "text": "Listing."}, {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo one"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "text", "text": "Half of a reply that never"}], "stop_reason": "end_turn", "hang": true}
	]}`)
	writeFile(t, filepath.Join(work, "home", ".config", "grit", "settings.json"), `{"sandbox": {"enabled": false}}`)

	cmd := exec.Command("grit", "-p", "list things", "--model", "scripted:"+scriptPath, "--output-format", "stream-json", "--permission-mode", "bypassPermissions")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), agentEnv(work)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var sessionID string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var line struct {
			Type      string `json:"type"`
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("stream-json line %q: %v", sc.Text(), err)
		}
		sessionID = line.SessionID
		if line.Type == "user" { // the tool result is recorded; the next call hangs
			break
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if sessionID == "" {
		t.Fatalf("no session id in the stream; stderr:\n%s", stderr.String())
	}

	st, err := session.NewStore(filepath.Join(work, "home", ".local", "share"), repo)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := st.Read(sessionID)
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.Messages()
	if tr.Skipped != 0 || len(msgs) != 3 {
		t.Fatalf("after kill -9: %d messages, %d skipped (%v), want the 3 completed ones", len(msgs), tr.Skipped, tr.Warnings)
	}
	if msgs[0].Text() != "list things" || msgs[1].Content[1].Name != "Bash" || !strings.Contains(msgs[2].Content[0].Content, "one") {
		t.Errorf("recovered messages = %+v", msgs)
	}

	// Resume in process with a scripted model and look at what it is sent.
	p, err := provider.ParseScripted("resume", []byte(`{"turns": [{"content": [{"type": "text", "text": "Resumed."}], "stop_reason": "end_turn"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := app.OpenAgent(context.Background(), app.AgentOptions{
		Root: repo, Resume: sessionID, Provider: p, DataHome: filepath.Join(work, "home", ".local", "share"),
		ConfigOpts: config.LoadOptions{Home: filepath.Join(work, "home"), ManagedPath: filepath.Join(work, "none")},
		TrustPath:  filepath.Join(work, "trust.json"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Session.ID != sessionID || s.ForkedFrom != "" {
		t.Errorf("resumed session %s (forked from %q), want %s itself: the killed process's lock is gone", s.Session.ID, s.ForkedFrom, sessionID)
	}
	if _, err := s.Agent.Run(context.Background(), "go on"); err != nil {
		t.Fatal(err)
	}
	// The new prompt joins the recovered tool result in one user message.
	sent := p.Requests()[0].Messages
	if len(sent) != 3 || sent[2].Content[0].ToolUseID != "t1" || sent[2].Content[1].Text != "go on" {
		t.Errorf("resumed request messages = %+v, want the 3 recovered, the new prompt after the tool result", sent)
	}
}

// TestResumeLockedSessionForks: a session held by another process is not
// appended to; the second process continues in a fork and says so.
func TestResumeLockedSessionForks(t *testing.T) {
	work := t.TempDir()
	data := filepath.Join(work, "data")
	st, err := session.NewStore(data, work)
	if err != nil {
		t.Fatal(err)
	}
	held, err := st.Create(session.Meta{Cwd: work})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	held.AppendMessage(provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: "text", Text: "first"}}}, false)
	var warnings []string
	p, _ := provider.ParseScripted("s", []byte(`{"turns": []}`))
	s, err := app.OpenAgent(context.Background(), app.AgentOptions{
		Root: work, Resume: held.ID, Provider: p, DataHome: data,
		ConfigOpts: config.LoadOptions{Home: work, ManagedPath: filepath.Join(work, "none")},
		TrustPath:  filepath.Join(work, "trust.json"),
		Warnf:      func(f string, a ...any) { warnings = append(warnings, f) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.ForkedFrom != held.ID || s.Session.ID == held.ID {
		t.Errorf("resuming a held session: id %s forked from %q, want a fork of %s", s.Session.ID, s.ForkedFrom, held.ID)
	}
	if len(s.Agent.Messages()) != 1 {
		t.Errorf("fork carries %d messages, want 1", len(s.Agent.Messages()))
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "in use by another grit process") {
		t.Errorf("warnings = %q, want the fork explained", warnings)
	}
}

func TestSplitToolListViaFlags(t *testing.T) {
	// The root command accepts the Claude Code spellings of its flags.
	cmd := newAgentCmd(&env{ctx: context.Background()})
	for _, name := range []string{"print", "output-format", "continue", "resume", "model", "permission-mode", "max-turns", "allowedTools", "disallowedTools", "append-system-prompt", "verbose"} {
		if cmd.Flags().Lookup(name) == nil {
			t.Errorf("flag --%s is missing", name)
		}
	}
	for short, long := range map[string]string{"p": "print", "c": "continue", "r": "resume"} {
		if f := cmd.Flags().ShorthandLookup(short); f == nil || f.Name != long {
			t.Errorf("-%s is not --%s", short, long)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInteractiveChat drives the line-mode chat through a pipe: a prompt
// streams the reply, slash commands switch mode and model, /exit leaves.
func TestInteractiveChat(t *testing.T) {
	work := t.TempDir()
	for _, kv := range agentEnv(work) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	writeFile(t, filepath.Join(work, "home", ".config", "grit", "settings.json"), `{"sandbox": {"enabled": false}}`)
	repo := filepath.Join(work, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	s1 := filepath.Join(work, "s1.json")
	writeFile(t, s1, `{"turns": [
	  {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo hi > out.txt"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "text", "text": "Wrote the file."}], "stop_reason": "end_turn"}]}`)
	s2 := filepath.Join(work, "s2.json")
	writeFile(t, s2, `{"turns": [{"content": [{"type": "text", "text": "Second model here."}], "stop_reason": "end_turn"}]}`)

	in := strings.Join([]string{"write it", "y", "/permissions plan", "/model scripted:" + s2, "again", "/nope", "/help", "/exit", ""}, "\n")
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), Stdio: Stdio{In: strings.NewReader(in), Out: &out, Err: &errb}}
	if err := runInteractive(e, agentFlags{model: "scripted:" + s1}, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Wrote the file.", "Permission mode: plan", "Model: scripted:" + s2, "Second model here.", "/permissions [MODE]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	for _, want := range []string{"Bash wants to run: echo hi > out.txt", "Allow? [y/N", "unknown command /nope"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	if data, err := os.ReadFile(filepath.Join(repo, "out.txt")); err != nil || string(data) != "hi\n" {
		t.Errorf("out.txt = %q, %v; want the approved command's output", data, err)
	}
}

// TestModelSwitchWindow: /model recomputes the context window that the
// report and auto-compaction use.
func TestModelSwitchWindow(t *testing.T) {
	work := t.TempDir()
	for _, kv := range agentEnv(work) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("ANTHROPIC_API_KEY", "test-key") // never used: no prompt is sent
	writeFile(t, filepath.Join(work, "home", ".config", "grit", "settings.json"),
		`{"sandbox": {"enabled": false}, "providers": {"scripted": {"contextWindow": 50000}}}`)
	repo := filepath.Join(work, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	s1 := filepath.Join(work, "s1.json")
	writeFile(t, s1, `{"turns": []}`)
	in := strings.Join([]string{"/context", "/model anthropic:claude-sonnet-4-5", "/context", "/exit", ""}, "\n")
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), Stdio: Stdio{In: strings.NewReader(in), Out: &out, Err: &errb}}
	if err := runInteractive(e, agentFlags{model: "scripted:" + s1}, ""); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"of 50,000 tokens", "Model: anthropic:claude-sonnet-4-5 (context window 200000 tokens)", "of 200,000 tokens"} {
		if !strings.Contains(got, want) {
			t.Errorf("stdout lacks %q:\n%s\nstderr:\n%s", want, got, errb.String())
		}
	}
	if i, j := strings.Index(got, "of 50,000 tokens"), strings.Index(got, "of 200,000 tokens"); i < 0 || j < i {
		t.Errorf("the report's window did not follow the switch:\n%s", got)
	}
}
