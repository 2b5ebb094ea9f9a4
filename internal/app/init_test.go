package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/contextlayer"
)

func TestInitAgentsMD(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":               "module example.com/x\n\ngo 1.22\n",
		"cmd/x/main.go":        "package main\n\nfunc main() {}\n",
		"internal/a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
		"internal/a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
		"scripts/gen.py":       "def gen():\n    pass\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := InitAgentsMD(context.Background(), root, false, false)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(root, "AGENTS.md"))
	for _, want := range []string{"Test: `go test ./...`", "Build: `go build ./...`", "- go: 3 files", "- python: 1 files", "`internal/` — 2 files (go)", "`scripts/` — 1 files (python)", "- `cmd/x/main.go`"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("AGENTS.md lacks %q:\n%s", want, got)
		}
	}
	if !rep.Written || rep.Files != 4 {
		t.Errorf("InitAgentsMD = written %v, %d files; want written, 4", rep.Written, rep.Files)
	}
	// A second run refuses to overwrite; --force replaces.
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("mine\n"), 0o644)
	if _, err := InitAgentsMD(context.Background(), root, false, false); !errors.Is(err, contextlayer.ErrExists) {
		t.Errorf("second InitAgentsMD error = %v, want contextlayer.ErrExists", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "AGENTS.md")); string(b) != "mine\n" {
		t.Errorf("AGENTS.md was overwritten without force")
	}
	if _, err := InitAgentsMD(context.Background(), root, true, false); err != nil {
		t.Errorf("InitAgentsMD with force: %v", err)
	}
}
