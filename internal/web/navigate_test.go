package web_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/explore"
	"github.com/grit-dev/grit/internal/web"
)

// navFiles add to the fixture a call linked by name only (format_line is
// defined once, in a file report.py does not import) and an unresolved one
// (send has two definitions).
var navFiles = map[string]string{
	"tools/fmt.py":    "def format_line(resp):\n    return str(resp)\n",
	"tools/report.py": "def summarize(resp):\n    return format_line(resp)\n\n\nsend(None)\n",
}

func findRef(refs []explore.Ref, kind, name string) *explore.Ref {
	for i := range refs {
		if refs[i].Kind == kind && refs[i].Name == name {
			return &refs[i]
		}
	}
	return nil
}

func TestTreeFindRefs(t *testing.T) {
	f := startFixtureWith(t, "", navFiles)

	var tree explore.TreeResult
	f.getJSON("/api/tree", &tree)
	counts := map[string]int{}
	sum := 0
	for _, tf := range tree.Files {
		counts[tf.Path] = tf.Defs
		sum += tf.Defs
	}
	if counts["requests/sessions.py"] != 7 || counts["requests/__init__.py"] != 0 || len(tree.Files) != 6 || sum != tree.Defs {
		t.Errorf("tree = %+v, want 6 files, sessions.py with 7 definitions, counts summing to defs", tree)
	}

	var found explore.SymbolMatches
	f.getJSON("/api/find?q=sessget", &found)
	if len(found.Matches) == 0 || found.Matches[0].QName != "Session.get_adapter" {
		t.Errorf("find sessget = %+v, want Session.get_adapter first", found.Matches)
	}
	found = explore.SymbolMatches{}
	f.getJSON("/api/find?q=send", &found)
	if found.Total < 2 || found.Matches[0].Name != "send" || found.Matches[1].Name != "send" {
		t.Errorf("find send = %d matches %+v, want Session.send and HTTPAdapter.send", found.Total, found.Matches)
	}
	if resp, b := f.do("GET", "/api/find?q=", "", f.auth()); resp.StatusCode != 400 || !strings.Contains(string(b), "empty query") {
		t.Errorf("find with no query = %d %s, want 400 saying the query is empty", resp.StatusCode, b)
	}

	src, err := os.ReadFile(f.root + "/requests/sessions.py")
	if err != nil {
		t.Fatal(err)
	}
	var refs explore.RefsResult
	f.getJSON("/api/refs?path=requests/sessions.py", &refs)
	for _, r := range refs.Refs {
		if got := string(src[r.Start:r.End]); got != r.Name {
			t.Errorf("ref %s %q covers bytes %q", r.Kind, r.Name, got)
		}
	}
	for _, tc := range []struct {
		kind, name, via, def string
		line                 int
	}{
		{"call", "get_adapter", "class", "Session.get_adapter", 23},
		{"call", "TooManyRedirects", "file", "TooManyRedirects", 18},
		{"import", "HTTPAdapter", "import", "HTTPAdapter", 2},
		{"def", "send", "", "Session.send", 22},
	} {
		r := findRef(refs.Refs, tc.kind, tc.name)
		if r == nil || r.Def == nil || r.Via != tc.via || r.Def.QName != tc.def || r.Line != tc.line {
			t.Errorf("ref %s %s = %+v, want line %d via %q to %s", tc.kind, tc.name, r, tc.line, tc.via, tc.def)
		}
	}
	if r := findRef(refs.Refs, "import", "HTTPAdapter"); r != nil && r.Path != "requests/adapters.py" {
		t.Errorf("import ref path = %q, want requests/adapters.py", r.Path)
	}

	refs = explore.RefsResult{} // decoding into old elements would keep their fields
	f.getJSON("/api/refs?path=tests/test_sessions.py", &refs)
	if r := findRef(refs.Refs, "call", "Session"); r == nil || r.Via != "import" || r.Def == nil || r.Def.Path != "requests/sessions.py" {
		t.Errorf("Session() in the test = %+v, want resolved through its import", r)
	}
	refs = explore.RefsResult{}
	f.getJSON("/api/refs?path=tools/report.py", &refs)
	if r := findRef(refs.Refs, "call", "format_line"); r == nil || r.Via != "name" || r.Def == nil || r.Def.Path != "tools/fmt.py" {
		t.Errorf("format_line() = %+v, want a name-only match to tools/fmt.py", r)
	}
	if r := findRef(refs.Refs, "call", "send"); r == nil || r.Def != nil || r.Candidates != 2 {
		t.Errorf("send() = %+v (to %+v), want unresolved with 2 candidates", r, r.Def)
	}
	if resp, _ := f.do("GET", "/api/refs?path=../etc/passwd", "", f.auth()); resp.StatusCode != 403 {
		t.Errorf("refs outside the repository = %d, want 403", resp.StatusCode)
	}

	// Edges: the name-only caller is marked so; the import carries its definition.
	var syms explore.SymbolsResult
	f.getJSON("/api/symbols?path=tools/fmt.py", &syms)
	var e explore.Edges
	f.getJSON(fmt.Sprintf("/api/edges?path=tools/fmt.py&def=%d", syms.Symbols[0].ID), &e)
	if len(e.Callers) != 1 || e.Callers[0].Via != "name" || e.Callers[0].Label != "summarize" || e.Callers[0].Line != 2 {
		t.Errorf("callers of format_line = %+v, want summarize at line 2, name only", e.Callers)
	}
	// adapter.send(req) in Session.send: the index links it to the sibling
	// Session.send by its name; the receiver is another object.
	var sessSyms explore.SymbolsResult
	f.getJSON("/api/symbols?path=requests/sessions.py", &sessSyms)
	var send explore.Def
	for _, d := range sessSyms.Symbols {
		if d.QName == "Session.send" {
			send = d
		}
	}
	e = explore.Edges{}
	f.getJSON(fmt.Sprintf("/api/edges?path=requests/sessions.py&def=%d", send.ID), &e)
	vias := map[string]string{}
	for _, c := range e.Callees {
		vias[c.Label] = c.Via
	}
	if vias["Session.get_adapter"] != "class" || vias["Session.send"] != "name" {
		t.Errorf("callees of Session.send via %v, want self.get_adapter by class, adapter.send by name only", vias)
	}
	e = explore.Edges{}
	f.getJSON("/api/edges?path=requests/sessions.py", &e)
	if len(e.Imports) != 1 || e.Imports[0].Def == nil || e.Imports[0].Def.QName != "HTTPAdapter" {
		t.Errorf("imports = %+v, want .adapters → HTTPAdapter with its definition", e.Imports)
	}
}

func TestSearchPost(t *testing.T) {
	f := startFixture(t, "")
	// A CI log: thousands of lines of noise around a traceback.
	var log strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&log, "[%04d] downloading dependency %d of 3000 ... ok\n", i, i)
	}
	log.WriteString("Traceback (most recent call last):\n")
	log.WriteString(`  File "` + f.root + `/requests/sessions.py", line 23, in send` + "\n    adapter = self.get_adapter(req.url)\n")
	log.WriteString(`  File "` + f.root + `/requests/sessions.py", line 30, in get_adapter` + "\n    raise InvalidSchema(\"no adapter for %r\" % url)\n")
	log.WriteString("requests.sessions.InvalidSchema: no adapter for 'gopher://x'\n")
	body := mustJSON(map[string]any{"q": "", "traceback": log.String(), "k": 5})
	resp, b := f.post("/api/search", body)
	if resp.StatusCode != 200 {
		t.Fatalf("POST /api/search with a %d KiB log = %d %.300s, want 200", len(body)>>10, resp.StatusCode, b)
	}
	var res explore.SearchResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Note, "trimmed to its 2 stack frames") || len(res.Frames) != 2 {
		t.Errorf("note %q, %d frames, want the log trimmed to its 2 frames", res.Note, len(res.Frames))
	}
	if len(res.Hits) == 0 || res.Hits[0].Def.QName != "Session.get_adapter" {
		t.Errorf("hits = %+v, want the innermost frame's Session.get_adapter first", res.Hits)
	}

	for _, tc := range []struct {
		name, body string
		want       int
		says       string
	}{
		{"empty", `{"q": " ", "traceback": ""}`, 400, "empty query"},
		{"unknown field", `{"query": "x"}`, 400, "unknown field"},
		{"too large", `{"q": "` + strings.Repeat("x", 9<<20) + `"}`, 413, "send less"},
	} {
		resp, b := f.post("/api/search", tc.body)
		if resp.StatusCode != tc.want || !strings.Contains(string(b), tc.says) {
			t.Errorf("POST /api/search %s = %d %.200s, want %d saying %q", tc.name, resp.StatusCode, b, tc.want, tc.says)
		}
	}
	if resp, b := f.do("GET", "/api/search?q=", "", f.auth()); resp.StatusCode != 400 || !strings.Contains(string(b), "empty query") {
		t.Errorf("GET /api/search?q= = %d %s, want 400 saying the query is empty", resp.StatusCode, b)
	}
}

func TestPageAddresses(t *testing.T) {
	f := startFixture(t, "")
	cookie := map[string]string{"Cookie": "grit_token=" + f.token}
	for _, p := range []string{"/", "/search?q=get_adapter", "/file/requests/sessions.py", "/symbol/requests/sessions.py::Session.send?tab=edges"} {
		resp, b := f.do("GET", p, "", cookie)
		if resp.StatusCode != 200 || !strings.Contains(string(b), `src="/static/app.js"`) {
			t.Errorf("GET %s with the cookie = %d, want the page", p, resp.StatusCode)
		}
		if resp, _ := f.do("GET", p, "", nil); resp.StatusCode != 401 {
			t.Errorf("GET %s without the token = %d, want 401", p, resp.StatusCode)
		}
	}
	// A first visit adds the printed URL's token: the cookie is set and the
	// same address loads without it.
	for _, tc := range []struct{ in, want string }{
		{"/file/requests/sessions.py?token=" + f.token, "/file/requests/sessions.py"},
		{"/symbol/requests/sessions.py::Session.send?tab=edges&token=" + f.token, "/symbol/requests/sessions.py::Session.send?tab=edges"},
		{"/search?q=get+adapter&token=" + f.token, "/search?q=get+adapter"},
	} {
		resp, _ := f.do("GET", tc.in, "", nil)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != tc.want || len(resp.Cookies()) != 1 {
			t.Errorf("GET %s = %d Location %q cookies %d, want 303 to %s with the cookie", tc.in, resp.StatusCode, resp.Header.Get("Location"), len(resp.Cookies()), tc.want)
		}
	}
	if resp, _ := f.do("GET", "/file/x.py?token=wrong", "", nil); resp.StatusCode != 401 {
		t.Errorf("a deep link with a wrong token = %d, want 401", resp.StatusCode)
	}
	// Only page addresses exchange: nothing redirects off the server.
	resp, _ := f.do("GET", "//evil.example/?token="+f.token, "", nil)
	if loc := resp.Header.Get("Location"); strings.Contains(loc, "evil") {
		t.Errorf("GET //evil.example/?token= redirects to %q", loc)
	}
}

// TestRemoteHosts: bound to every interface with a long token, the server
// answers to this machine's names and --allow-host names, not to others;
// bound to loopback it stays strict; short tokens and bad names are refused.
func TestRemoteHosts(t *testing.T) {
	x := app.NewExplorer(explore.Options{CacheDir: t.TempDir()})
	defer x.Close()
	token := strings.Repeat("ab", 16)
	s, err := web.New(web.ExploreBackend(x), web.Options{Addr: "0.0.0.0:0", Token: token, AllowHosts: []string{"DevBox.Example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := fmt.Sprint(s.Port())
	hostname, _ := os.Hostname()
	ip := ""
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() {
			ip = n.IP.String()
			break
		}
	}
	get := func(s *web.Server, host string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/status", nil)
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec
	}
	cases := []struct {
		name, host string
		want       int
	}{
		{"host name", hostname + ":" + port, 200},
		{"allowed name", "devbox.example.com:" + port, 200},
		{"loopback", "127.0.0.1:" + port, 200},
		{"other name", "evil.example:" + port, 403},
		{"wrong port", hostname + ":1", 403},
	}
	if ip != "" {
		cases = append(cases, struct {
			name, host string
			want       int
		}{"interface address", net.JoinHostPort(ip, port), 200})
	}
	for _, tc := range cases {
		if rec := get(s, tc.host); rec.Code != tc.want {
			t.Errorf("%s: Host %q = %d %s, want %d", tc.name, tc.host, rec.Code, rec.Body, tc.want)
		}
	}
	if rec := get(s, "evil.example:"+port); !strings.Contains(rec.Body.String(), "--allow-host evil.example") {
		t.Errorf("a refused host is told %q, want how to allow it", rec.Body)
	}
	if u := s.RemoteURL(); !strings.Contains(u, hostname+":"+port) || !strings.Contains(u, "token="+token) {
		t.Errorf("RemoteURL() = %q, want this machine's name with the token", u)
	}

	local, err := web.New(web.ExploreBackend(x), web.Options{Addr: "127.0.0.1:0", Token: token})
	if err != nil {
		t.Fatal(err)
	}
	lln, err := local.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer lln.Close()
	if rec := get(local, hostname+":"+fmt.Sprint(local.Port())); hostname != "localhost" && rec.Code != 403 {
		t.Errorf("loopback bind: Host %s = %d, want 403", hostname, rec.Code)
	}
	if local.RemoteURL() != "" {
		t.Errorf("loopback bind has a RemoteURL %q", local.RemoteURL())
	}

	for _, tc := range []struct {
		opts web.Options
		says string
	}{
		{web.Options{Addr: "0.0.0.0:0", Token: "short"}, "at least 32"},
		{web.Options{Addr: "0.0.0.0:0", Token: token, AllowHosts: []string{"http://devbox:8080"}}, "without scheme or port"},
		{web.Options{Addr: "0.0.0.0:0", Token: token, AllowHosts: []string{"devbox:8080"}}, "without scheme or port"},
	} {
		if _, err := web.New(web.ExploreBackend(x), tc.opts); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("web.New(%+v) = %v, want an error saying %q", tc.opts, err, tc.says)
		}
	}
}
