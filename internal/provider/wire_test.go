package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// recording holds a provider's recorded exchanges: raw HTTP responses
// (NAME.http) and expected request bodies (NAME.json), from
// testdata/PROVIDER.txtar.
type recording map[string][]byte

func loadRecording(t *testing.T, name string) recording {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	rec := recording{}
	for _, f := range ar.Files {
		rec[f.Name] = f.Data
	}
	return rec
}

// reply is one canned answer of the replay server.
type reply struct {
	status int
	header http.Header
	body   []byte
	// hold, if set, makes the server send body, flush, then wait for the
	// client to go away: a stream interrupted by the client.
	hold bool
}

// http parses recorded response NAME.http, replacing each old with new.
func (r recording) http(t *testing.T, name string, oldnew ...string) reply {
	t.Helper()
	raw, ok := r[name+".http"]
	if !ok {
		t.Fatalf("no %s.http in the recording", name)
	}
	if len(oldnew) > 0 {
		raw = []byte(strings.NewReplacer(oldnew...).Replace(string(raw)))
	}
	res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	if err != nil {
		t.Fatalf("%s.http: %v", name, err)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s.http: %v", name, err)
	}
	return reply{status: res.StatusCode, header: res.Header, body: body}
}

// json returns recorded request body NAME.json, decoded.
func (r recording) json(t *testing.T, name string) any {
	t.Helper()
	raw, ok := r[name+".json"]
	if !ok {
		t.Fatalf("no %s.json in the recording", name)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return v
}

// received is one request the replay server got.
type received struct {
	Method, Path string
	Query        string // the raw query, without "?"
	Header       http.Header
	Body         []byte
}

// decoded returns the request body as generic JSON.
func (r received) decoded(t *testing.T) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("request %s %s: body is not JSON: %v\n%s", r.Method, r.Path, err, r.Body)
	}
	return v
}

// replayServer answers requests on 127.0.0.1 with canned replies, in order,
// and records what it received. routes, if set, answers a path with a fixed
// reply every time instead (/api/show, /api/tags).
type replayServer struct {
	*httptest.Server
	t *testing.T

	mu       sync.Mutex
	replies  []reply
	routes   map[string]reply
	requests []received
}

func newReplayServer(t *testing.T, replies ...reply) *replayServer {
	s := &replayServer{t: t, replies: replies, routes: map[string]reply{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *replayServer) route(path string, r reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes[path] = r
}

func (s *replayServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, received{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
	rep, ok := s.routes[r.URL.Path]
	if !ok {
		if len(s.replies) == 0 {
			s.mu.Unlock()
			s.t.Errorf("unexpected request %s %s: no reply left", r.Method, r.URL.Path)
			http.Error(w, "no reply left", http.StatusTeapot)
			return
		}
		rep = s.replies[0]
		s.replies = s.replies[1:]
	}
	s.mu.Unlock()
	for k, vs := range rep.header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(rep.status)
	w.Write(rep.body)
	if rep.hold {
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute): // never in a passing test
		}
	}
}

// got returns the requests received so far.
func (s *replayServer) got() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.requests...)
}

// left reports the replies not yet used.
func (s *replayServer) left() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}

// recordSleeps replaces r's sleep so retries wait for nothing and the
// waits can be checked.
func recordSleeps(r *retrier) *[]time.Duration {
	var waits []time.Duration
	r.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	return &waits
}

// collect gathers streaming events.
type collect struct {
	mu     sync.Mutex
	events []Event
}

func (c *collect) on(ev Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, ev)
}

func (c *collect) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, ev := range c.events {
		if ev.Type == "text_delta" {
			b.WriteString(ev.Text)
		}
	}
	return b.String()
}

func (c *collect) types() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ts []string
	for _, ev := range c.events {
		ts = append(ts, ev.Type)
	}
	return ts
}

// readCalcTurns is the conversation of a tool round trip: the user asks,
// the model reads calc.py, the result comes back.
func readCalcTurns(toolID string) []Message {
	return []Message{
		{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "Why does test_add fail?"}}},
		{Role: RoleAssistant, Content: []Block{
			{Type: BlockText, Text: "I'll read the file."},
			{Type: BlockToolUse, ID: toolID, Name: "Read", Input: json.RawMessage(`{"file_path": "calc.py"}`)},
		}},
		{Role: RoleUser, Content: []Block{
			{Type: BlockToolResult, ToolUseID: toolID, Content: "def add(a, b):\n    return a - b\n"},
		}},
	}
}

var testTools = []ToolSpec{
	{Name: "Bash", Description: "Run a command.", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
	{Name: "Read", Description: "Read a file.", InputSchema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"],"additionalProperties":false}`)},
}

func userSays(text string) *Request {
	return &Request{Messages: []Message{{Role: RoleUser, Content: []Block{{Type: BlockText, Text: text}}}}}
}

// diffJSON compares generic JSON values.
func diffJSON(want, got any) string { return cmp.Diff(want, got) }

// checkSendError asserts a Send that must fail without retrying: err wraps
// wantErr (when set) and mentions each of wantMsg, and the partial response
// carries wantText (when set).
func checkSendError(t *testing.T, resp *Response, err error, waits []time.Duration, wantErr error, wantMsg []string, wantText string) {
	t.Helper()
	if err == nil || (wantErr != nil && !errors.Is(err, wantErr)) {
		t.Fatalf("Send: error %v, want %v", err, wantErr)
	}
	for _, s := range wantMsg {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("Send: error %q, want it to mention %q", err, s)
		}
	}
	if len(waits) != 0 {
		t.Errorf("Send retried (waits %v), want no retry", waits)
	}
	if wantText != "" && (resp == nil || resp.Message().Text() != wantText) {
		t.Errorf("Send: partial response %+v, want text %q", resp, wantText)
	}
}
