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
