package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

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
