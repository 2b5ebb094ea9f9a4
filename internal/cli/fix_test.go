package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

func TestDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shop")
	out, errs, code := runGrit(t, "", "demo", "--keep", dir)
	if code != 0 {
		t.Fatalf("grit demo exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"shop.go:Total", "SCRIPTED", "FAIL", "PASS", "+\t\tsum += it.Price * float64(it.Qty)", "Result: fixed", "grit fix \"describe the bug\""} {
		if !strings.Contains(out, want) {
			t.Errorf("grit demo output lacks %q:\n%s", want, out)
		}
	}
	if src, _ := os.ReadFile(filepath.Join(dir, "shop.go")); !bytes.Contains(src, []byte("float64(it.Qty)")) {
		t.Errorf("--keep dir does not hold the fixed project")
	}
}

// TestFixHeadlessIsDryRun: without a terminal and without --yes, grit fix
// shows the change and writes nothing.
func TestFixHeadlessIsDryRun(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("..", "fix", "testdata", "gocalc.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		os.WriteFile(filepath.Join(root, f.Name), f.Data, 0o644)
	}
	before, _ := os.ReadFile(filepath.Join(root, "calc.go"))
	script := filepath.Join(t.TempDir(), "model.json")
	reply := "```go\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n```"
	b, _ := json.Marshal(map[string]any{"turns": []any{map[string]any{"content": []any{map[string]any{"type": "text", "text": reply}}, "stop_reason": "end_turn"}}})
	os.WriteFile(script, b, 0o644)
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	out, errs, code := runGrit(t, "", "fix", "Clamp returns lo when v is above hi", "--model", "scripted:"+script, "--repo", root, "--json")
	if code != 0 {
		t.Fatalf("grit fix exit %d\n%s\n%s", code, out, errs)
	}
	var rep struct {
		Status string `json:"status"`
		Diff   string `json:"diff"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if rep.Status != "dry_run" || !strings.Contains(rep.Diff, "+\t\treturn hi") || !strings.Contains(errs, "dry run") {
		t.Errorf("status %q, diff:\n%s\nstderr: %s", rep.Status, rep.Diff, errs)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "calc.go")); !bytes.Equal(after, before) {
		t.Errorf("a headless grit fix without --yes wrote calc.go")
	}
}

func TestUndoNothing(t *testing.T) {
	_, errs, code := runGrit(t, "", "undo", "--repo", t.TempDir())
	if code != ExitNotFound || !strings.Contains(errs, "nothing to undo") {
		t.Errorf("grit undo with no fix: exit %d, stderr %q; want %d and 'nothing to undo'", code, errs, ExitNotFound)
	}
}

func TestBenchEdits(t *testing.T) {
	out, errs, code := runGrit(t, "", "bench", "edits", "--json")
	if code != 0 {
		t.Fatalf("grit bench edits exit %d: %s", code, errs)
	}
	var rep struct {
		Cases, Right int
		PromptTokens struct{ Max, OverBudget int } `json:"prompt_tokens"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Cases < 40 || rep.Right != rep.Cases || rep.PromptTokens.OverBudget != 0 {
		t.Errorf("bench edits: %d/%d right, %d prompts over budget", rep.Right, rep.Cases, rep.PromptTokens.OverBudget)
	}
}
