package permission

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grit-dev/grit/internal/config"
)

// The differential test (RELIABILITY C3) runs candidate commands under real
// bash inside bubblewrap, with PATH holding only logging shims, and checks
// that every program bash really started was predicted by the analysis, or
// that the decision was not allow.

// passThrough shims run the real program after logging, so the commands a
// wrapper starts are seen too. The rest only log.
var passThrough = []string{"env", "timeout", "nice", "nohup", "xargs", "find", "sh", "bash", "stdbuf", "sed", "awk", "python3", "command"}

// vocabulary are the programs candidates use; each is allowed by a prefix
// rule, so a command the analysis missed shows up as an allowed call that
// started an unpredicted program.
var vocabulary = append([]string{"rm", "curl", "wget", "id", "ls", "cat", "touch", "git"}, passThrough...)

type diffHarness struct {
	bwrap, shims, logDir, ws string
	engine                   *Engine
}

func newDiffHarness(t testing.TB) *diffHarness {
	t.Helper()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skipf("SKIP (loud): differential test needs bubblewrap: %v", err)
	}
	if out, err := exec.Command(bwrap, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid", "true").CombinedOutput(); err != nil {
		t.Skipf("SKIP (loud): bubblewrap cannot create namespaces here: %v: %s", err, out)
	}
	dir := t.TempDir()
	h := &diffHarness{bwrap: bwrap, shims: filepath.Join(dir, "shims"), logDir: filepath.Join(dir, "log"), ws: filepath.Join(dir, "ws")}
	for _, d := range []string{h.shims, h.logDir, h.ws} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(h.ws, "f"), []byte("line\n"), 0o644)
	for _, name := range vocabulary {
		body := "#!/bin/sh\necho \"${0##*/}\" >> " + filepath.Join(h.logDir, "execs") + "\n"
		if slices.Contains(passThrough, name) {
			real := "/usr/bin/" + name
			if _, err := os.Stat(real); err != nil {
				if real, err = exec.LookPath(name); err != nil {
					continue
				}
			}
			body += "exec " + real + " \"$@\"\n"
		}
		if err := os.WriteFile(filepath.Join(h.shims, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var allow []string
	for _, v := range vocabulary {
		allow = append(allow, "Bash("+v+":*)")
	}
	h.engine, err = New(Options{Root: h.ws, Home: "/nonexistent-home", Mode: ModeDefault, User: config.Permissions{Allow: allow, Ask: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// observe runs the printed form of src (what Grit runs) and returns the
// programs bash started through PATH.
func (h *diffHarness) observe(t testing.TB, src string) []string {
	t.Helper()
	f, err := parse(src)
	if err != nil {
		return nil
	}
	printed := printNode(f)
	os.Remove(filepath.Join(h.logDir, "execs"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bwrap,
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		"--bind", h.ws, h.ws, "--bind", h.logDir, h.logDir, "--ro-bind", h.shims, h.shims,
		"--chdir", h.ws, "--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session",
		"--clearenv", "--setenv", "PATH", h.shims, "--setenv", "HOME", h.ws,
		"/usr/bin/bash", "--noprofile", "--norc", "-c", printed)
	cmd.CombinedOutput() // exit status does not matter: what ran does
	data, _ := os.ReadFile(filepath.Join(h.logDir, "execs"))
	return strings.Fields(string(data))
}

// check runs one candidate and reports a violation of the invariant.
func (h *diffHarness) check(t testing.TB, src string) {
	t.Helper()
	d := h.engine.checkBash(src, ModeDefault)
	if d.Behavior != Allow {
		return
	}
	predicted := analyzeScript(src).names
	for _, got := range h.observe(t, src) {
		if !slices.Contains(predicted, got) {
			t.Errorf("Check(%q) = allow (%s), but bash ran %s, which the analysis did not predict (predicted %v)", src, d.Reason, got, predicted)
		}
	}
}

// diffSeeds are RELIABILITY C3's wrapper cases and the compound forms of C2,
// each around a few inner commands.
func diffSeeds() []string {
	forms := []string{
		"%s", "timeout 5 %s", "timeout -s KILL 5 %s", "env X=1 %s", "env -i %s", "env -u X %s", "nice -n 1 %s", "nohup %s",
		"stdbuf -oL %s", "command %s", "exec %s", "builtin eval '%s'", "eval '%s'", "eval \"%s\"", "bash -c '%s'", "sh -c '%s'",
		"bash -lc '%s'", "echo x | xargs %s", "echo x | xargs -I{} %s", "find . -maxdepth 0 -exec %s {} ;",
		"find . -maxdepth 0 -execdir %s {} +", "python3 -c 'import os; os.system(\"%s\")'", "sed -n '1e %s' f",
		"sed 's/line/%s/e' f", "awk 'BEGIN{system(\"%s\")}'", "echo $(%s)", "echo `%s`", "%s &", "(%s)", "{ %s; }",
		"f() { %s; }; f", "if true; then %s; fi", "while false; do :; done; %s", "for i in 1; do %s; done",
		"cat <(%s)", "X=$(%s)", "echo ${X:-$(%s)}", "true && %s", "false || %s", "ls | %s", "cat <<EOF\n$(%s)\nEOF",
		"export Y=$(%s)", "echo $(( $(%s) + 1 ))", "case a in a) %s;; esac", "! %s", "time %s",
		"timeout 5 env X=1 nice %s", "bash -c 'sh -c \"%s\"'", "eval 'eval %s'", "x=%s; $x", "${X:-%s}",
		"r''%s", "\\%s", "command -v %s && %s", "trap '%s' EXIT", "coproc %s", "[[ $(%s) ]]",
	}
	inner := []string{"id", "rm -f x", "curl -s y"}
	var out []string
	for _, f := range forms {
		for _, in := range inner {
			n := strings.Count(f, "%s")
			args := make([]any, n)
			for i := range args {
				args[i] = in
			}
			out = append(out, fmt.Sprintf(f, args...))
		}
	}
	return out
}

func TestDifferentialSeeds(t *testing.T) {
	h := newDiffHarness(t)
	allowed := 0
	for _, src := range diffSeeds() {
		h.check(t, src)
		if h.engine.checkBash(src, ModeDefault).Behavior == Allow {
			allowed++
		}
	}
	// The harness itself must see execs, or the invariant is vacuous.
	if got := h.observe(t, "timeout 5 id; env X=1 rm -f x"); !slices.Equal(got, []string{"timeout", "id", "env", "rm"}) {
		t.Fatalf("shims observed %v, want [timeout id env rm]", got)
	}
	if allowed < 50 {
		t.Errorf("only %d of %d candidates were allowed; the invariant is checked on allowed ones", allowed, len(diffSeeds()))
	}
	t.Logf("%d candidates, %d allowed and checked against bash", len(diffSeeds()), allowed)
}

func FuzzDifferential(f *testing.F) {
	for _, s := range diffSeeds()[:20] {
		f.Add(s)
	}
	h := newDiffHarness(f)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 300 {
			return
		}
		h.check(t, src)
	})
}
