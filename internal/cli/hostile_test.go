package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grit-dev/grit/internal/session"
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

// TestIndexCapsNesting (finding 3): nested definitions, huge names and
// files with too many definitions stay within the caps in every language
// (the caps sit on the one extraction path), grit index says what it left
// out, and the database stays small.
func TestIndexCapsNesting(t *testing.T) {
	root := t.TempDir()
	const depth = 1000
	var js, py strings.Builder
	for i := 0; i < depth; i++ {
		fmt.Fprintf(&js, "function f%d() {\n", i)
		fmt.Fprintf(&py, "%sdef g%d():\n", strings.Repeat(" ", i%400), i) // Python's parser gives up deeper
		if i%400 == 399 {
			py.WriteString(strings.Repeat(" ", 400) + "pass\n")
		}
	}
	js.WriteString("return 1;\n" + strings.Repeat("}\n", depth))
	writeFile(t, filepath.Join(root, "deep.js"), js.String())
	writeFile(t, filepath.Join(root, "deep.py"), py.String()+strings.Repeat(" ", depth%400)+"pass\n")
	writeFile(t, filepath.Join(root, "long.rs"), "fn "+strings.Repeat("a", 5000)+"() {}\nfn short() {}\n")
	out, errs, code := runGrit(t, "", "index", root)
	if code != 0 {
		t.Fatalf("grit index: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"note: deep.js indexed in part", "nested deeper than", "note: long.rs indexed in part", "names longer than"} {
		if !strings.Contains(out, want) {
			t.Errorf("grit index output lacks %q:\n%s", want, out)
		}
	}
	out, errs, code = runGrit(t, "", "symbols", "--json", filepath.Join(root, "deep.js"))
	if code != 0 {
		t.Fatalf("grit symbols: exit %d %s", code, errs)
	}
	if n := strings.Count(out, `"qname"`); n == 0 || n > 64 {
		t.Errorf("grit symbols deep.js lists %d definitions, want 1..64 (capped nesting)", n)
	}
	if fi, err := os.Stat(filepath.Join(root, ".grit", "index.db")); err != nil || fi.Size() > 2<<20 {
		t.Errorf("index.db = %v bytes (err %v), want under 2 MiB for %d nested functions", fi.Size(), err, depth)
	}
}

// runAgentBinary runs a headless grit with a scripted model in repo and
// returns its stream-json output and exit code. A run that does not end
// within hangLimit is killed and fails the test: the bugs here hang.
func runAgentBinary(t *testing.T, work, repo, turns string, args ...string) (string, int) {
	t.Helper()
	script := filepath.Join(work, "script.json")
	writeFile(t, script, `{"turns": [`+turns+`, {"content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn"}]}`)
	writeFile(t, filepath.Join(work, "home", ".config", "grit", "settings.json"), `{"sandbox": {"enabled": false}}`)
	cmd := exec.Command("grit", append([]string{"-p", "go", "--model", "scripted:" + script, "--output-format", "stream-json", "--permission-mode", "bypassPermissions"}, args...)...)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), agentEnv(work)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(hangLimit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("grit hung (killed after %s):\n%s", hangLimit, out.String())
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// hangLimit is how long a run that should take a second may take before
// it counts as hung (not a speed assertion: the failures hang forever).
const hangLimit = 60 * time.Second

// toolUse is one scripted assistant turn calling tool with input.
func toolUse(id, tool, input string) string {
	return `{"content": [{"type": "tool_use", "id": "` + id + `", "name": "` + tool + `", "input": ` + input + `}], "stop_reason": "tool_use"}`
}

// TestReadersRefuseFIFO (finding 4): the agent's Read, Grep and Edit, and
// grit ast and grit symbols, refuse a FIFO at once instead of blocking.
func TestReadersRefuseFIFO(t *testing.T) {
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	writeFile(t, filepath.Join(repo, "a.py"), "def f():\n    return 1\n")
	if err := syscall.Mkfifo(filepath.Join(repo, "pipe.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runAgentBinary(t, work, repo,
		toolUse("t1", "Read", `{"file_path": "pipe.py"}`)+","+
			toolUse("t2", "Grep", `{"pattern": "x", "path": "pipe.py"}`)+","+
			toolUse("t3", "Edit", `{"file_path": "pipe.py", "old_string": "a", "new_string": "b"}`))
	if code != 0 || strings.Count(out, "not a regular file") < 3 {
		t.Errorf("exit %d; want 0 and three refusals naming a non-regular file:\n%s", code, out)
	}
	for _, args := range [][]string{{"ast", filepath.Join(repo, "pipe.py")}, {"symbols", filepath.Join(repo, "pipe.py")}} {
		cmd := exec.Command("grit", args...)
		cmd.Env = append(os.Environ(), agentEnv(work)...)
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		cmd.Start()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(b.String(), "FIFO") {
				t.Errorf("grit %v: err %v, output %q; want a refusal naming the FIFO", args, err, b.String())
			}
		case <-time.After(hangLimit):
			cmd.Process.Kill()
			<-done
			t.Errorf("grit %v hung on a FIFO", args)
		}
	}
}

// TestToolErrorsGoToModel (finding 6): file errors a tool meets are tool
// results and the run goes on: Read of a symlink loop, Write under a path
// whose parent is a file, Locate in a repository the index cannot write.
func TestToolErrorsGoToModel(t *testing.T) {
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	writeFile(t, filepath.Join(repo, "a.py"), "def f():\n    return 1\n")
	os.Symlink("loop2", filepath.Join(repo, "loop1"))
	os.Symlink("loop1", filepath.Join(repo, "loop2"))
	out, code := runAgentBinary(t, work, repo,
		toolUse("t1", "Read", `{"file_path": "loop1"}`)+","+
			toolUse("t2", "Write", `{"file_path": "a.py/b.py", "content": "x"}`)+","+
			toolUse("t3", "Read", `{"file_path": "a.py"}`))
	if code != 0 || !strings.Contains(out, `"result":"done"`) || strings.Count(out, `"is_error":true`) != 2 || !strings.Contains(out, "return 1") {
		t.Errorf("exit %d; want 0, two error results and the run going on to read a.py:\n%s", code, out)
	}
	// Locate where the index cannot be opened (tests run as root, so a
	// read-only mode would not stop them): index.db is a directory.
	repo2 := filepath.Join(work, "repo2")
	writeFile(t, filepath.Join(repo2, "a.py"), "def f():\n    return 1\n")
	os.MkdirAll(filepath.Join(repo2, ".grit", "index.db"), 0o755)
	out, code = runAgentBinary(t, work, repo2,
		toolUse("t1", "Locate", `{"query": "f returns 1"}`)+","+
			toolUse("t2", "Read", `{"file_path": "a.py"}`))
	if code != 0 || !strings.Contains(out, `"result":"done"`) || !strings.Contains(out, "return 1") {
		t.Errorf("Locate with an unwritable index: exit %d; want 0 and the run going on:\n%s", code, out)
	}
}

// TestSymbolsStayInRepository (finding 9): grit symbols and grit ast do
// not read through a symlink that leads out of the repository, and a path
// outside it is refused, not rewritten.
func TestSymbolsStayInRepository(t *testing.T) {
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	outside := filepath.Join(work, "outside")
	writeFile(t, filepath.Join(outside, "x.py"), "def secret_outside():\n    return 1\n")
	writeFile(t, filepath.Join(repo, "a.py"), "def inside():\n    return 1\n")
	os.Symlink(filepath.Join(outside, "x.py"), filepath.Join(repo, "leak.py"))
	if out, errs, code := runGrit(t, "", "index", repo); code != 0 || !strings.Contains(out, "leak.py") {
		t.Fatalf("grit index: exit %d %s%s", code, out, errs)
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(repo)
	for _, args := range [][]string{{"symbols", "leak.py"}, {"ast", "leak.py"}, {"symbols", "../outside/x.py"}, {"ast", "../outside/x.py"}} {
		out, errs, code := runGrit(t, "", args...)
		if code == 0 || strings.Contains(out, "secret_outside") {
			t.Errorf("grit %v: exit %d, output %q; want a refusal", args, code, out)
		}
		if !strings.Contains(errs, "repository") {
			t.Errorf("grit %v: stderr %q does not say the file is outside the repository", args, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "outside")); err == nil {
		t.Error("grit symbols ../outside/x.py created outside/ in the repository")
	}
	out, _, _ := runGrit(t, "", "search", "--repo", repo, "secret_outside")
	if strings.Contains(out, "secret_outside") {
		t.Errorf("the outside file was indexed:\n%s", out)
	}
}

// TestResumeAfterTornLine (finding 7): a transcript whose last line was
// torn by a crash loses nothing when resumed: the next record starts on a
// line of its own.
func TestResumeAfterTornLine(t *testing.T) {
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	writeFile(t, filepath.Join(repo, "a.txt"), "x\n")
	out, code := runAgentBinary(t, work, repo, `{"content": [{"type": "text", "text": "first"}], "stop_reason": "end_turn"}`)
	if code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	var id string
	for _, l := range strings.Split(out, "\n") {
		var r struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(l), &r) == nil && r.SessionID != "" {
			id = r.SessionID
		}
	}
	st, err := session.NewStore(filepath.Join(work, "home", ".local", "share"), repo)
	if err != nil || id == "" {
		t.Fatalf("session %q: %v", id, err)
	}
	f, err := os.OpenFile(st.Path(id), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"v":1,"type":"message","message":{"role":"user","content":[{"type":"te`) // torn by a crash
	f.Close()
	before, _ := st.Read(id)
	out, code = runAgentBinary(t, work, repo, `{"content": [{"type": "text", "text": "resumed reply"}], "stop_reason": "end_turn"}`, "-r", id)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, out)
	}
	after, err := st.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	got := len(after.Messages()) - len(before.Messages())
	if got != 2 || after.Skipped != 1 {
		t.Errorf("after resuming a torn transcript: %d new messages, %d skipped lines; want 2 (prompt and reply) and 1 (the fragment)", got, after.Skipped)
	}
}

// TestUntrustedRepositoryModelIgnored (finding 8): grit fix and grit
// doctor follow the one trust rule: an untrusted repository's
// .grit/settings.json cannot choose the model (a scripted: file or a
// provider URL of its own).
func TestUntrustedRepositoryModelIgnored(t *testing.T) {
	work := t.TempDir()
	for _, kv := range agentEnv(work) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1") // nothing answers: no model is reached
	root := filepath.Join(work, "repo")
	extractTxtar(t, filepath.Join("..", "fix", "testdata", "gocalc.txtar"), root)
	planted := scriptedReply(t, clampFix)
	writeFile(t, filepath.Join(root, ".grit", "settings.json"), `{"model": "scripted:`+planted+`"}`)
	out, errs, _ := runGrit(t, "", "fix", "Clamp returns lo when v is above hi", "--repo", root, "--dry-run", "--json", "--sandbox", "none", "--test", "false")
	if strings.Contains(out, "return hi") || strings.Contains(out, planted) {
		t.Errorf("grit fix used the untrusted repository's model:\n%s", out)
	}
	if !strings.Contains(errs, "not trusted") {
		t.Errorf("grit fix stderr %q does not say the repository's settings are not trusted", errs)
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(root)
	out, errs, _ = runGrit(t, "", "doctor")
	if strings.Contains(out+errs, planted) {
		t.Errorf("grit doctor checked the untrusted repository's model:\n%s%s", out, errs)
	}
	// Trusted, the repository's model is the one used.
	if _, errs, code := runGrit(t, "", "trust", root); code != 0 {
		t.Fatalf("grit trust: %s", errs)
	}
	out, errs, _ = runGrit(t, "", "fix", "Clamp returns lo when v is above hi", "--repo", root, "--dry-run", "--json", "--sandbox", "none", "--test", "false")
	if !strings.Contains(out, "return hi") {
		t.Errorf("trusted: grit fix did not use the repository's model:\n%s%s", out, errs)
	}
}

// TestMovedAsideDatabasesBounded (finding 10): a database that keeps going
// bad is moved aside each time, but only the newest few copies are kept.
func TestMovedAsideDatabasesBounded(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.py"), "def f():\n    return 1\n")
	db := filepath.Join(root, ".grit", "index.db")
	for i := 0; i < 6; i++ {
		writeFile(t, db, strings.Repeat("not a database ", 100))
		if out, errs, code := runGrit(t, "", "index", root); code != 0 || !strings.Contains(errs, "moved aside") {
			t.Fatalf("grit index over a corrupt database: exit %d\n%s%s", code, out, errs)
		}
	}
	copies, _ := filepath.Glob(db + ".corrupt-*")
	var main []string
	for _, c := range copies {
		if !strings.HasSuffix(c, "-wal") && !strings.HasSuffix(c, "-shm") {
			main = append(main, c)
		}
	}
	if len(main) != 3 {
		t.Errorf("%d moved-aside databases after 6 corruptions, want the newest 3: %v", len(main), main)
	}
}
