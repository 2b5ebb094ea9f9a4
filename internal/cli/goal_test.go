package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestSafetyScripts runs grit goal and grit trust end to end (testdata/safety):
// a scripted model, real files, and goal checks in the real sandbox.
func TestSafetyScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "safety"),
		Setup: func(env *testscript.Env) error {
			for _, kv := range agentEnv(env.WorkDir) {
				k, v, _ := strings.Cut(kv, "=")
				env.Setenv(k, v)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "pytest":
				_, err := exec.LookPath("pytest")
				return err == nil, nil
			}
			_, err := exec.LookPath(strings.TrimPrefix(cond, "exec:"))
			return err == nil, nil
		},
	})
}

// The hidden sandbox child refuses a malformed plan, runs nothing, and
// exits 125.
func TestSandboxExecRefusesBadPlan(t *testing.T) {
	var out, errb strings.Builder
	code := Main(t.Context(), []string{"__sandbox-exec", "not a plan"}, Stdio{Out: &out, Err: &errb})
	if code != 125 {
		t.Errorf("grit __sandbox-exec 'not a plan' = exit %d, want 125 (stderr %q)", code, errb.String())
	}
	var help strings.Builder
	Main(t.Context(), []string{"--help"}, Stdio{Out: &help, Err: &help})
	if strings.Contains(help.String(), "__sandbox-exec") {
		t.Error("grit --help lists the hidden __sandbox-exec command")
	}
}

// /goal in an interactive session runs the same loop in the conversation.
func TestSlashGoal(t *testing.T) {
	work := t.TempDir()
	for _, kv := range agentEnv(work) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	writeFile(t, filepath.Join(work, "home", ".config", "grit", "settings.json"), `{"sandbox": {"enabled": false}}`)
	repo := filepath.Join(work, "repo")
	writeFile(t, filepath.Join(repo, "README"), "x\n")
	t.Chdir(repo)
	s := filepath.Join(work, "s.json")
	writeFile(t, s, `{"turns": [
	  {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "touch done.txt"}}], "stop_reason": "tool_use"},
	  {"content": [{"type": "text", "text": "Created it."}], "stop_reason": "end_turn"}]}`)
	in := strings.Join([]string{"/goal", "/goal create done.txt --until test -f done.txt", "y", "/exit", ""}, "\n")
	var out, errb strings.Builder
	e := &env{ctx: t.Context(), Stdio: Stdio{In: strings.NewReader(in), Out: &out, Err: &errb}}
	if err := runInteractive(e, agentFlags{model: "scripted:" + s}, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "goal met after 1 turn: `test -f done.txt` exits 0") {
		t.Errorf("stdout lacks the verdict:\n%s", out.String())
	}
	for _, want := range []string{"usage: /goal OBJECTIVE --until CMD", "goal: before the first turn: `test -f done.txt` fails (exit 1)", "goal: after turn 1/10: `test -f done.txt` passes"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}
