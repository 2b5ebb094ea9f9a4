package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitOutput polls BashOutput until its accumulated output holds want; the
// deadline guards against a hang, it does not time anything.
func waitOutput(t *testing.T, env *Env, id, want string) string {
	t.Helper()
	var all strings.Builder
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		res := call(t, BashOutput{}, env, map[string]string{"bash_id": id})
		all.WriteString(res.Content + "\n")
		if strings.Contains(all.String(), want) {
			return all.String()
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("BashOutput never showed %q; saw:\n%s", want, all.String())
	return ""
}

func TestBashBackground(t *testing.T) {
	env, _ := testEnv(t, nil)
	defer env.Close()
	fifo := filepath.Join(env.Root, "gate")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	res := call(t, Bash{}, env, map[string]any{"command": "echo ready; echo noise; read x < gate; echo second $x; exit 3", "run_in_background": true})
	if res.IsError || !strings.Contains(res.Content, "bash_1") {
		t.Fatalf("Bash run_in_background = %+v, want an ID", res)
	}
	out := waitOutput(t, env, "bash_1", "ready")
	if !strings.Contains(out, "<status>running</status>") {
		t.Errorf("first read: %s, want status running", out)
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = waitOutput(t, env, "bash_1", "<status>failed</status>")
	if !strings.Contains(out, "second go") || !strings.Contains(out, "<exit_code>3</exit_code>") {
		t.Errorf("after release: %s, want the rest of the output and exit code 3", out)
	}
	if strings.Count(out, "ready") != 0 {
		t.Errorf("output already read came back: %s", out)
	}
	list := env.Shells().List()
	if len(list) != 1 || list[0].ID != "bash_1" || list[0].Status != "failed" {
		t.Errorf("List = %+v", list)
	}
}

func TestBashOutputFilter(t *testing.T) {
	env, _ := testEnv(t, nil)
	defer env.Close()
	call(t, Bash{}, env, map[string]any{"command": "printf 'ok 1\\nFAIL 2\\nok 3\\nFAIL 4\\n'", "run_in_background": true})
	// Wait for the end without reading: a filtered read consumes the rest.
	deadline := time.Now().Add(20 * time.Second)
	for env.Shells().List()[0].Status == "running" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	res := call(t, BashOutput{}, env, map[string]string{"bash_id": "bash_1", "filter": "^FAIL"})
	if !strings.Contains(res.Content, "FAIL 2\nFAIL 4") || strings.Contains(res.Content, "ok 1") {
		t.Errorf("filtered read = %s", res.Content)
	}
	res = call(t, BashOutput{}, env, map[string]string{"bash_id": "bash_1"})
	if !strings.Contains(res.Content, "(no new output)") {
		t.Errorf("lines the filter dropped came back: %s", res.Content)
	}
	if res := call(t, BashOutput{}, env, map[string]string{"bash_id": "bash_1", "filter": "("}); !res.IsError {
		t.Errorf("bad regexp accepted: %s", res.Content)
	}
	if res := call(t, BashOutput{}, env, map[string]string{"bash_id": "bash_9"}); !res.IsError || !strings.Contains(res.Content, "bash_1") {
		t.Errorf("unknown ID: %s, want an error naming the shells", res.Content)
	}
}

func TestKillShellAndClose(t *testing.T) {
	env, _ := testEnv(t, nil)
	call(t, Bash{}, env, map[string]any{"command": "echo up; sleep 1000", "run_in_background": true})
	call(t, Bash{}, env, map[string]any{"command": "echo up2; sleep 1000", "run_in_background": true})
	waitOutput(t, env, "bash_1", "up")
	if res := call(t, KillShell{}, env, map[string]string{"shell_id": "bash_1"}); res.IsError {
		t.Fatalf("KillShell: %s", res.Content)
	}
	if res := call(t, BashOutput{}, env, map[string]string{"bash_id": "bash_1"}); !strings.Contains(res.Content, "<status>killed</status>") {
		t.Errorf("after KillShell: %s", res.Content)
	}
	if res := call(t, KillShell{}, env, map[string]string{"shell_id": "bash_1"}); !res.IsError {
		t.Errorf("killing a dead shell: %s, want an error", res.Content)
	}
	env.Close() // the session ends: bash_2 dies with it
	if st := env.Shells().List()[1].Status; st != "killed" {
		t.Errorf("bash_2 after Close: %s, want killed", st)
	}
	if _, err := (Bash{}).Run(context.Background(), env, json.RawMessage(`{"command":"true","run_in_background":true}`)); err == nil || !strings.Contains(err.Error(), "closing") {
		t.Errorf("start after Close: %v, want an error saying the session is closing", err)
	}
}

func TestTodoWrite(t *testing.T) {
	env, _ := testEnv(t, nil)
	res := call(t, TodoWrite{}, env, map[string]any{"todos": []map[string]string{
		{"content": "Run the tests", "status": "completed", "activeForm": "Running the tests"},
		{"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
		{"content": "Write docs", "status": "pending", "activeForm": "Writing docs"},
	}})
	if res.IsError {
		t.Fatal(res.Content)
	}
	if got, want := FormatTodos(env.Todos()), "☒ Run the tests\n◐ Fixing the bug\n☐ Write docs"; got != want {
		t.Errorf("FormatTodos = %q, want %q", got, want)
	}
	for name, in := range map[string]string{
		"no todos":       `{}`,
		"bad status":     `{"todos":[{"content":"a","status":"done","activeForm":"A"}]}`,
		"no activeForm":  `{"todos":[{"content":"a","status":"pending"}]}`,
		"no content":     `{"todos":[{"content":" ","status":"pending","activeForm":"A"}]}`,
		"not an object":  `[1]`,
		"todos not list": `{"todos":"x"}`,
	} {
		res, err := TodoWrite{}.Run(context.Background(), env, json.RawMessage(in))
		if err != nil || !res.IsError {
			t.Errorf("%s: TodoWrite(%s) = %+v, %v; want an error result", name, in, res, err)
		}
	}
	if len(env.Todos()) != 3 {
		t.Errorf("a rejected call changed the list: %v", env.Todos())
	}
}

func TestWebFetch(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><style>body{}</style><script>var x=1</script></head><body><h1>Install</h1><p>Run <code>go install</code> then see <a href="/docs">the docs</a>.</p></body></html>`)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("word ", webFetchBudget))
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"version":"1.2.3"}`)
	})
	mux.HandleFunc("/bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte{0, 1, 2})
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://other.invalid/x", http.StatusFound)
	})
	mux.HandleFunc("/here", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/json", http.StatusFound) })
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	env, _ := testEnv(t, nil)

	res := call(t, WebFetch{}, env, map[string]string{"url": srv.URL + "/page", "prompt": "how to install"})
	if res.IsError || !strings.Contains(res.Content, "# Install") || !strings.Contains(res.Content, "`go install`") ||
		!strings.Contains(res.Content, "[the docs]("+srv.URL+"/docs)") || strings.Contains(res.Content, "var x") {
		t.Errorf("HTML page = %s, want Markdown with an absolute link and no script", res.Content)
	}
	if res := call(t, WebFetch{}, env, map[string]string{"url": srv.URL + "/json", "prompt": "v"}); !strings.Contains(res.Content, `"version":"1.2.3"`) {
		t.Errorf("JSON = %s", res.Content)
	}
	if res := call(t, WebFetch{}, env, map[string]string{"url": srv.URL + "/here", "prompt": "v"}); !strings.Contains(res.Content, "1.2.3") {
		t.Errorf("same-host redirect not followed: %s", res.Content)
	}
	if res := call(t, WebFetch{}, env, map[string]string{"url": srv.URL + "/away", "prompt": "v"}); res.IsError || !strings.Contains(res.Content, "redirects to another host: http://other.invalid/x") {
		t.Errorf("cross-host redirect = %s, want it reported", res.Content)
	}
	for _, u := range []string{srv.URL + "/bin", srv.URL + "/missing", "file:///etc/passwd", "not a url"} {
		if res := call(t, WebFetch{}, env, map[string]string{"url": u, "prompt": "v"}); !res.IsError {
			t.Errorf("WebFetch(%s) = %s, want an error result", u, res.Content)
		}
	}
	// Over the budget: cut without a summarizer, summarised with one.
	res = call(t, WebFetch{}, env, map[string]string{"url": srv.URL + "/big", "prompt": "count"})
	if !strings.Contains(res.Content, fmt.Sprintf("[cut at %d bytes of Markdown]", webFetchBudget)) {
		t.Errorf("big page without summarizer: %.200s", res.Content)
	}
	var gotPrompt string
	var gotLen int
	sum := WebFetch{Summarize: func(ctx context.Context, prompt, content string) (string, error) {
		gotPrompt, gotLen = prompt, len(content)
		return "it is all the word 'word'", nil
	}}
	res = call(t, sum, env, map[string]string{"url": srv.URL + "/big", "prompt": "count"})
	if gotPrompt != "count" || gotLen != 5*webFetchBudget || !strings.Contains(res.Content, "it is all the word") {
		t.Errorf("summarised: prompt %q, %d bytes, result %.300s", gotPrompt, gotLen, res.Content)
	}
}
