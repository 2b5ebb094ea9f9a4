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

// searchRepo writes a tiny Python repository.
func searchRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"pkg/session.py": "class Session:\n    def resolve_redirects(self, resp):\n        return resp.fragment\n\n    def send(self, req):\n        return self.resolve_redirects(req)\n",
		"pkg/util.py":    "def parse_url(u):\n    return u.split('#')\n",
	}
	for p, s := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func runGrit(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, Stdio{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return out.String(), errb.String(), code
}

func TestSearchCmd(t *testing.T) {
	root := searchRepo(t)
	out, errs, code := runGrit(t, "", "search", "--repo", root, "--explain", "Session.resolve_redirects drops the fragment")
	if code != ExitOK {
		t.Fatalf("grit search exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "pkg/session.py:2") || !strings.Contains(out, "Session.resolve_redirects") || !strings.Contains(out, "definition boost") {
		t.Errorf("grit search output lacks the ranked definition and its explanation:\n%s", out)
	}

	out, errs, code = runGrit(t, "", "search", "--repo", root, "--json", "-k", "1", "parse_url")
	if code != ExitOK {
		t.Fatalf("grit search --json exit %d, stderr %q", code, errs)
	}
	var res struct {
		Hits []struct {
			Def struct {
				QName string `json:"qname"`
			} `json:"def"`
			Signals map[string]float64 `json:"signals"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("grit search --json: %v\n%s", err, out)
	}
	if len(res.Hits) != 1 || res.Hits[0].Def.QName != "parse_url" || res.Hits[0].Signals["symbol"] == 0 {
		t.Errorf("grit search --json -k 1 parse_url = %+v, want parse_url with a symbol score", res.Hits)
	}

	tb := "Traceback (most recent call last):\n  File \"/x/pkg/session.py\", line 6, in send\n  File \"/x/pkg/session.py\", line 3, in resolve_redirects\nAttributeError\n"
	out, errs, code = runGrit(t, tb, "search", "--repo", root, "--traceback", "-", "-k", "1", "it fails")
	if code != ExitOK || !strings.Contains(out, "resolve_redirects") || !strings.Contains(out, "2 in the repository") {
		t.Errorf("grit search --traceback - exit %d, out:\n%s\nstderr %q", code, out, errs)
	}
}

func TestSearchCmdBadInput(t *testing.T) {
	root := searchRepo(t)
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no task", []string{"search", "--repo", root}, ExitUsage, "needs a task"},
		{"blank task", []string{"search", "--repo", root, "  "}, ExitUsage, "needs a task"},
		{"only stop words", []string{"search", "--repo", root, "the and of"}, ExitNotFound, "no searchable words"},
		{"binary", []string{"search", "--repo", root, "\x00\xff\xfe"}, ExitNotFound, "no searchable words"},
		{"missing repo", []string{"search", "--repo", filepath.Join(root, "nope"), "x"}, ExitUsage, "nope"},
		{"missing traceback file", []string{"search", "--repo", root, "--traceback", filepath.Join(root, "nope.txt"), "x"}, ExitUsage, "nope.txt"},
		{"bad k", []string{"search", "--repo", root, "-k", "0", "x"}, ExitUsage, "-k"},
	}
	for _, tt := range tests {
		_, errs, code := runGrit(t, "", tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.err) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tt.name, code, errs, tt.code, tt.err)
		}
	}
}

func TestBenchLocateMissingMirror(t *testing.T) {
	data := filepath.Join(t.TempDir(), "dev.jsonl")
	os.WriteFile(data, []byte(`{"instance_id":"o__n-1","repo":"o/n","base_commit":"abc","problem_statement":"x","gold_files":["a.py"]}`+"\n"), 0o644)
	_, errs, code := runGrit(t, "", "bench", "locate", "--data", data, "--repos", t.TempDir(), "--work", t.TempDir())
	if code != ExitError || !strings.Contains(errs, "no mirror of o/n") {
		t.Errorf("bench locate without mirrors: exit %d, stderr %q; want exit 1 naming o/n", code, errs)
	}
}
