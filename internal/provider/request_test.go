package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// wireRequest is a Request exercising every part of the translation: a
// system prompt, tools (one without a description or schema, one with
// extra schema keywords), temperature, max_tokens, an empty text block,
// tool calls with and without input, tool results (empty, failed), an
// image after a tool result, and an assistant turn left empty.
func wireRequest() *Request {
	temp := 0.25
	return &Request{
		System: "You are Grit.",
		Tools: append(append([]ToolSpec(nil), testTools...),
			ToolSpec{Name: "Noop"},
			ToolSpec{Name: "Grep", Description: "Search.", InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"pattern":{"type":"string","description":"regexp"}},"required":["pattern"],"additionalProperties":false}`)}),
		MaxTokens:   2048,
		Temperature: &temp,
		Messages: []Message{
			{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "Branch is main."}, {Type: BlockText}, {Type: BlockText, Text: "Look at shot.png & calc.py <now>."}}},
			{Role: RoleAssistant, Content: []Block{
				{Type: BlockText, Text: "Reading both."},
				{Type: BlockToolUse, ID: "toolu_1", Name: "Read", Input: json.RawMessage(`{"file_path": "shot.png"}`)},
				{Type: BlockToolUse, ID: "toolu_2", Name: "Noop"},
			}},
			{Role: RoleUser, Content: []Block{
				{Type: BlockToolResult, ToolUseID: "toolu_1", Content: "Image shot.png (1x1 png)."},
				{Type: BlockImage, MediaType: "image/png", Data: "iVBORw0KGgo="},
				{Type: BlockToolResult, ToolUseID: "toolu_2", IsError: true},
				{Type: BlockText, Text: "Also check the tests."},
			}},
			{Role: RoleAssistant, Content: []Block{{Type: BlockText}}},
			{Role: RoleAssistant, Content: []Block{{Type: BlockToolUse, ID: "toolu_3", Name: "Bash", Input: json.RawMessage(`{"command":"pytest -x"}`)}}},
			{Role: RoleUser, Content: []Block{{Type: BlockToolResult, ToolUseID: "toolu_3", Content: "1 failed", IsError: true}}},
		},
	}
}

// edgeRequest holds the corner cases of the translation: temperature 0,
// schemas that are empty, null or odd, a tool result with no content, a
// user turn of only an image, and cache breakpoints without tools.
func edgeRequest() *Request {
	zero := 0.0
	return &Request{
		System:      "S",
		CacheSystem: true,
		MaxTokens:   -1,
		Temperature: &zero,
		Tools: []ToolSpec{
			{Name: "Empty", Description: "no keywords", InputSchema: json.RawMessage(`{}`)},
			{Name: "Null", InputSchema: json.RawMessage(`null`)},
			{Name: "Odd", InputSchema: json.RawMessage(`{"type":"array","required":[],"properties":null,"items":{"type":"string"}}`)},
			{Name: "Mixed", InputSchema: json.RawMessage(`{"properties":{"a":{}},"required":["a",1]}`)},
		},
		Messages: []Message{
			{Role: RoleUser, Content: []Block{{Type: BlockImage, MediaType: "image/jpeg", Data: "/9j/"}}},
			{Role: RoleAssistant, Content: []Block{{Type: BlockToolUse, ID: "c1", Name: "Empty", Input: json.RawMessage(`{}`)}}},
			{Role: RoleUser, Content: []Block{{Type: BlockToolResult, ToolUseID: "c1"}}},
			{Role: RoleAssistant, Content: []Block{{Type: BlockText, Text: "Done."}}},
		},
	}
}

// requestCase is one request and the endpoint it goes to.
type requestCase struct {
	name string
	send func(t *testing.T, srv *replayServer, req *Request) error
	req  *Request
	env  map[string]string // environment for the case
}

func requestCases(t *testing.T) []requestCase {
	anthropicText := loadRecording(t, "anthropic").http(t, "text")
	openaiText := loadRecording(t, "openai").http(t, "text", "FINISH_REASON", "stop")
	anthropic := func(t *testing.T, srv *replayServer, req *Request) error {
		srv.replies = append(srv.replies, anthropicText)
		p, _ := newTestAnthropic(t, srv)
		_, err := p.Send(context.Background(), req, nil)
		return err
	}
	openai := func(official bool) func(t *testing.T, srv *replayServer, req *Request) error {
		return func(t *testing.T, srv *replayServer, req *Request) error {
			srv.replies = append(srv.replies, openaiText)
			base := "" // the replay server: a compatible server
			if official {
				base = "https://api.openai.com/v1" // served by the replay server
			}
			p, _ := newTestOpenAI(t, srv, base)
			_, err := p.Send(context.Background(), req, nil)
			return err
		}
	}
	// noKey is a provider built with no API key in Options: the
	// environment's, if any, or none, as for a local compatible server.
	noKey := func(spec, base string, r reply) func(t *testing.T, srv *replayServer, req *Request) error {
		return func(t *testing.T, srv *replayServer, req *Request) error {
			srv.replies = append(srv.replies, r)
			p, err := New(spec, Options{BaseURL: srv.URL + base, MaxRetries: -1})
			if err != nil {
				return err
			}
			_, err = p.Send(context.Background(), req, nil)
			return err
		}
	}
	cached := wireRequest()
	cached.CacheSystem = true
	other := wireRequest()
	other.Model = "claude-haiku-4-5"
	return []requestCase{
		{"anthropic.minimal", anthropic, userSays("hi"), nil},
		{"anthropic.full", anthropic, wireRequest(), nil},
		{"anthropic.cached", anthropic, cached, nil},
		{"anthropic.model", anthropic, other, nil},
		{"openai.minimal", openai(false), userSays("hi"), nil},
		{"openai.official", openai(true), wireRequest(), nil},
		{"openai.compatible", openai(false), wireRequest(), nil},
		{"anthropic.edges", anthropic, edgeRequest(), nil},
		{"openai.edges", openai(false), edgeRequest(), nil},
		{"anthropic.nokey", noKey("anthropic:claude-sonnet-4-5", "", anthropicText), userSays("hi"), map[string]string{"ANTHROPIC_API_KEY": ""}},
		{"openai.nokey", noKey("openai:qwen3-coder", "/v1", openaiText), userSays("hi"), map[string]string{"OPENAI_API_KEY": ""}},
		{"openai.org", openai(true), userSays("hi"), map[string]string{"OPENAI_ORG_ID": "org-1", "OPENAI_PROJECT_ID": "proj_1", "OPENAI_CUSTOM_HEADERS": "X-Title: grit\nHTTP-Referer:  https://grit.dev "}},
		{"anthropic.prefix", noKey("anthropic:claude-sonnet-4-5", "/proxy", anthropicText), userSays("hi"), map[string]string{"ANTHROPIC_API_KEY": "from-env"}},
		{"openai.slash", noKey("openai:qwen3-coder", "/v1/", openaiText), userSays("hi"), map[string]string{"OPENAI_API_KEY": "from-env"}},
	}
}

// wireHeaders are the request headers that belong to the wire format (not
// to the client library or the transport).
var wireHeaders = []string{"Accept", "Anthropic-Version", "Authorization", "Content-Type", "Openai-Organization", "Openai-Project", "X-Api-Key", "X-Title", "Http-Referer"}

// TestRequestBodies pins the exact request bodies and headers sent for
// representative requests (testdata/requests.txtar, recorded from what the
// official SDKs sent before the providers spoke HTTP themselves). Run with
// -update to rewrite it after a deliberate change.
func TestRequestBodies(t *testing.T) {
	golden := filepath.Join("testdata", "requests.txtar")
	ar, err := txtar.ParseFile(golden)
	if err != nil && !*update {
		t.Fatal(err)
	}
	want := map[string]string{}
	if ar != nil {
		for _, f := range ar.Files {
			want[f.Name] = string(f.Data)
		}
	}
	got := &txtar.Archive{Comment: []byte("Request bodies and headers the providers send for the Requests of\nrequest_test.go (recorded from the official SDKs' output). Each NAME.json\nis a body as sent, NAME.headers the wire-format headers.\n")}
	if ar != nil {
		got.Comment = ar.Comment
	}
	for _, tc := range requestCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			srv := newReplayServer(t)
			if err := tc.send(t, srv, tc.req); err != nil {
				t.Fatal(err)
			}
			reqs := srv.got()
			if len(reqs) != 1 {
				t.Fatalf("requests = %d, want 1", len(reqs))
			}
			var indented bytes.Buffer
			if err := json.Indent(&indented, reqs[0].Body, "", "  "); err != nil {
				t.Fatalf("request body is not JSON: %v\n%s", err, reqs[0].Body)
			}
			body := indented.String() + "\n"
			headers := requestLine(reqs[0]) + headerLines(reqs[0].Header)
			got.Files = append(got.Files, txtar.File{Name: tc.name + ".json", Data: []byte(body)}, txtar.File{Name: tc.name + ".headers", Data: []byte(headers)})
			if *update {
				return
			}
			// Compared as JSON values: the SDKs wrote schema keywords in
			// map order, so no byte order was ever stable.
			if d := diffJSON(decodeJSON(t, want[tc.name+".json"]), decodeJSON(t, body)); d != "" {
				t.Errorf("request body (-want +got):\n%s", d)
			}
			if d := cmp.Diff(want[tc.name+".headers"], headers); d != "" {
				t.Errorf("request headers (-want +got):\n%s", d)
			}
		})
	}
	for _, tc := range []struct {
		name, spec, base string
		reply            reply
	}{
		{"anthropic.ping", "anthropic:claude-sonnet-4-5", "", loadRecording(t, "anthropic").http(t, "models")},
		{"openai.ping", "openai:gpt-4.1-mini", "/v1", loadRecording(t, "openai").http(t, "models")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newReplayServer(t, tc.reply)
			if err := Check(context.Background(), tc.spec, Options{BaseURL: srv.URL + tc.base, APIKey: "test-key", MaxRetries: -1}); err != nil {
				t.Fatal(err)
			}
			r := srv.got()[0]
			headers := requestLine(r) + headerLines(r.Header)
			got.Files = append(got.Files, txtar.File{Name: tc.name + ".headers", Data: []byte(headers)})
			if d := cmp.Diff(want[tc.name+".headers"], headers); !*update && d != "" {
				t.Errorf("request headers (-want +got):\n%s", d)
			}
		})
	}
	if *update {
		if err := os.WriteFile(golden, txtar.Format(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v in %q (run go test -run TestRequestBodies -update)", err, s)
	}
	return v
}

func requestLine(r received) string {
	if r.Query != "" {
		return fmt.Sprintf("%s %s?%s\n", r.Method, r.Path, r.Query)
	}
	return fmt.Sprintf("%s %s\n", r.Method, r.Path)
}

func headerLines(h http.Header) string {
	var lines []string
	for _, k := range wireHeaders {
		for _, v := range h.Values(k) {
			lines = append(lines, k+": "+v)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}
