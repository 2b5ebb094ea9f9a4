package sandbox

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// gitIn runs git in dir on the host, failing the test on error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return string(out)
}

// TestGitDirSealed (issue 21, finding 1): nothing inside the sandbox may
// create, rename, replace or write the repository's git directory, the
// git directories of its worktrees and submodules, .gitmodules, .grit or
// .claude/skills, by any route: rename, copy back, hard link, symlink,
// writing through a linked git directory, creating a missing one.
func TestGitDirSealed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		main := t.TempDir()
		gitIn(t, main, "init", "-q")
		os.WriteFile(filepath.Join(main, "a"), []byte("a\n"), 0o644)
		gitIn(t, main, "add", "a")
		gitIn(t, main, "commit", "-qm", "a")
		// A linked worktree inside the repository's tree; a submodule with
		// its own .git directory, listed in .gitmodules.
		gitIn(t, main, "worktree", "add", "-q", filepath.Join(main, "wt"))
		sub := filepath.Join(main, "sub")
		os.MkdirAll(sub, 0o755)
		gitIn(t, sub, "init", "-q")
		os.WriteFile(filepath.Join(main, ".gitmodules"), []byte("[submodule \"sub\"]\n\tpath = sub\n\turl = ./sub\n"), 0o644)
		os.MkdirAll(filepath.Join(main, ".grit"), 0o755)
		before := hashTree(t, filepath.Join(main, ".git")) + hashTree(t, filepath.Join(sub, ".git"))
		wtGit, _ := os.ReadFile(filepath.Join(main, "wt", ".git"))

		f := newFixture(t, backend, func(c *Config) { c.Workspace = main })
		for _, s := range []string{
			"mv .git moved",
			"cp -r .git /tmp/g && echo evil > /tmp/g/hooks/post-checkout && chmod +x /tmp/g/hooks/post-checkout && rm -rf .git; mv /tmp/g .git",
			"rm -rf .git",
			"mkdir x && mv .git x/",
			"echo evil > .git/hooks/post-checkout",
			"mv .git/hooks .git/h",
			"echo '[core] fsmonitor = evil' >> .git/config",
			"echo ref > .git/HEAD",
			"echo b > b && git add b",
			"ln a .git/hooks/pre-commit",
			"ln .git/config hardlink && echo evil >> hardlink",
			"ln -s .git/hooks h && echo evil > h/post-checkout",
			"ln -s /tmp .git/evil",
			"echo 'gitdir: /tmp/evil' > wt/.git",
			"mv wt/.git wt/gone",
			"echo evil > sub/.git/hooks/post-checkout",
			"mv sub/.git sub/gone",
			"echo evil > .gitmodules",
			"mv .gitmodules m",
			"echo '{}' > .grit/settings.json",
			"mv .grit g",
			"mkdir -p .claude/skills/x",
		} {
			if res := f.run(t, s); res.ExitCode == 0 {
				t.Errorf("%q succeeded, want failure:\n%s", s, res.Output)
			}
		}
		// From inside the linked worktree: its git directory and the
		// common one (hooks, config) are read-only as well.
		wt := filepath.Join(main, "wt")
		fw := newFixture(t, backend, func(c *Config) { c.Workspace = wt; c.WritablePaths = []string{main} })
		for _, s := range []string{
			"echo evil > " + filepath.Join(main, ".git", "hooks", "post-checkout"),
			"echo ref > " + filepath.Join(main, ".git", "worktrees", "wt", "HEAD"),
			"mv " + filepath.Join(main, ".git") + " " + filepath.Join(main, "moved"),
			"echo 'gitdir: /tmp/evil' > .git",
		} {
			if res := fw.run(t, s); res.ExitCode == 0 {
				t.Errorf("worktree: %q succeeded, want failure:\n%s", s, res.Output)
			}
		}
		if after := hashTree(t, filepath.Join(main, ".git")) + hashTree(t, filepath.Join(sub, ".git")); after != before {
			t.Error("a git directory changed")
		}
		if b, _ := os.ReadFile(filepath.Join(main, "wt", ".git")); string(b) != string(wtGit) {
			t.Errorf("wt/.git = %q, want %q", b, wtGit)
		}
		for _, p := range []string{"moved", "hardlink", "g", "m", ".claude", "x/.git"} {
			if _, err := os.Lstat(filepath.Join(main, p)); err == nil {
				t.Errorf("%s exists after the runs", p)
			}
		}
		// The workspace itself stays writable and git still reads.
		if res := f.run(t, "echo c > c && git log --oneline | wc -l"); res.ExitCode != 0 || strings.TrimSpace(res.Output) != "1" {
			t.Errorf("write a file and git log inside the sandbox: exit %d %q", res.ExitCode, res.Output)
		}
	})
}

// TestMaskPointsLeaveNoTrace (issue 21, finding 5): the mount points that
// mask missing protected paths are gone after every run, and after a
// Grit killed with SIGKILL mid-run, the next start removes them.
func TestMaskPointsLeaveNoTrace(t *testing.T) {
	missing := []string{".git", ".gitmodules", ".grit", ".claude"}
	forEachBackend(t, func(t *testing.T, backend string) {
		state := t.TempDir()
		t.Setenv("XDG_STATE_HOME", state)
		f := newFixture(t, backend, nil)
		if res := f.run(t, "ls -A; touch .gitmodules"); res.ExitCode == 0 {
			t.Errorf("touch .gitmodules succeeded")
		}
		for _, p := range missing {
			if _, err := os.Lstat(filepath.Join(f.ws, p)); err == nil {
				t.Errorf("%s left in the workspace after a run", p)
			}
		}
		// kill -9 of the Grit process while its command runs.
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+f.ws, helperEnv+"_SCRIPT=exec -a grit-mask-sleeper sleep 1000", helperEnv+"_BACKEND="+backend)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, _ := bufio.NewReader(out).ReadString('\n'); strings.TrimSpace(line) != "ready" {
			cmd.Process.Kill()
			t.Fatalf("helper said %q", line)
		}
		for !processWith("grit-mask-sleeper") {
			syscall.Nanosleep(&syscall.Timespec{Nsec: 20e6}, nil)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		waitNoProcess(t, "grit-mask-sleeper")
		left := 0
		for _, p := range missing {
			if _, err := os.Lstat(filepath.Join(f.ws, p)); err == nil {
				left++
			}
		}
		if left == 0 {
			t.Fatal("no mask point left by the killed process: the test shows nothing")
		}
		if _, err := New(Config{Workspace: f.ws, Backend: backend, Home: f.home}); err != nil {
			t.Fatal(err)
		}
		for _, p := range missing {
			if _, err := os.Lstat(filepath.Join(f.ws, p)); err == nil {
				t.Errorf("%s still in the workspace after the next start", p)
			}
		}
		if ents, _ := os.ReadDir(filepath.Join(state, "grit", "sandbox-masks")); len(ents) != 0 {
			t.Errorf("journals left: %v", ents)
		}
		// Real content at a once-masked path is never removed.
		os.WriteFile(filepath.Join(f.ws, ".gitmodules"), []byte("[x]\n"), 0o644)
		os.WriteFile(filepath.Join(state, "grit", "sandbox-masks", "1999999999-1.list"), []byte(filepath.Join(f.ws, ".gitmodules")+"\n"), 0o600)
		New(Config{Workspace: f.ws, Backend: backend, Home: f.home})
		if b, _ := os.ReadFile(filepath.Join(f.ws, ".gitmodules")); string(b) != "[x]\n" {
			t.Errorf(".gitmodules with content = %q after a sweep, want it kept", b)
		}
	})
}
