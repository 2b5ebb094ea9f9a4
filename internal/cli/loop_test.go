package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lastUserText is the content of the last user message of an OpenAI or
// Ollama request body (a string in both formats).
func lastUserText(t *testing.T, body map[string]any) string {
	t.Helper()
	msgs, _ := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i].(map[string]any)
		if m["role"] == "user" {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("no user message in %v", body)
	return ""
}

// TestHookContextSeparatedFromPrompt (issue 20, item 3): a
// UserPromptSubmit hook's context and the prompt reach OpenAI and Ollama as
// two paragraphs, not run together.
func TestHookContextSeparatedFromPrompt(t *testing.T) {
	for _, kind := range []string{"openai", "ollama"} {
		t.Run(kind, func(t *testing.T) {
			srv := newModelServer(t, kind, wireReply{Text: "On it."})
			w := newGritWork(t)
			w.userSettings(`{"sandbox": {"enabled": false},
			  "providers": {"` + kind + `": {"baseURL": "` + srv.URL + `", "contextWindow": 100000}},
			  "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'Branch is main.'"}]}]}}`)
			if _, stderr, err := w.run("", "-p", "fix the bug", "--model", kind+":m", "--output-format", "json"); err != nil {
				t.Fatalf("grit -p: %v\n%s", err, stderr)
			}
			reqs := srv.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			if got, want := lastUserText(t, reqs[0]), "Branch is main.\n\nfix the bug"; got != want {
				t.Errorf("user message = %q, want %q", got, want)
			}
		})
	}
}

// TestStopHookContinueFalseStops (issue 20, item 4): a Stop hook printing
// {"continue": false} ends the turn; it does not send the model back to work.
func TestStopHookContinueFalseStops(t *testing.T) {
	w := newGritWork(t)
	script := w.file("../s.json", `{"turns": [
	  {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"},
	  {"content": [{"type": "text", "text": "Back at work."}], "stop_reason": "end_turn"}
	]}`)
	w.userSettings(`{"sandbox": {"enabled": false},
	  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo '{\"continue\": false, \"stopReason\": \"enough\"}'"}]}]}}`)
	stdout, stderr, err := w.run("", "-p", "go", "--model", "scripted:"+script, "--output-format", "json")
	if err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	r := parseResult(t, stdout)
	if r.NumTurns != 1 || r.Result != "Done." || r.IsError {
		t.Errorf("result = %+v, want one model call ending in \"Done.\"", r)
	}
}

// TestClaudeCodeHookEventsLoad (issue 20, item 5): a settings file with
// every documented hook event, plus one Grit does not know, loads; the
// unknown event is warned about once; a hook exiting 1 is shown and does
// not block; exit 2 blocks.
func TestClaudeCodeHookEventsLoad(t *testing.T) {
	w := newGritWork(t)
	log := filepath.Join(w.dir, "events.log")
	hook := func(name string) string {
		return `[{"hooks": [{"type": "command", "command": "echo ` + name + ` >> ` + log + `"}]}]`
	}
	w.userSettings(`{"sandbox": {"enabled": false}, "hooks": {
	  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo broken >&2; exit 1"}]},
	                 {"matcher": "Write", "hooks": [{"type": "command", "command": "echo 'no writes here' >&2; exit 2"}]}],
	  "PostToolUse": ` + hook("PostToolUse") + `,
	  "UserPromptSubmit": ` + hook("UserPromptSubmit") + `,
	  "Notification": ` + hook("Notification") + `,
	  "Stop": ` + hook("Stop") + `,
	  "SubagentStop": ` + hook("SubagentStop") + `,
	  "PreCompact": ` + hook("PreCompact") + `,
	  "SessionStart": ` + hook("SessionStart") + `,
	  "SessionEnd": ` + hook("SessionEnd") + `,
	  "TeleportStart": ` + hook("TeleportStart") + `}}`)
	script := w.file("../s.json", `{"turns": [
	  {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo ran > ran.txt"}},
	               {"type": "tool_use", "id": "t2", "name": "Write", "input": {"file_path": "w.txt", "content": "x"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}
	]}`)
	stdout, stderr, err := w.run("", "-p", "go", "--model", "scripted:"+script, "--output-format", "stream-json", "--permission-mode", "bypassPermissions")
	if err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	if n := strings.Count(stderr, `"TeleportStart"`); n != 1 {
		t.Errorf("stderr warns about TeleportStart %d times, want once:\n%s", n, stderr)
	}
	if !strings.Contains(stderr, "broken") {
		t.Errorf("stderr does not show the failing hook's message:\n%s", stderr)
	}
	if got := readFileT(t, filepath.Join(w.repo, "ran.txt")); got != "ran\n" {
		t.Errorf("ran.txt = %q: a hook exiting 1 must not block the call", got)
	}
	if !strings.Contains(stdout, "no writes here") || fileExists(filepath.Join(w.repo, "w.txt")) {
		t.Errorf("exit 2 did not block the Write: stdout\n%s", stdout)
	}
	events := readFileT(t, log)
	for _, want := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"} {
		if !strings.Contains(events, want) {
			t.Errorf("event %s did not run; ran:\n%s", want, events)
		}
	}
	if strings.Contains(events, "TeleportStart") {
		t.Errorf("the unknown event ran:\n%s", events)
	}
}

// TestEditFunctionPermissions (issue 20, items 1 and 2): EditFunction runs
// in the loop (its schema has no file_path), and a deny rule on the file
// it would write holds however the input is dressed up.
func TestEditFunctionPermissions(t *testing.T) {
	const helper = "def helper():\n    return 1\n"
	edit := func(extra string) string {
		return `{"turns": [
		  {"content": [{"type": "tool_use", "id": "t0", "name": "Read", "input": {"file_path": "sub/h.py"}}], "stop_reason": "tool_use"},
		  {"content": [{"type": "tool_use", "id": "t1", "name": "EditFunction", "input": {"name": "sub/h.py::helper", "new_source": "def helper():\n    return 2\n"` + extra + `}}], "stop_reason": "tool_use"},
		  {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}]}`
	}
	t.Run("allowed", func(t *testing.T) {
		w := newGritWork(t)
		w.file("sub/h.py", helper)
		script := w.file("../s.json", edit(""))
		stdout, stderr, err := w.run("", "-p", "edit", "--model", "scripted:"+script, "--output-format", "stream-json", "--permission-mode", "acceptEdits")
		if err != nil {
			t.Fatalf("grit -p: %v\n%s", err, stderr)
		}
		if got := readFileT(t, filepath.Join(w.repo, "sub", "h.py")); !strings.Contains(got, "return 2") {
			t.Errorf("sub/h.py = %q, want helper rewritten; stream:\n%s", got, stdout)
		}
	})
	t.Run("deny rule holds against a decoy file_path", func(t *testing.T) {
		w := newGritWork(t)
		w.file("sub/h.py", helper)
		w.file("decoy.py", "x = 1\n")
		w.userSettings(`{"sandbox": {"enabled": false}, "permissions": {"deny": ["Edit(sub/**)"]}}`)
		script := w.file("../s.json", edit(`, "file_path": "decoy.py"`))
		stdout, stderr, err := w.run("", "-p", "edit", "--model", "scripted:"+script, "--output-format", "stream-json", "--permission-mode", "bypassPermissions")
		if err != nil {
			t.Fatalf("grit -p: %v\n%s", err, stderr)
		}
		if got := readFileT(t, filepath.Join(w.repo, "sub", "h.py")); got != helper {
			t.Errorf("sub/h.py = %q: the deny rule Edit(sub/**) was bypassed", got)
		}
		if !strings.Contains(stdout, "denied by deny rule Edit(sub/**)") {
			t.Errorf("the tool result does not name the deny rule:\n%s", stdout)
		}
	})
}

// transcriptText is every session transcript of the work directory, joined.
func (w *gritWork) transcriptText() string {
	var b strings.Builder
	filepath.Walk(filepath.Join(w.dir, "home", ".local", "share"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			b.WriteString(readFileT(w.t, p))
		}
		return nil
	})
	return b.String()
}

// TestMaxTokensContinuation (issue 20, item 12): the result of a reply cut
// by max_tokens and continued is the whole answer; a tool call cut by
// max_tokens is asked for again, whole, and then runs.
func TestMaxTokensContinuation(t *testing.T) {
	t.Run("text", func(t *testing.T) {
		w := newGritWork(t)
		script := w.file("../s.json", `{"turns": [
		  {"content": [{"type": "text", "text": "Part one, "}], "stop_reason": "max_tokens"},
		  {"content": [{"type": "text", "text": "part two."}], "stop_reason": "end_turn"}]}`)
		stdout, stderr, err := w.run("", "-p", "explain", "--model", "scripted:"+script, "--output-format", "json")
		if err != nil {
			t.Fatalf("grit -p: %v\n%s", err, stderr)
		}
		if r := parseResult(t, stdout); r.Result != "Part one, part two." {
			t.Errorf("result = %q, want the whole answer %q", r.Result, "Part one, part two.")
		}
	})
	t.Run("cut tool call", func(t *testing.T) {
		w := newGritWork(t)
		script := w.file("../s.json", `{"turns": [
		  {"content": [{"type": "text", "text": "Writing it."}, {"type": "tool_use", "id": "t1", "name": "Write", "input": {"file_path": "out.txt"}}], "stop_reason": "max_tokens"},
		  {"content": [{"type": "tool_use", "id": "t2", "name": "Write", "input": {"file_path": "out.txt", "content": "whole\n"}}], "stop_reason": "tool_use"},
		  {"content": [{"type": "text", "text": "Written."}], "stop_reason": "end_turn"}]}`)
		stdout, stderr, err := w.run("", "-p", "write", "--model", "scripted:"+script, "--output-format", "json", "--permission-mode", "acceptEdits")
		if err != nil {
			t.Fatalf("grit -p: %v\n%s", err, stderr)
		}
		if r := parseResult(t, stdout); r.Result != "Written." || r.NumTurns != 3 {
			t.Errorf("result = %+v, want \"Written.\" after 3 model calls", r)
		}
		if got := readFileT(t, filepath.Join(w.repo, "out.txt")); got != "whole\n" {
			t.Errorf("out.txt = %q", got)
		}
		if tr := w.transcriptText(); !strings.Contains(tr, "in the middle of a Write call") || strings.Contains(tr, "Continue exactly where you stopped") {
			t.Errorf("the cut call was not asked for again, whole; transcript:\n%s", tr)
		}
	})
}

// TestSessionsCountOnlyPrompts (issue 20, item 11): continue nudges and
// Stop hook feedback are not prompts in grit sessions.
func TestSessionsCountOnlyPrompts(t *testing.T) {
	w := newGritWork(t)
	w.userSettings(`{"sandbox": {"enabled": false},
	  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "test -e again || { touch again; echo 'run the tests' >&2; exit 2; }"}]}]}}`)
	script := w.file("../s.json", `{"turns": [
	  {"content": [{"type": "text", "text": "Part one, "}], "stop_reason": "max_tokens"},
	  {"content": [{"type": "text", "text": "part two."}], "stop_reason": "end_turn"},
	  {"content": [{"type": "text", "text": "Tests pass."}], "stop_reason": "end_turn"}]}`)
	if _, stderr, err := w.run("", "-p", "the one prompt", "--model", "scripted:"+script, "--output-format", "json"); err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	stdout, stderr, err := w.run("", "sessions", "--json")
	if err != nil {
		t.Fatalf("grit sessions: %v\n%s", err, stderr)
	}
	var infos []struct {
		Turns       int    `json:"turns"`
		FirstPrompt string `json:"first_prompt"`
	}
	if err := json.Unmarshal([]byte(stdout), &infos); err != nil || len(infos) != 1 {
		t.Fatalf("grit sessions --json = %s (%v), want one session", stdout, err)
	}
	if infos[0].Turns != 1 || infos[0].FirstPrompt != "the one prompt" {
		t.Errorf("session = %+v, want 1 prompt, \"the one prompt\"", infos[0])
	}
}

// TestUsageCountsCompaction (issue 20, item 10): the -p result's usage
// includes the compaction call made during the turn.
func TestUsageCountsCompaction(t *testing.T) {
	w := newGritWork(t)
	w.userSettings(`{"sandbox": {"enabled": false}, "providers": {"scripted": {"contextWindow": 100000}}}`)
	script := w.file("../s.json", `{"turns": [
	  {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "true"}}], "stop_reason": "tool_use", "usage": {"input_tokens": 95000, "output_tokens": 10}},
	  {"content": [{"type": "text", "text": "The summary."}], "stop_reason": "end_turn", "usage": {"input_tokens": 1234, "output_tokens": 56}},
	  {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn", "usage": {"input_tokens": 100, "output_tokens": 5}}]}`)
	stdout, stderr, err := w.run("", "-p", "go", "--model", "scripted:"+script, "--output-format", "json", "--permission-mode", "bypassPermissions")
	if err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	r := parseResult(t, stdout)
	if r.Result != "Done." || r.Usage.InputTokens != 95000+1234+100 || r.Usage.OutputTokens != 10+56+5 {
		t.Errorf("result %q usage = %+v, want input %d and output %d (the compaction call included)", r.Result, r.Usage, 95000+1234+100, 10+56+5)
	}
}

// TestContextJSONEmptyLists (issue 20, item 14): grit context --json
// prints [] for a repository without skills, as for its other lists.
func TestContextJSONEmptyLists(t *testing.T) {
	w := newGritWork(t)
	stdout, stderr, err := w.run("", "context", "--json")
	if err != nil {
		t.Fatalf("grit context --json: %v\n%s", err, stderr)
	}
	if strings.Contains(stdout, "null") || !strings.Contains(stdout, `"skills": []`) {
		t.Errorf("grit context --json has a null list:\n%s", stdout)
	}
}

// toolNames lists the names of an Anthropic request's tools.
func toolNames(body map[string]any) []string {
	var out []string
	for _, t := range body["tools"].([]any) {
		out = append(out, t.(map[string]any)["name"].(string))
	}
	return out
}

// cached reports whether a JSON object carries cache_control.
func cached(v any) bool {
	m, ok := v.(map[string]any)
	return ok && m["cache_control"] != nil
}

// TestPromptCaching (issue 20, item 9): against the Anthropic wire format,
// the system prompt, the tools and the latest messages carry cache_control;
// a deferred tool loaded by ToolSearch is appended after the tools sent
// before; each assistant message of stream-json reports its call's cache
// reads and writes.
func TestPromptCaching(t *testing.T) {
	srv := newModelServer(t, "anthropic",
		wireReply{Text: "Loading it.", ToolName: "ToolSearch", ToolInput: `{"query": "select:Memory"}`, CacheWrite: 1500},
		wireReply{Text: "Done.", CacheRead: 1500, CacheWrite: 40})
	w := newGritWork(t)
	w.userSettings(`{"sandbox": {"enabled": false}, "providers": {"anthropic": {"baseURL": "` + srv.URL + `"}}}`)
	stdout, stderr, err := w.run("", "-p", "remember this", "--model", "anthropic:claude-sonnet-4-5", "--output-format", "stream-json")
	if err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first, second := toolNames(reqs[0]), toolNames(reqs[1])
	if len(second) != len(first)+1 || strings.Join(second[:len(first)], ",") != strings.Join(first, ",") || second[len(first)] != "Memory" {
		t.Errorf("tools %v then %v: want the loaded Memory appended after the tools sent before", first, second)
	}
	sys := reqs[1]["system"].([]any)
	tools := reqs[1]["tools"].([]any)
	if !cached(sys[len(sys)-1]) || !cached(tools[len(tools)-1]) {
		t.Errorf("system or tools carry no cache breakpoint: %v / %v", sys, tools[len(tools)-1])
	}
	msgs := reqs[1]["messages"].([]any)
	for _, m := range msgs[len(msgs)-2:] {
		content := m.(map[string]any)["content"].([]any)
		if !cached(content[len(content)-1]) {
			t.Errorf("message %v: the latest turns carry no cache breakpoint", m)
		}
	}
	if !strings.Contains(stdout, `"usage":{"input_tokens":100,"output_tokens":10,"cache_read_input_tokens":0,"cache_creation_input_tokens":1500}`) ||
		!strings.Contains(stdout, `"usage":{"input_tokens":100,"output_tokens":10,"cache_read_input_tokens":1500,"cache_creation_input_tokens":40}`) {
		t.Errorf("stream-json does not report each call's cache reads and writes:\n%s", stdout)
	}
}

// git runs git in dir.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestPlanMode (issue 20, item 13): in plan mode read-only commands run
// (ls, git log, rg), others are refused, the system prompt says plan mode
// is on, and ExitPlanMode asks for approval (refused headless).
func TestPlanMode(t *testing.T) {
	srv := newModelServer(t, "anthropic",
		wireReply{ToolName: "Bash", ToolInput: `{"command": "ls"}`},
		wireReply{ToolName: "Bash", ToolInput: `{"command": "git log --oneline"}`},
		wireReply{ToolName: "Bash", ToolInput: `{"command": "rg -l hello"}`},
		wireReply{ToolName: "Bash", ToolInput: `{"command": "touch made.txt"}`},
		wireReply{ToolName: "ExitPlanMode", ToolInput: `{"plan": "1. Change hello."}`},
		wireReply{Text: "Here is the plan."})
	w := newGritWork(t)
	w.userSettings(`{"sandbox": {"enabled": false}, "providers": {"anthropic": {"baseURL": "` + srv.URL + `"}}}`)
	w.file("hello.txt", "hello\n")
	gitIn(t, w.repo, "init", "-q")
	gitIn(t, w.repo, "add", "hello.txt")
	gitIn(t, w.repo, "commit", "-q", "-m", "first commit here")
	stdout, stderr, err := w.run("", "-p", "plan it", "--model", "anthropic:claude-sonnet-4-5", "--output-format", "stream-json", "--permission-mode", "plan")
	if err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	var results []string
	for _, line := range strings.Split(stdout, "\n") {
		var l struct {
			Type    string `json:"type"`
			Message struct {
				Content []struct {
					Content string `json:"content"`
					IsError bool   `json:"is_error"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Type == "user" {
			for _, c := range l.Message.Content {
				results = append(results, fmt.Sprintf("%v %s", c.IsError, c.Content))
			}
		}
	}
	want := []string{"false hello.txt", "false", "false hello.txt", "true Permission to use Bash was denied: plan mode", "true Plan mode is on and this session is non-interactive"}
	if len(results) != len(want) {
		t.Fatalf("tool results %q, want %d", results, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(results[i], w) {
			t.Errorf("tool result %d = %q, want it to start %q", i+1, results[i], w)
		}
	}
	if !strings.Contains(results[1], "first commit here") {
		t.Errorf("git log result = %q", results[1])
	}
	if fileExists(filepath.Join(w.repo, "made.txt")) {
		t.Error("touch ran in plan mode")
	}
	sys := srv.requests()[0]["system"].([]any)
	if text := sys[len(sys)-1].(map[string]any)["text"].(string); !strings.Contains(text, "Plan mode is on") {
		t.Errorf("the system prompt does not say plan mode is on:\n%s", text)
	}
}

// systemText is the system prompt of an OpenAI request body.
func systemText(body map[string]any) string {
	for _, m := range body["messages"].([]any) {
		if mm := m.(map[string]any); mm["role"] == "system" {
			s, _ := mm["content"].(string)
			return s
		}
	}
	return ""
}

// TestWorkspaceIsGitTopLevel (issue 20, item 8): started in a
// subdirectory, the session's workspace is the repository: the root's
// AGENTS.md, a parent directory's CLAUDE.md and the root's .claude/skills
// load, and Read ../file works; additionalDirectories widens the workspace.
func TestWorkspaceIsGitTopLevel(t *testing.T) {
	srv := newModelServer(t, "openai",
		wireReply{ToolName: "Read", ToolInput: `{"file_path": "../top.txt"}`},
		wireReply{ToolName: "Bash", ToolInput: `{"command": "cat ` + "OUTSIDE" + `"}`},
		wireReply{Text: "Read it."})
	w := newGritWork(t)
	outside := filepath.Join(w.dir, "shared", "notes.txt")
	writeFile(t, outside, "shared notes\n")
	srv.replies[1].ToolInput = `{"command": "echo more >> ` + outside + `"}`
	w.userSettings(`{"sandbox": {"enabled": false}, "providers": {"openai": {"baseURL": "` + srv.URL + `"}},
	  "permissions": {"additionalDirectories": ["` + filepath.Dir(outside) + `"]}}`)
	writeFile(t, filepath.Join(w.dir, "CLAUDE.md"), "PARENT-RULES apply.\n")
	w.file("AGENTS.md", "ROOT-RULES apply.\n")
	w.file("top.txt", "top of the repo\n")
	w.file("sub/inner.txt", "x\n")
	w.file(".claude/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy the service.\n---\nSteps.\n")
	gitIn(t, w.repo, "init", "-q")
	sub := filepath.Join(w.repo, "sub")
	if _, stderr, err := w.run(sub, "trust"); err != nil {
		t.Fatalf("grit trust: %v\n%s", err, stderr)
	}
	stdout, stderr, err := w.run(sub, "-p", "read the top file", "--model", "openai:gpt-4o", "--output-format", "stream-json", "--permission-mode", "acceptEdits")
	if err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "top of the repo") {
		t.Errorf("Read ../top.txt from sub/ did not read the repository's file:\n%s", stdout)
	}
	if got := readFileT(t, outside); got != "shared notes\nmore\n" {
		t.Errorf("acceptEdits did not let a command write in an additional directory (%q):\n%s", got, stdout)
	}
	sys := systemText(srv.requests()[0])
	for _, want := range []string{"ROOT-RULES", "PARENT-RULES", "deploy", "Working directory: " + sub} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}
}

// TestRepositoryTrustOneRule (issue 20, item 7): a repository's
// .claude/skills and .claude/settings.json are withheld until it is
// trusted, like .grit/skills; trusting it (the same files) honours them.
func TestRepositoryTrustOneRule(t *testing.T) {
	w := newGritWork(t)
	w.file(".claude/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy the service.\n---\nSteps.\n")
	w.file(".claude/settings.json", `{"permissions": {"allow": ["Bash(touch:*)"]}}`)
	script := w.file("../s.json", `{"turns": [
	  {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "touch ran.txt"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"}]}`)
	skills := func() string {
		stdout, stderr, err := w.run("", "context", "--json")
		if err != nil {
			t.Fatalf("grit context: %v\n%s", err, stderr)
		}
		var rep struct {
			Skills []struct {
				Name string `json:"name"`
			} `json:"skills"`
		}
		json.Unmarshal([]byte(stdout), &rep)
		var names []string
		for _, s := range rep.Skills {
			names = append(names, s.Name)
		}
		return strings.Join(names, ",")
	}
	if got := skills(); got != "" {
		t.Errorf("untrusted: skills %q loaded, want none", got)
	}
	w.run("", "-p", "go", "--model", "scripted:"+script)
	if fileExists(filepath.Join(w.repo, "ran.txt")) {
		t.Error("untrusted: .claude/settings.json's allow rule let Bash run")
	}
	if _, stderr, err := w.run("", "trust"); err != nil {
		t.Fatalf("grit trust: %v\n%s", err, stderr)
	}
	if got := skills(); got != "deploy" {
		t.Errorf("trusted: skills %q, want deploy", got)
	}
	if _, stderr, err := w.run("", "-p", "go", "--model", "scripted:"+script); err != nil || !fileExists(filepath.Join(w.repo, "ran.txt")) {
		t.Errorf("trusted: the allow rule of .claude/settings.json did not let Bash run (%v)\n%s", err, stderr)
	}
}

// TestClaudeCodeProjectWorks (issue 20, compatibility): a project set up
// for Claude Code (.claude/settings.json with every documented hook event,
// .claude/settings.local.json, CLAUDE.md, skills, commands, agents,
// .mcp.json) works once trusted, with Claude Code's precedence, and grit
// doctor lists what it found and what it ignored, and why.
func TestClaudeCodeProjectWorks(t *testing.T) {
	w := newGritWork(t)
	log := filepath.Join(w.dir, "events.log")
	var hooks []string
	for _, ev := range []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Notification", "Stop", "SubagentStop", "PreCompact", "SessionStart", "SessionEnd"} {
		hooks = append(hooks, `"`+ev+`": [{"matcher": "", "hooks": [{"type": "command", "command": "echo `+ev+` >> `+log+`"}]}]`)
	}
	w.file(".claude/settings.json", `{"model": "sonnet", "statusLine": {"type": "command", "command": "x"},
	  "env": {"GREETING": "hello from settings"},
	  "permissions": {"allow": ["Bash(echo:*)", "Bash(touch:*)"]},
	  "hooks": {`+strings.Join(hooks, ",")+`}}`)
	w.file(".claude/settings.local.json", `{"permissions": {"deny": ["Bash(touch:*)"]}}`)
	w.file("CLAUDE.md", "Project rules.\n")
	w.file(".claude/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy.\n---\nSteps.\n")
	w.file(".claude/commands/review.md", "Review the diff.\n")
	w.file(".claude/agents/tester.md", "---\nname: tester\n---\nRun tests.\n")
	w.file(".mcp.json", `{"mcpServers": {}}`)
	gitIn(t, w.repo, "init", "-q")
	if _, stderr, err := w.run("", "trust"); err != nil {
		t.Fatalf("grit trust: %v\n%s", err, stderr)
	}
	script := w.file("../s.json", `{"turns": [
	  {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo $GREETING > greeting.txt"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "touch denied.txt"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"}]}`)
	if _, stderr, err := w.run("", "-p", "go", "--model", "scripted:"+script, "--output-format", "json", "--permission-mode", "acceptEdits"); err != nil {
		t.Fatalf("grit -p: %v\n%s", err, stderr)
	}
	if got := readFileT(t, filepath.Join(w.repo, "greeting.txt")); got != "hello from settings\n" {
		t.Errorf("greeting.txt = %q: settings env or the project's allow rule did not apply", got)
	}
	if fileExists(filepath.Join(w.repo, "denied.txt")) {
		t.Error("the deny rule of .claude/settings.local.json did not win over the project's allow")
	}
	events := readFileT(t, log)
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"} {
		if !strings.Contains(events, ev) {
			t.Errorf("hook %s of .claude/settings.json did not run:\n%s", ev, events)
		}
	}
	stdout, _, _ := w.run("", "doctor", "--json")
	for _, want := range []string{
		`.claude/settings.json: used`, `statusLine ignored`, `model \"sonnet\": an alias`,
		`.claude/settings.local.json: used`, `CLAUDE.md ` + filepath.Join(w.repo, "CLAUDE.md") + `: used`,
		`skill ` + filepath.Join(w.repo, ".claude", "skills", "deploy", "SKILL.md") + `: used`,
		`commands ` + filepath.Join(w.repo, ".claude", "commands"), `subagents are not supported`, `.mcp.json`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("grit doctor --json lacks %q:\n%s", want, stdout)
		}
	}
}
