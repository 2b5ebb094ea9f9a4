package cli

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// webserve VAR [FILE...] starts a local HTTP server for a script (/page is
// HTML), sets VAR to its URL and writes it for $VAR in each FILE (scripted
// turns); the server stops when the script ends.
func webserve(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: webserve VAR [FILE...]")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><h2>Release notes</h2><ul><li>version <b>4.2</b> fixes the parser</li></ul><script>tracker()</script></body></html>`)
	})
	srv := httptest.NewServer(mux)
	ts.Defer(srv.Close)
	ts.Setenv(args[0], srv.URL)
	for _, f := range args[1:] {
		data := strings.ReplaceAll(ts.ReadFile(f), "$"+args[0], srv.URL)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(data), 0o644))
	}
}

// lastsession VAR sets VAR to the path of the newest session transcript
// under the script's data home.
func lastsession(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: lastsession VAR")
	}
	var newest string
	var newestTime time.Time
	filepath.WalkDir(filepath.Join(ts.Getenv("XDG_DATA_HOME"), "grit", "sessions"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || strings.Contains(p, "/subagents/") {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.ModTime().After(newestTime) {
			newest, newestTime = p, fi.ModTime()
		}
		return nil
	})
	if newest == "" {
		ts.Fatalf("no session transcript found")
	}
	ts.Setenv(args[0], newest)
}

// b64decode IN OUT writes the base64 decoding of IN to OUT.
func b64decode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: b64decode IN OUT")
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(ts.ReadFile(args[0])))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
}

// contextbudget FILE MAX checks grit context --json output in FILE: the
// system prompt plus everything sent with every request (all rows but the
// conversation and the free space) is at most MAX tokens.
func contextbudget(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: contextbudget FILE MAX")
	}
	var rep struct {
		Rows []struct {
			Name   string `json:"name"`
			Tokens int    `json:"tokens"`
		} `json:"rows"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &rep))
	limit, err := strconv.Atoi(args[1])
	ts.Check(err)
	total := 0
	for _, r := range rep.Rows {
		switch r.Name {
		case "messages", "autocompact buffer", "free space":
		default:
			total += r.Tokens
		}
	}
	ts.Logf("system prompt and always-sent tools: %d tokens", total)
	if total > limit {
		ts.Fatalf("system prompt and always-sent tools take %d tokens, over %d", total, limit)
	}
}
