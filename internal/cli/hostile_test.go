package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// Tests for issue 21 (hostile input), through the real binary.

// extractTxtar writes the files of a txtar archive under root.
func extractTxtar(t *testing.T, archive, root string) {
	t.Helper()
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		writeFile(t, filepath.Join(root, f.Name), string(f.Data))
	}
}

// scriptedReply writes a scripted model that answers once with text.
func scriptedReply(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "model.json")
	b, _ := json.Marshal(map[string]any{"turns": []any{map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn"}}})
	writeFile(t, p, string(b))
	return p
}

// clampFix is a correct reply for ../fix/testdata/gocalc.txtar.
const clampFix = "```go\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n```"

// TestFixKilledAfterSpliceUndoable (finding 2): grit fix killed with
// SIGKILL after it has written the change (while its tests run) leaves a
// change that grit undo restores, not "nothing to undo".
func TestFixKilledAfterSpliceUndoable(t *testing.T) {
	work := t.TempDir()
	root := filepath.Join(work, "repo")
	extractTxtar(t, filepath.Join("..", "fix", "testdata", "gocalc.txtar"), root)
	before, _ := os.ReadFile(filepath.Join(root, "calc.go"))
	mark := filepath.Join(work, "spliced")
	// Fails first; once the fix is in, it signals and blocks until killed.
	test := `if grep -q "return hi" calc.go; then touch ` + mark + `; exec sleep 1000; fi; echo "--- FAIL: TestClamp: calc_test.go:7: Clamp(150, 0, 100) = 0, want 100"; exit 1`
	cmd := exec.Command("grit", "fix", "Clamp returns lo when v is above hi", "--model", "scripted:"+scriptedReply(t, clampFix),
		"--repo", root, "--yes", "--sandbox", "none", "--test", test, "--attempts", "1")
	cmd.Env = append(os.Environ(), agentEnv(work)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("grit fix ended before its tests ran on the change: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cmd.Process.Kill()
	<-done
	if now, _ := os.ReadFile(filepath.Join(root, "calc.go")); bytes.Equal(now, before) {
		t.Fatal("calc.go is unchanged after the kill: the test shows nothing")
	}
	out, errs, code := runGrit(t, "", "undo", "--repo", root)
	if code != 0 {
		t.Fatalf("grit undo after kill -9 of grit fix: exit %d\n%s%s", code, out, errs)
	}
	if now, _ := os.ReadFile(filepath.Join(root, "calc.go")); !bytes.Equal(now, before) {
		t.Errorf("calc.go after grit undo:\n%s\nwant the original", now)
	}
	if !strings.Contains(out, "calc.go") {
		t.Errorf("grit undo output %q does not name calc.go", out)
	}
}
