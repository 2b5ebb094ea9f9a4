package contextlayer

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// contextRepo extracts testdata/context_repo.txtar into a temp workspace.
func contextRepo(t *testing.T) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "context_repo.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		p := filepath.Join(root, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// turn is one scripted model reply.
type turn struct {
	Content    []provider.Block `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      *provider.Usage  `json:"usage,omitempty"`
}

func call(id, name string, input any) provider.Block {
	b, _ := json.Marshal(input)
	return provider.Block{Type: provider.BlockToolUse, ID: id, Name: name, Input: b}
}

func say(text string) provider.Block { return provider.Block{Type: provider.BlockText, Text: text} }

// contextAgent wires an agent on root with the context layer and a
// scripted model playing turns, recording into a session.
func contextAgent(t *testing.T, root string, window int, turns ...turn) (*agent.Agent, *Layer, *provider.Scripted, *session.Session) {
	t.Helper()
	script, err := json.Marshal(map[string]any{"turns": turns})
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider.ParseScripted("context-test", script)
	if err != nil {
		t.Fatal(err)
	}
	env, err := tool.NewEnv(root, sandbox.NewPlain())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	l, err := New(Options{Root: env.Root, Model: "scripted:test", Window: window,
		ConfigOpts: config.LoadOptions{Home: home, Getenv: func(string) string { return "" }}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.NewStore(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Meta{Cwd: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	reg := tool.Default(env)
	l.Install(reg, nil)
	a, err := agent.New(agent.Options{Provider: p, Tools: reg, Env: env, Session: sess})
	if err != nil {
		t.Fatal(err)
	}
	l.Attach(a)
	return a, l, p, sess
}

func toolNames(r provider.Request) []string {
	var out []string
	for _, s := range r.Tools {
		out = append(out, s.Name)
	}
	return out
}

// requestText is everything a request shows the model, as JSON.
func requestText(t *testing.T, r provider.Request) string {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestProgressiveDisclosureSkill(t *testing.T) {
	root := contextRepo(t)
	a, _, p, _ := contextAgent(t, root, 0,
		turn{Content: []provider.Block{call("s1", "Skill", map[string]string{"skill": "release"})}, StopReason: "tool_use"},
		turn{Content: []provider.Block{say("released")}, StopReason: "end_turn"},
	)
	if _, err := a.Run(context.Background(), "cut a release"); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first, second := requestText(t, reqs[0]), requestText(t, reqs[1])
	if !strings.Contains(reqs[0].System, "- release: Cut a release of this repository.") {
		t.Errorf("first request's system prompt does not list the skill:\n%s", reqs[0].System)
	}
	if strings.Contains(first, "SKILL-BODY") {
		t.Errorf("the skill's body is in the first request, before Skill was called")
	}
	if !strings.Contains(second, "SKILL-BODY") || !strings.Contains(second, ".grit/skills/release/scripts/bump.sh") {
		t.Errorf("the second request lacks the skill's body or its file list")
	}
	if strings.Contains(second, "echo bump") {
		t.Errorf("the skill's script was read; only its path should be listed")
	}
	// The context files and memory are in the system prompt from the start, in order.
	sys := reqs[0].System
	if i, j := strings.Index(sys, "ROOT-RULE"), strings.Index(sys, "MEMORY-NOTE"); i < 0 || j < 0 || i > j {
		t.Errorf("system prompt: context file at %d, memory at %d; want both, files first", i, j)
	}
	if reqs[0].System != reqs[1].System || !reqs[1].CacheSystem {
		t.Errorf("the system prompt changed between requests or is not marked cacheable: the prefix must stay stable")
	}
}

func TestProgressiveDisclosureDeferredTool(t *testing.T) {
	root := contextRepo(t)
	a, _, p, _ := contextAgent(t, root, 0,
		turn{Content: []provider.Block{call("q1", "ToolSearch", map[string]string{"query": "select:Memory"})}, StopReason: "tool_use"},
		turn{Content: []provider.Block{call("m1", "Memory", map[string]string{"command": "add", "text": "deploys go through make release"})}, StopReason: "tool_use"},
		turn{Content: []provider.Block{say("noted")}, StopReason: "end_turn"},
	)
	if _, err := a.Run(context.Background(), "remember how deploys work"); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	has := func(r provider.Request, name string) bool {
		for _, n := range toolNames(r) {
			if n == name {
				return true
			}
		}
		return false
	}
	if has(reqs[0], "Memory") || strings.Contains(requestText(t, reqs[0]), `"old_text"`) {
		t.Errorf("Memory's schema is in the first request (tools %v), before ToolSearch loaded it", toolNames(reqs[0]))
	}
	if !has(reqs[0], "ToolSearch") || !strings.Contains(reqs[0].System, "call ToolSearch") || !regexp.MustCompile(`call ToolSearch[^\n]*: [^\n]*\bMemory\b`).MatchString(reqs[0].System) {
		t.Errorf("the first request does not offer ToolSearch and name Memory as deferred")
	}
	if !has(reqs[1], "Memory") {
		t.Errorf("Memory's schema is not in the request after ToolSearch (tools %v)", toolNames(reqs[1]))
	}
	mem, err := os.ReadFile(filepath.Join(root, ".grit", "memory", "MEMORY.md"))
	if err != nil || !strings.Contains(string(mem), "- deploys go through make release") {
		t.Errorf("MEMORY.md = %q, %v; want the new note", mem, err)
	}
}

func TestNestedContextOnRead(t *testing.T) {
	root := contextRepo(t)
	a, _, p, _ := contextAgent(t, root, 0,
		turn{Content: []provider.Block{call("r1", "Read", map[string]string{"file_path": "web/app.ts"})}, StopReason: "tool_use"},
		turn{Content: []provider.Block{call("r2", "Read", map[string]string{"file_path": filepath.Join(root, "web/app.ts")})}, StopReason: "tool_use"},
		turn{Content: []provider.Block{say("done")}, StopReason: "end_turn"},
	)
	if _, err := a.Run(context.Background(), "look at the web app"); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if strings.Contains(requestText(t, reqs[0]), "WEB-RULE") {
		t.Errorf("web/AGENTS.md is in the first request, before any read under web/")
	}
	results := func(r provider.Request) []string {
		var out []string
		for _, m := range r.Messages {
			for _, b := range m.Content {
				if b.Type == provider.BlockToolResult {
					out = append(out, b.Content)
				}
			}
		}
		return out
	}
	res := results(reqs[2])
	if len(res) != 2 {
		t.Fatalf("%d tool results, want 2", len(res))
	}
	if !strings.Contains(res[0], "export const app") || !strings.Contains(res[0], "<system-reminder>") || !strings.Contains(res[0], "WEB-RULE") {
		t.Errorf("first Read result lacks the file or web/AGENTS.md as a reminder:\n%s", res[0])
	}
	if strings.Contains(res[1], "WEB-RULE") {
		t.Errorf("second Read under web/ repeats web/AGENTS.md; it is loaded once")
	}
}

func TestCompactionOnSmallWindow(t *testing.T) {
	root := contextRepo(t)
	// A 4k window compacts at 2,000 tokens. The file read is ~2,800.
	if err := os.WriteFile(filepath.Join(root, "big.go"), bytes.Repeat([]byte("// filler line of a big file\n"), 350), 0o644); err != nil {
		t.Fatal(err)
	}
	a, l, p, sess := contextAgent(t, root, 4_000,
		turn{Content: []provider.Block{call("r1", "Read", map[string]string{"file_path": "big.go"})}, StopReason: "tool_use", Usage: &provider.Usage{InputTokens: 1_100, OutputTokens: 20}},
		turn{Content: []provider.Block{say("## Primary request\nREAD-BIG-SUMMARY")}, StopReason: "end_turn", Usage: &provider.Usage{InputTokens: 2_000, OutputTokens: 30}},
		turn{Content: []provider.Block{say("done after compaction")}, StopReason: "end_turn", Usage: &provider.Usage{InputTokens: 900, OutputTokens: 5}},
	)
	// The context files change on disk before the compaction: it reloads them.
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("ROOT-RULE-V2: use make check.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), "read big.go")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "done after compaction" {
		t.Errorf("Run = %q, want the reply after compaction", res.Text)
	}
	reqs := p.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3 (task, summary, task)", len(reqs))
	}
	if !strings.Contains(reqs[1].System, "summarizing a conversation") {
		t.Errorf("second call is not the summary request:\n%.300s", reqs[1].System)
	}
	third := reqs[2]
	if len(third.Messages) != 1 || !strings.Contains(third.Messages[0].Text(), "READ-BIG-SUMMARY") || strings.Contains(requestText(t, third), "filler line") {
		t.Errorf("the request after compaction does not start from the summary alone: %d messages", len(third.Messages))
	}
	if !strings.Contains(third.System, "ROOT-RULE-V2") || strings.Contains(third.System, "ROOT-RULE:") {
		t.Errorf("the system prompt after compaction does not hold the reloaded AGENTS.md")
	}
	// The transcript records the boundary; a resume starts from the summary.
	tr, err := session.LoadFile(sess.Path)
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.Messages()
	if len(msgs) == 0 || !strings.Contains(msgs[0].Text(), "READ-BIG-SUMMARY") {
		t.Errorf("resumed conversation does not start from the summary: %+v", msgs)
	}
	if got := l.Usage(res.Usage).Usage.InputTokens; got != 1_100+900+2_000 {
		t.Errorf("Usage input tokens = %d, want the turn's calls plus the summary's", got)
	}
}

func TestCompactionDoesNotPingPong(t *testing.T) {
	root := contextRepo(t)
	if err := os.WriteFile(filepath.Join(root, "big.go"), bytes.Repeat([]byte("// filler line of a big file\n"), 350), 0o644); err != nil {
		t.Fatal(err)
	}
	hugeSummary := strings.Repeat("a summary that barely shrinks anything ", 200) // ~2,200 tokens
	a, _, p, _ := contextAgent(t, root, 4_000,
		turn{Content: []provider.Block{call("r1", "Read", map[string]string{"file_path": "big.go"})}, StopReason: "tool_use"},
		turn{Content: []provider.Block{say(hugeSummary)}, StopReason: "end_turn"},
		turn{Content: []provider.Block{say("must not be reached")}, StopReason: "end_turn"},
	)
	_, err := a.Run(context.Background(), "read big.go")
	if err == nil || !strings.Contains(err.Error(), "Not compacting again") || !strings.Contains(err.Error(), "/clear") {
		t.Fatalf("Run error = %v, want the ping-pong guard's message", err)
	}
	if n := p.Used(); n != 2 {
		t.Errorf("model calls = %d, want 2 (task, one summary): no second compaction, no call over the threshold", n)
	}
	if msgs := a.Messages(); len(msgs) != 1 || !strings.Contains(msgs[0].Text(), "barely shrinks") {
		t.Errorf("after the stop, the conversation is %d messages; want the summary kept", len(msgs))
	}
	// The next prompt stops at once, without another summary.
	if _, err := a.Run(context.Background(), "go on"); err == nil || !strings.Contains(err.Error(), "Not compacting again") {
		t.Errorf("second Run error = %v, want the guard again", err)
	}
	if n := p.Used(); n != 2 {
		t.Errorf("model calls after the second prompt = %d, want still 2", n)
	}
}

func TestContextRowsAddUpToWindow(t *testing.T) {
	root := contextRepo(t)
	for _, tc := range []struct {
		name   string
		window int
		last   provider.Usage
		turns  []turn
	}{
		{"estimate", 32_000, provider.Usage{}, nil},
		{"provider count", 32_000, provider.Usage{InputTokens: 5_000, CacheReadTokens: 1_000}, []turn{{Content: []provider.Block{say("hi")}, StopReason: "end_turn", Usage: &provider.Usage{InputTokens: 5_000, CacheReadTokens: 1_000}}}},
		{"unknown window", 0, provider.Usage{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, l, _, _ := contextAgent(t, root, tc.window, tc.turns...)
			if len(tc.turns) > 0 {
				if _, err := a.Run(context.Background(), "hello"); err != nil {
					t.Fatal(err)
				}
			}
			_, last := a.Usage()
			rep := l.Report(a.Messages(), last)
			sum := 0
			names := []string{}
			for _, r := range rep.Rows {
				sum += r.Tokens
				names = append(names, r.Name)
			}
			want := tc.window
			if want == 0 {
				want = rep.Used
			}
			if sum != want {
				t.Errorf("rows add up to %d, want %d (%v)", sum, want, rep.Rows)
			}
			wantRows := "system prompt,tools,deferred tools,context files,memory,skills,messages"
			if tc.window > 0 {
				wantRows += ",autocompact buffer,free space"
			}
			if got := strings.Join(names, ","); got != wantRows {
				t.Errorf("rows = %s, want %s", got, wantRows)
			}
			if tc.last != (provider.Usage{}) {
				if rep.Source != "provider" || rep.Used < 6_000 {
					t.Errorf("Source = %s, Used = %d; want the provider's 6,000 plus the reply", rep.Source, rep.Used)
				}
			}
			for _, r := range rep.Rows[:6] {
				if r.Name != "deferred tools" && r.Tokens == 0 {
					t.Errorf("row %s is 0; the fixture has every part", r.Name)
				}
			}
			var out bytes.Buffer
			rep.Write(&out)
			if !strings.Contains(out.String(), "context files") {
				t.Errorf("Write lacks the rows:\n%s", out.String())
			}
		})
	}
}

// An untrusted repository's own skills are not loaded: their files may run
// code. The user's skills still are, and a warning says why.
func TestUntrustedRepoSkillsLeftOut(t *testing.T) {
	root := contextRepo(t)
	l, err := New(Options{Root: root, ConfigOpts: config.LoadOptions{Home: t.TempDir()}, Untrusted: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range l.Skills.List {
		if sk.Source != "user" {
			t.Errorf("skill %q from %s loaded from an untrusted repository", sk.Name, sk.Source)
		}
	}
	if w := strings.Join(l.Warnings(), "\n"); !strings.Contains(w, "not trusted") {
		t.Errorf("Warnings() = %q, want one saying the repository's skills were left out", w)
	}
}
