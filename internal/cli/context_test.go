package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gritIn runs the command line in dir with a private home.
func gritIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	return gritHome(t, dir, t.TempDir(), args...)
}

// gritHome runs the command line in dir with home as the user's home.
func gritHome(t *testing.T, dir, home string, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return out.String(), errb.String(), code
}

func TestInitCmd(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	out, errs, code := gritIn(t, dir, "init")
	if code != ExitOK || !strings.Contains(out, "Wrote") {
		t.Fatalf("grit init = %d, %q, %q; want success", code, out, errs)
	}
	if _, _, code := gritIn(t, dir, "init"); code != ExitUsage {
		t.Errorf("second grit init exit = %d, want %d (refuses to overwrite)", code, ExitUsage)
	}
	out, _, code = gritIn(t, dir, "init", "--dry-run")
	if code != ExitOK || !strings.Contains(out, "`go test ./...`") {
		t.Errorf("grit init --dry-run = %d, %q; want the text", code, out)
	}
}

func TestContextCmdJSON(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("Run the tests.\n"), 0o644)
	out, errs, code := gritIn(t, dir, "context", "--json", "--model", "anthropic:claude-sonnet-4-5")
	if code != ExitOK {
		t.Fatalf("grit context --json = %d: %s", code, errs)
	}
	var rep struct {
		Window int `json:"window"`
		Rows   []struct {
			Name   string `json:"name"`
			Tokens int    `json:"tokens"`
		} `json:"rows"`
		Files []struct {
			Path string `json:"path"`
		} `json:"context_files"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("grit context --json is not JSON: %v\n%s", err, out)
	}
	sum := 0
	for _, r := range rep.Rows {
		sum += r.Tokens
	}
	if rep.Window != 200_000 || sum != rep.Window {
		t.Errorf("window %d, rows add up to %d; want 200000 both", rep.Window, sum)
	}
	if len(rep.Files) != 1 || !strings.HasSuffix(rep.Files[0].Path, "AGENTS.md") {
		t.Errorf("context files = %+v, want the AGENTS.md", rep.Files)
	}
	out, _, _ = gritIn(t, dir, "context", "--model", "anthropic:claude-sonnet-4-5")
	for _, row := range []string{"system prompt", "tools", "context files", "memory", "skills", "messages", "autocompact buffer", "free space"} {
		if !strings.Contains(out, row) {
			t.Errorf("grit context lacks the row %q:\n%s", row, out)
		}
	}
}

func TestContextHelp(t *testing.T) {
	for _, cmd := range []string{"context", "init"} {
		out, _, code := gritIn(t, t.TempDir(), cmd, "--help")
		if code != ExitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--json") {
			t.Errorf("grit %s --help = %d:\n%s", cmd, code, out)
		}
	}
}

// TestContextCmdTrust: grit context shows what a session would load, so an
// untrusted repository's own skills are left out (with a warning) until
// grit trust.
func TestContextCmdTrust(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, ".grit", "skills", "release")
	os.MkdirAll(skill, 0o755)
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: release\ndescription: Cut a release.\n---\nSteps.\n"), 0o644)
	home := t.TempDir() // one home for both runs: trust is recorded there
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return gritHome(t, dir, home, args...)
	}
	skills := func() ([]string, []string) {
		t.Helper()
		out, errs, code := run("context", "--json", "--model", "anthropic:claude-sonnet-4-5")
		if code != ExitOK {
			t.Fatalf("grit context --json = %d: %s", code, errs)
		}
		var rep struct {
			Skills []struct {
				Name string `json:"name"`
			} `json:"skills"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("grit context --json is not JSON: %v\n%s", err, out)
		}
		var names []string
		for _, s := range rep.Skills {
			names = append(names, s.Name)
		}
		return names, rep.Warnings
	}
	names, warnings := skills()
	if len(names) != 0 || !strings.Contains(strings.Join(warnings, "\n"), "not trusted") {
		t.Errorf("untrusted: skills %v, warnings %q; want none and a warning that says why", names, warnings)
	}
	if _, errs, code := run("trust"); code != ExitOK {
		t.Fatalf("grit trust = %d: %s", code, errs)
	}
	if names, _ := skills(); len(names) != 1 || names[0] != "release" {
		t.Errorf("trusted: skills %v, want [release]", names)
	}
}
