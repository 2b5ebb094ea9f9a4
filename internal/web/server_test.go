package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/explore"
	"github.com/grit-dev/grit/internal/web"
)

// fixture is a running explorer on a copy of testdata/fixture.txtar.
type fixture struct {
	t      *testing.T
	root   string // the explored repository
	cache  string // the explorer's cache dir
	base   string // http://127.0.0.1:PORT
	host   string // 127.0.0.1:PORT
	token  string
	srv    *web.Explorer
	client *http.Client
}

// extract writes testdata/fixture.txtar into a new directory.
func extract(t *testing.T) string {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/fixture.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func startFixture(t *testing.T, model string) *fixture {
	t.Helper()
	return startFixtureWith(t, model, nil)
}

// startFixtureWith starts the explorer on the fixture with extra files.
func startFixtureWith(t *testing.T, model string, extra map[string]string) *fixture {
	t.Helper()
	root := extract(t)
	for name, text := range extra {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{t: t, root: root, cache: t.TempDir()}
	srv, err := web.Start(web.StartOptions{Source: root, Addr: "127.0.0.1:0", Model: model, CacheDir: f.cache})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	srv.X.Wait()
	if st := srv.X.Status(context.Background()); !st.Ready {
		t.Fatalf("explorer not ready: %+v", st.Job)
	}
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	f.host = u.Host
	f.base = "http://" + u.Host
	f.token = u.Query().Get("token")
	f.client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return f
}

// do sends a request; hdr entries "Host" set the Host header.
func (f *fixture) do(method, rawPath string, body string, hdr map[string]string) (*http.Response, []byte) {
	f.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.base+rawPath, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp, b
}

func (f *fixture) auth() map[string]string {
	return map[string]string{"Authorization": "Bearer " + f.token}
}

// post is an authorised same-origin JSON POST, as the page sends it.
func (f *fixture) post(path, body string) (*http.Response, []byte) {
	return f.do("POST", path, body, map[string]string{
		"Authorization": "Bearer " + f.token, "Origin": f.base, "Content-Type": "application/json",
	})
}

func (f *fixture) getJSON(path string, v any) {
	f.t.Helper()
	resp, b := f.do("GET", path, "", f.auth())
	if resp.StatusCode != 200 {
		f.t.Fatalf("GET %s = %d %s, want 200", path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		f.t.Fatalf("GET %s: %v in %s", path, err, b)
	}
}

func TestHostAllowlist(t *testing.T) {
	f := startFixture(t, "")
	_, port, _ := net.SplitHostPort(f.host)
	for _, tc := range []struct {
		name, host string
		want       int
	}{
		{"loopback", "127.0.0.1:" + port, 200},
		{"localhost", "localhost:" + port, 200},
		{"localhost upper case", "LOCALHOST:" + port, 200},
		{"ipv6 loopback", "[::1]:" + port, 200},
		{"rebinding name", "evil.example:" + port, 403},
		{"rebinding name without port", "evil.example", 403},
		{"loopback wrong port", "127.0.0.1:1", 403},
		{"loopback no port", "127.0.0.1", 403},
		{"localhost suffix", "localhost.evil.example:" + port, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := f.auth()
			hdr["Host"] = tc.host
			resp, b := f.do("GET", "/api/status", "", hdr)
			if resp.StatusCode != tc.want {
				t.Errorf("GET /api/status with Host %q = %d %s, want %d", tc.host, resp.StatusCode, b, tc.want)
			}
		})
	}
}

func TestTokenExchange(t *testing.T) {
	f := startFixture(t, "")
	for _, tc := range []struct {
		name, path string
		hdr        map[string]string
		want       int
	}{
		{"api without token", "/api/status", nil, 401},
		{"api wrong bearer", "/api/status", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"api wrong cookie", "/api/status", map[string]string{"Cookie": "grit_token=nope"}, 401},
		{"api token in query is not enough", "/api/status?token=" + f.token, nil, 401},
		{"page without token", "/", nil, 401},
		{"page wrong token", "/?token=nope", nil, 401},
		{"api bearer", "/api/status", map[string]string{"Authorization": "Bearer " + f.token}, 200},
		{"api cookie", "/api/status", map[string]string{"Cookie": "grit_token=" + f.token}, 200},
		{"page cookie", "/", map[string]string{"Cookie": "grit_token=" + f.token}, 200},
		{"static is public", "/static/app.js", nil, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := f.do("GET", tc.path, "", tc.hdr)
			if resp.StatusCode != tc.want {
				t.Errorf("GET %s = %d %.200s, want %d", tc.path, resp.StatusCode, b, tc.want)
			}
		})
	}
	resp, _ := f.do("GET", "/?token="+f.token, "", nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("GET /?token=T = %d Location %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("GET /?token=T set %d cookies, want 1", len(cookies))
	}
	c := cookies[0]
	if c.Value != f.token || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Errorf("cookie = %+v, want the token, HttpOnly, SameSite=Strict, Path=/", c)
	}
}

func TestSecurityHeaders(t *testing.T) {
	f := startFixture(t, "")
	for _, p := range []string{"/", "/api/status", "/static/style.css"} {
		hdr := f.auth()
		hdr["Cookie"] = "grit_token=" + f.token
		resp, _ := f.do("GET", p, "", hdr)
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("GET %s: CSP %q, want default-src 'self' and nothing unsafe", p, csp)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("GET %s: Access-Control-Allow-Origin %q, want none", p, got)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q, want nosniff", p, got)
		}
	}
}

func TestStateChangingRequestsNeedOriginAndToken(t *testing.T) {
	f := startFixture(t, "")
	good := func() map[string]string {
		return map[string]string{"Authorization": "Bearer " + f.token, "Origin": f.base, "Content-Type": "application/json"}
	}
	for _, path := range []string{"/api/clone", "/api/apply", "/api/undo", "/api/model", "/api/search"} {
		for _, tc := range []struct {
			name string
			edit func(h map[string]string)
			want int
		}{
			{"no token", func(h map[string]string) { delete(h, "Authorization") }, 401},
			{"no origin", func(h map[string]string) { delete(h, "Origin") }, 403},
			{"foreign origin", func(h map[string]string) { h["Origin"] = "http://evil.example" }, 403},
			{"other port", func(h map[string]string) { h["Origin"] = "http://127.0.0.1:1" }, 403},
			{"null origin", func(h map[string]string) { h["Origin"] = "null" }, 403},
			{"cross-site fetch", func(h map[string]string) { h["Sec-Fetch-Site"] = "cross-site" }, 403},
			{"same-site fetch", func(h map[string]string) { h["Sec-Fetch-Site"] = "same-site" }, 403},
			{"form body", func(h map[string]string) { h["Content-Type"] = "application/x-www-form-urlencoded" }, 415},
			{"text body", func(h map[string]string) { h["Content-Type"] = "text/plain" }, 415},
		} {
			t.Run(path+"/"+tc.name, func(t *testing.T) {
				h := good()
				tc.edit(h)
				resp, b := f.do("POST", path, `{}`, h)
				if resp.StatusCode != tc.want {
					t.Errorf("POST %s (%s) = %d %s, want %d", path, tc.name, resp.StatusCode, b, tc.want)
				}
			})
		}
	}
	// GET on a POST endpoint and POST on a GET one are refused.
	if resp, _ := f.do("GET", "/api/apply", "", f.auth()); resp.StatusCode != 405 {
		t.Errorf("GET /api/apply = %d, want 405", resp.StatusCode)
	}
	if resp, _ := f.post("/api/status", `{}`); resp.StatusCode != 405 {
		t.Errorf("POST /api/status = %d, want 405", resp.StatusCode)
	}
}

func TestReadEndpoints(t *testing.T) {
	f := startFixture(t, "")

	var st explore.Status
	f.getJSON("/api/status", &st)
	if !st.Ready || st.Root != f.root || st.Files != 4 || st.Defs == 0 {
		t.Errorf("status = ready %v root %q files %d defs %d, want ready, %q, 4 files", st.Ready, st.Root, st.Files, st.Defs, f.root)
	}

	var res explore.SearchResult
	f.getJSON("/api/search?q="+url.QueryEscape("resolve_redirects raises TooManyRedirects after max_redirects")+"&k=5", &res)
	if len(res.Hits) == 0 {
		t.Fatalf("search found nothing: %+v", res)
	}
	top := res.Hits[0]
	if top.Def.QName != "Session.resolve_redirects" {
		t.Errorf("top hit = %s, want Session.resolve_redirects", top.Def.QName)
	}
	if !strings.HasPrefix(top.Body, "def resolve_redirects(self, resp, req):") || top.Score <= 0 {
		t.Errorf("top hit body %.60q score %v, want its source and a positive score", top.Body, top.Score)
	}

	var syms explore.SymbolsResult
	f.getJSON("/api/symbols?path=requests/sessions.py", &syms)
	var names []string
	for _, d := range syms.Symbols {
		names = append(names, d.QName)
	}
	want := "Session Session.__init__ Session.resolve_redirects Session.send Session.get_adapter TooManyRedirects InvalidSchema"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("symbols = %s, want %s", got, want)
	}

	d := top.Def
	var ast explore.ASTNode
	f.getJSON("/api/ast?path=requests/sessions.py&start="+itoa(d.Start)+"&end="+itoa(d.End), &ast)
	if ast.Type != "function_definition" || ast.Start != d.Start || ast.End != d.End || len(ast.Children) == 0 {
		t.Errorf("ast root = %s [%d,%d) with %d children, want function_definition [%d,%d)", ast.Type, ast.Start, ast.End, len(ast.Children), d.Start, d.End)
	}

	var file explore.FileSlice
	f.getJSON("/api/file?path=requests/sessions.py&start="+itoa(d.Start)+"&end="+itoa(d.End), &file)
	if file.Text != top.Body {
		t.Errorf("file slice = %.60q, want the definition's body %.60q", file.Text, top.Body)
	}

	var send explore.Def
	for _, s := range syms.Symbols {
		if s.QName == "Session.send" {
			send = s
		}
	}
	var e explore.Edges
	f.getJSON("/api/edges?path=requests/sessions.py&def="+itoa(int(send.ID)), &e)
	if len(e.Imports) != 1 || e.Imports[0].Resolved != "requests/adapters.py" {
		t.Errorf("imports = %+v, want .adapters resolved to requests/adapters.py", e.Imports)
	}
	var callers, callees []string
	for _, c := range e.Callers {
		callers = append(callers, c.Label)
	}
	for _, c := range e.Callees {
		callees = append(callees, c.Label)
	}
	if !contains(callers, "Session.resolve_redirects") {
		t.Errorf("callers of Session.send = %v, want Session.resolve_redirects among them", callers)
	}
	if !contains(callees, "Session.get_adapter") {
		t.Errorf("callees of Session.send = %v, want Session.get_adapter among them", callees)
	}

	for _, tc := range []struct {
		name, path string
		want       int
	}{
		{"unknown endpoint", "/api/nope", 404},
		{"file not indexed", "/api/symbols?path=nope.py", 404},
		{"missing file", "/api/file?path=nope.py", 404},
		{"bad range", "/api/file?path=requests/sessions.py&start=9&end=3", 400},
		{"bad integer", "/api/file?path=requests/sessions.py&start=x", 400},
		{"empty path", "/api/ast?path=", 400},
		{"def from another file", "/api/edges?path=requests/adapters.py&def=" + itoa(int(send.ID)), 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if resp, b := f.do("GET", tc.path, "", f.auth()); resp.StatusCode != tc.want {
				t.Errorf("GET %s = %d %s, want %d", tc.path, resp.StatusCode, b, tc.want)
			}
		})
	}
}

func TestPathConfinement(t *testing.T) {
	f := startFixture(t, "")
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("CANARY-outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(f.root, "leak.py")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(f.root, ".git"), 0o755)
	os.WriteFile(filepath.Join(f.root, ".git", "config"), []byte("[remote] CANARY-git"), 0o644)
	rel, _ := filepath.Rel(f.root, secret)
	for _, tc := range []struct{ name, rawQuery string }{
		{"dot dot", "path=../../../../etc/passwd"},
		{"dot dot to the canary", "path=" + url.QueryEscape(rel)},
		{"encoded dot dot", "path=%2e%2e/%2e%2e/%2e%2e/etc/passwd"},
		{"encoded slash", "path=..%2f..%2f..%2fetc%2fpasswd"},
		{"double encoded", "path=%252e%252e%252f%252e%252e%252fetc%252fpasswd"},
		{"double encoded dots only", "path=%252e%252e/%252e%252e/etc/passwd"},
		{"inner dot dot", "path=requests/../../" + url.QueryEscape(filepath.Base(outside)) + "/secret.txt"},
		{"absolute", "path=/etc/passwd"},
		{"absolute canary", "path=" + url.QueryEscape(secret)},
		{"home", "path=~/.ssh/id_rsa"},
		{"backslashes", "path=..%5c..%5cetc%5cpasswd"},
		{"nul", "path=requests/sessions.py%00.txt"},
		{"dir symlink out", "path=escape/secret.txt"},
		{"file symlink out", "path=leak.py"},
		{"dot git", "path=.git/config"},
		{"dot git case", "path=.GIT/config"},
		{"dot git trailing dot", "path=.git./config"},
		{"dot grit", "path=.grit/index.db"},
	} {
		for _, ep := range []string{"/api/file", "/api/ast", "/api/symbols", "/api/edges"} {
			t.Run(tc.name+ep, func(t *testing.T) {
				resp, b := f.do("GET", ep+"?"+tc.rawQuery, "", f.auth())
				if resp.StatusCode != 403 && resp.StatusCode != 404 && resp.StatusCode != 400 {
					t.Errorf("GET %s?%s = %d %.200s, want 403, 404 or 400", ep, tc.rawQuery, resp.StatusCode, b)
				}
				if strings.Contains(string(b), "CANARY") || strings.Contains(string(b), "root:x:") {
					t.Errorf("GET %s?%s leaked outside content: %.200s", ep, tc.rawQuery, b)
				}
			})
		}
	}
}

// FuzzFileQuery: whatever the raw query, /api/file never answers with bytes
// from outside the repository.
func FuzzFileQuery(f *testing.F) {
	for _, s := range []string{"path=../secret.txt", "path=%2e%2e/secret.txt", "path=%252e%252e%252fsecret.txt", "path=escape/secret.txt", "path=requests/sessions.py", "path=.%2e/secret.txt", "path=requests/%2e%2e/%2e%2e/secret.txt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		fx := fuzzFixture(t)
		req, err := http.NewRequest("GET", fx.base+"/api/file?"+raw, nil)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+fx.token)
		resp, err := fx.client.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if strings.Contains(string(b), "CANARY") {
			t.Fatalf("GET /api/file?%s leaked outside content: %.200s", raw, b)
		}
	})
}

var fuzzFx *fixture

// fuzzFixture shares one server across fuzz inputs; the canary sits next to
// the repository and behind a directory symlink.
func fuzzFixture(t *testing.T) *fixture {
	if fuzzFx != nil {
		return fuzzFx
	}
	root := extract(t)
	parent := filepath.Dir(root)
	os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("CANARY"), 0o644)
	os.Symlink(parent, filepath.Join(root, "escape"))
	srv, err := web.Start(web.StartOptions{Source: root, Addr: "127.0.0.1:0", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	srv.X.Wait()
	u, _ := url.Parse(srv.URL())
	fuzzFx = &fixture{t: t, root: root, base: "http://" + u.Host, host: u.Host, token: u.Query().Get("token"), srv: srv, client: http.DefaultClient}
	return fuzzFx
}

func TestCloneRefusals(t *testing.T) {
	f := startFixture(t, "")
	for _, src := range []string{
		"",
		"-oProxyCommand=touch /tmp/grit-pwned",
		"--upload-pack=touch /tmp/grit-pwned",
		"ext::sh -c touch% /tmp/grit-pwned",
		"ext::sh",
		"fd::17",
		"ssh://-oProxyCommand=touch/x",
		"ssh://host/-oProxyCommand",
		"ssh://-user@host/path",
		"git@-oProxyCommand=x:repo",
		"http://example.com/repo.git",
		"git://example.com/repo.git",
		"ftp://example.com/repo.git",
		"https://",
		"https://example.com/repo.git?x=1",
		"https://example.com/repo.git\n--upload-pack=x",
		"/no/such/directory",
	} {
		resp, b := f.post("/api/clone", mustJSON(map[string]string{"source": src}))
		if resp.StatusCode != 400 {
			t.Errorf("POST /api/clone %q = %d %s, want 400", src, resp.StatusCode, b)
		}
	}
	if _, err := os.Stat("/tmp/grit-pwned"); err == nil {
		t.Errorf("a refused clone URL ran a command: /tmp/grit-pwned exists")
	}
	if resp, b := f.post("/api/clone", `{"source": "x", "extra": 1}`); resp.StatusCode != 400 {
		t.Errorf("POST /api/clone with an unknown field = %d %s, want 400", resp.StatusCode, b)
	}
}

// TestCloneBareRepo clones a local bare repository (made with real git)
// through the page's endpoint and checks the explorer switches to it.
func TestCloneBareRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	f := startFixture(t, "")
	work := extract(t)
	os.WriteFile(filepath.Join(work, "requests", "extra.py"), []byte("def only_in_the_clone():\n    return 42\n"), 0o644)
	bare := filepath.Join(t.TempDir(), "upstream.git")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(work, "init", "-q", "-b", "main")
	git(work, "add", ".")
	git(work, "commit", "-q", "-m", "fixture")
	git(work, "clone", "-q", "--bare", work, bare)

	resp, b := f.post("/api/clone", mustJSON(map[string]string{"source": bare}))
	if resp.StatusCode != 202 {
		t.Fatalf("POST /api/clone %s = %d %s, want 202", bare, resp.StatusCode, b)
	}
	f.srv.X.Wait()
	var st explore.Status
	f.getJSON("/api/status", &st)
	wantPrefix := filepath.Join(f.cache, "repos", "local")
	if !st.Ready || !strings.HasPrefix(st.Root, wantPrefix) || st.Job == nil || st.Job.Phase != "ready" {
		t.Fatalf("after clone: root %q job %+v, want ready under %s", st.Root, st.Job, wantPrefix)
	}
	if _, err := os.Stat(filepath.Join(st.Root, "requests", "extra.py")); err != nil {
		t.Errorf("clone lacks requests/extra.py: %v", err)
	}
	if n := gitDepth(t, st.Root); n != 1 {
		t.Errorf("clone has %d commits, want a shallow clone of 1", n)
	}
	var res explore.SearchResult
	f.getJSON("/api/search?q=only_in_the_clone", &res)
	if len(res.Hits) == 0 || res.Hits[0].Def.Name != "only_in_the_clone" {
		t.Errorf("search in the clone = %+v, want only_in_the_clone first", res.Hits)
	}
	if len(st.Recent) < 2 || st.Recent[0].Source != bare || st.Recent[1].Root != f.root {
		t.Errorf("recent = %+v, want the bare repo then the fixture", st.Recent)
	}
	// A second request for the same source reuses the clone.
	if resp, b := f.post("/api/clone", mustJSON(map[string]string{"source": bare})); resp.StatusCode != 202 {
		t.Fatalf("second POST /api/clone = %d %s, want 202", resp.StatusCode, b)
	}
	f.srv.X.Wait()
	var st2 explore.Status
	f.getJSON("/api/status", &st2)
	if st2.Root != st.Root || st2.Job.Phase != "ready" {
		t.Errorf("second clone: root %q phase %s, want %q ready", st2.Root, st2.Job.Phase, st.Root)
	}
}

func gitDepth(t *testing.T, dir string) int {
	out, err := exec.Command("git", "-C", dir, "rev-list", "--count", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-list: %v", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("git rev-list: %v", err)
	}
	return n
}

// sse reads a text/event-stream body into (event, data) pairs.
func sse(t *testing.T, body []byte) [][2]string {
	var out [][2]string
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	ev := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			out = append(out, [2]string{ev, strings.TrimPrefix(line, "data: ")})
		}
	}
	return out
}

func TestModelApplyUndo(t *testing.T) {
	script, err := filepath.Abs("testdata/model-reply.json")
	if err != nil {
		t.Fatal(err)
	}
	f := startFixture(t, "scripted:"+script)
	var syms explore.SymbolsResult
	f.getJSON("/api/symbols?path=requests/sessions.py", &syms)
	var target explore.Def
	for _, d := range syms.Symbols {
		if d.QName == "Session.get_adapter" {
			target = d
		}
	}
	orig, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py"))

	resp, b := f.post("/api/model", mustJSON(map[string]any{"def_id": target.ID, "task": "prefer the longest matching prefix"}))
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("POST /api/model = %d %s %s, want a 200 event stream", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	events := sse(t, b)
	var deltas int
	var prop explore.ModelProposal
	for _, ev := range events {
		switch ev[0] {
		case "delta":
			deltas++
		case "result":
			if err := json.Unmarshal([]byte(ev[1]), &prop); err != nil {
				t.Fatal(err)
			}
		case "error":
			t.Fatalf("model error event: %s", ev[1])
		}
	}
	if deltas == 0 || !prop.Verdict.Accept {
		t.Fatalf("model: %d deltas, verdict %+v, want streamed text and an accepted reply", deltas, prop.Verdict)
	}
	if !strings.Contains(prop.Diff, "+        best = None") || !strings.Contains(prop.Diff, "-            if url.startswith(prefix):") {
		t.Errorf("diff does not show the re-indented replacement:\n%s", prop.Diff)
	}
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Fatalf("asking the model changed the file")
	}

	// Apply refuses a stale hash and a replacement the monitor rejects.
	if resp, b := f.post("/api/apply", mustJSON(map[string]any{"def_id": target.ID, "replacement": prop.Replacement, "file_hash": "0000", "task": "t"})); resp.StatusCode != 409 {
		t.Errorf("apply with a stale hash = %d %s, want 409", resp.StatusCode, b)
	}
	if resp, b := f.post("/api/apply", mustJSON(map[string]any{"def_id": target.ID, "replacement": "def get_adapter(self, url):\n    # ... existing code ...\n", "file_hash": prop.FileHash, "task": "t"})); resp.StatusCode != 400 {
		t.Errorf("apply with an elided body = %d %s, want 400", resp.StatusCode, b)
	}
	resp, b = f.post("/api/apply", mustJSON(map[string]any{"def_id": target.ID, "replacement": prop.Replacement, "file_hash": prop.FileHash, "task": "prefer the longest matching prefix"}))
	if resp.StatusCode != 200 {
		t.Fatalf("apply = %d %s, want 200", resp.StatusCode, b)
	}
	now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py"))
	if !strings.Contains(string(now), "        best = None\n") || !strings.Contains(string(now), "class TooManyRedirects(Exception):") {
		t.Fatalf("after apply the file is:\n%s", now)
	}
	var res explore.SearchResult
	f.getJSON("/api/search?q=longest+prefix+match+adapter", &res)
	if len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Body, "best = None") {
		t.Errorf("search after apply does not see the new body (index not updated)")
	}

	resp, b = f.post("/api/undo", `{}`)
	if resp.StatusCode != 200 {
		t.Fatalf("undo = %d %s, want 200", resp.StatusCode, b)
	}
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Errorf("undo did not restore the file:\n%s", now)
	}
	if resp, b := f.post("/api/undo", `{}`); resp.StatusCode != 404 {
		t.Errorf("second undo = %d %s, want 404 (nothing to undo)", resp.StatusCode, b)
	}
}

func TestModelUnavailableSaysHowToStartOne(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	t.Setenv("OLLAMA_HOST", "http://"+addr)
	f := startFixture(t, "ollama:qwen2.5-coder:7b")
	var syms explore.SymbolsResult
	f.getJSON("/api/symbols?path=requests/adapters.py", &syms)
	resp, b := f.post("/api/model", mustJSON(map[string]any{"def_id": syms.Symbols[1].ID, "task": "retry on errors"}))
	if resp.StatusCode != 200 {
		t.Fatalf("POST /api/model = %d %s", resp.StatusCode, b)
	}
	var errEv map[string]any
	for _, ev := range sse(t, b) {
		if ev[0] == "error" {
			json.Unmarshal([]byte(ev[1]), &errEv)
		}
	}
	cmds, _ := json.Marshal(errEv["commands"])
	if errEv == nil || !strings.Contains(string(cmds), "ollama serve") || !strings.Contains(string(cmds), "ollama pull qwen2.5-coder:7b") ||
		!strings.Contains(errEv["help"].(string), "OPENAI_BASE_URL") {
		t.Errorf("error event = %v, want the commands to start Ollama and the OpenAI alternative", errEv)
	}
	if resp, b := f.post("/api/model", mustJSON(map[string]any{"def_id": 999999, "task": "x"})); resp.StatusCode != 404 {
		t.Errorf("model on an unknown definition = %d %s, want 404", resp.StatusCode, b)
	}
}

func TestNonLoopbackNeedsToken(t *testing.T) {
	x := app.NewExplorer(explore.Options{CacheDir: t.TempDir()})
	defer x.Close()
	for _, tc := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:0", "", true},
		{"[::1]:0", "", true},
		{"localhost:0", "", true},
		{"0.0.0.0:0", "", false},
		{":0", "", false},
		{"192.0.2.1:0", "", false},
		{"0.0.0.0:0", "secret", false}, // too short
		{"127.0.0.1:0", "0123456789abcdef0123456789abcde", false},
		{"0.0.0.0:0", "0123456789abcdef0123456789abcdef", true},
	} {
		_, err := web.New(web.ExploreBackend(x), web.Options{Addr: tc.addr, Token: tc.token})
		if (err == nil) != tc.ok {
			t.Errorf("web.New(addr %q, token %q) error = %v, want ok=%v", tc.addr, tc.token, err, tc.ok)
		}
	}
}

func TestListenIsLoopbackByDefault(t *testing.T) {
	x := app.NewExplorer(explore.Options{CacheDir: t.TempDir()})
	defer x.Close()
	s, err := web.New(web.ExploreBackend(x), web.Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		t.Errorf("listener on %v, want loopback", ip)
	}
	if u := s.URL(); !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.Contains(u, "token="+s.Token()) || len(s.Token()) < 32 {
		t.Errorf("URL %q, want a loopback URL carrying a long random token", u)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
