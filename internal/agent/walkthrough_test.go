package agent

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

var update = flag.Bool("update", false, "rewrite golden files")

// permissionGate adapts the permission engine, as the app does.
type permissionGate struct{ e *permission.Engine }

func (g permissionGate) Check(ctx context.Context, c Call) Decision {
	d := g.e.CheckPaths(ctx, c.Tool, c.Input, c.Paths)
	return Decision{Behavior: d.Behavior, Reason: d.Reason}
}

const calcPy = `def add(a, b):
    return a - b
`

const testCalcPy = `import unittest

from calc import add


class TestAdd(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_zero(self):
        self.assertEqual(add(0, 0), 0)


if __name__ == "__main__":
    unittest.main()
`

// TestWalkthroughFixFailingTest is the walkthrough end to end: a
// scripted model drives the real tools on a real repository: run the tests
// (one fails), read the file, edit it, run the tests again (all pass), reply.
func TestWalkthroughFixFailingTest(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the walkthrough needs it to run the repository's tests")
	}
	root := t.TempDir()
	for name, body := range map[string]string{"calc.py": calcPy, "test_calc.py": testCalcPy} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, err := tool.NewEnv(root, sandbox.NewPlain())
	if err != nil {
		t.Fatal(err)
	}
	engine, err := permission.New(permission.Options{
		Mode: permission.ModeAcceptEdits, Root: env.Root, Home: t.TempDir(),
		User: permissionsAllow("Bash(" + py + " -B -m unittest:*)"),
	})
	if err != nil {
		t.Fatal(err)
	}
	runTests := map[string]any{"command": py + " -B -m unittest -v test_calc", "description": "Run the tests"}
	p := script(t,
		turn("tool_use", text("Let me run the tests."), call("toolu_1", "Bash", runTests)),
		turn("tool_use", text("test_add fails; reading calc.py."), call("toolu_2", "Read", map[string]any{"file_path": "calc.py"})),
		turn("tool_use", call("toolu_3", "Edit", map[string]any{"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"})),
		turn("tool_use", call("toolu_4", "Bash", runTests)),
		turn("end_turn", text("Fixed add in calc.py: it subtracted instead of adding. All tests pass.")),
	)
	st, err := session.NewStore(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Meta{Cwd: root, Model: p.Name()})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{Provider: p, Tools: tool.Default(env), Env: env, Gate: permissionGate{engine}, Session: sess})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), "Fix the failing test")
	if err != nil {
		t.Fatal(err)
	}
	sess.Close()
	if res.Subtype != SubtypeSuccess || res.Turns != 5 || !strings.Contains(res.Text, "All tests pass") {
		t.Errorf("Run = %+v, want success after 5 model calls", res)
	}
	got, err := os.ReadFile(filepath.Join(root, "calc.py"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(calcPy, "a - b", "a + b", 1); string(got) != want {
		t.Errorf("calc.py = %q, want %q", got, want)
	}

	// What the model saw, call by call.
	reqs := p.Requests()
	result := func(i int) provider.Block { return lastUserBlocks(reqs[i])[0] }
	checks := []struct {
		call int
		id   string
		want string
	}{
		{1, "toolu_1", "FAILED (failures=1)"},
		{2, "toolu_2", "return a - b"},
		{3, "toolu_3", "calc.py"},
		{4, "toolu_4", "OK"},
	}
	for _, c := range checks {
		r := result(c.call)
		if r.ToolUseID != c.id || !strings.Contains(r.Content, c.want) || (r.IsError && c.call != 1) {
			t.Errorf("request %d: tool_result = %+v, want id %s containing %q", c.call+1, r, c.id, c.want)
		}
	}

	// The transcript holds every step in order, and loads back whole.
	tr, err := st.Read(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped != 0 {
		t.Errorf("transcript has bad lines: %v", tr.Warnings)
	}
	msgs := tr.Messages()
	if len(msgs) != 10 {
		t.Fatalf("transcript has %d messages, want 10 (prompt, 4×(call, result), reply)", len(msgs))
	}
	var shape []string
	for _, m := range msgs {
		kinds := []string{string(m.Role)}
		for _, b := range m.Content {
			kinds = append(kinds, b.Type)
		}
		shape = append(shape, strings.Join(kinds, ":"))
	}
	want := "user:text assistant:text:tool_use user:tool_result assistant:text:tool_use user:tool_result assistant:tool_use user:tool_result assistant:tool_use user:tool_result assistant:text"
	if got := strings.Join(shape, " "); got != want {
		t.Errorf("transcript shape:\n got %s\nwant %s", got, want)
	}
	if msgs[0].Text() != "Fix the failing test" || !strings.Contains(msgs[8].Content[0].Content, "OK") {
		t.Errorf("transcript prompt %q / last result %q", msgs[0].Text(), msgs[8].Content[0].Content)
	}
}

func permissionsAllow(rules ...string) (p config.Permissions) {
	p.Allow = rules
	return p
}

// TestSystemPromptGolden pins the rendered default system prompt.
func TestSystemPromptGolden(t *testing.T) {
	got := SystemPrompt(PromptEnv{Cwd: "/home/user/project", GitRepo: true, Platform: "linux/amd64", Date: "2026-01-02"}, "Extra section.")
	golden := filepath.Join("testdata", "system.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run SystemPromptGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("system prompt differs from %s (run with -update if intended):\n%s", golden, got)
	}
}

// TestPromptBudget keeps the default system prompt plus the core tool
// schemas under 3,000 tokens (estimated at 4 characters per token), so the
// loop fits small local context windows.
func TestPromptBudget(t *testing.T) {
	env, err := tool.NewEnv(t.TempDir(), sandbox.NewPlain())
	if err != nil {
		t.Fatal(err)
	}
	env.Index = func(ctx context.Context) (*index.Index, error) { return nil, nil } // every core tool, Locate and EditFunction included
	system := SystemPrompt(DetectPromptEnv(env.Root))
	specs, err := json.Marshal(tool.Default(env).Specs())
	if err != nil {
		t.Fatal(err)
	}
	chars := len(system) + len(specs)
	tokens := chars / 4
	t.Logf("default system prompt %d chars + %d tool schemas %d chars = %d chars ≈ %d tokens (budget 3000)",
		len(system), len(tool.Default(env).Specs()), len(specs), chars, tokens)
	if tokens >= 3000 {
		t.Errorf("system prompt + tool schemas ≈ %d tokens, want < 3000", tokens)
	}
}
