package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grit-dev/grit/internal/provider"
)

func userMsg(text string) provider.Message {
	return provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: text}}}
}

func newTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := NewStore(t.TempDir(), "/home/ada/src/grit")
	if err != nil {
		t.Fatal(err)
	}
	s.Redactor = NewRedactor(nil)
	return s
}

func TestProjectName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/home/ada/src/grit", "-home-ada-src-grit"},
		{"/home/u/my.repo", "-home-u-my-repo"},
		{"/tmp/é x", "-tmp---x"},
	}
	for _, tt := range tests {
		if got := ProjectName(tt.in); got != tt.want {
			t.Errorf("ProjectName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCreateAppendResume(t *testing.T) {
	st := newTestStore(t)
	if !strings.HasSuffix(st.Dir, filepath.Join("grit", "sessions", "-home-ada-src-grit")) {
		t.Errorf("store dir = %s, want .../grit/sessions/-work-main", st.Dir)
	}
	s, err := st.Create(Meta{Cwd: "/home/ada/src/grit", Model: "scripted:x"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []provider.Message{
		userMsg("hello"),
		{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockToolUse, ID: "t1", Name: "Read", Input: json.RawMessage(`{"file_path":"a"}`)}}},
		{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockToolResult, ToolUseID: "t1", Content: "1\tx"}}},
	}
	for _, m := range msgs {
		if err := s.AppendMessage(m, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendUsage("scripted:x", provider.Usage{InputTokens: 10, OutputTokens: 3}); err != nil {
		t.Fatal(err)
	}

	// A second opener is refused while the first holds the session.
	if _, _, err := st.Open(s.ID); !errors.Is(err, ErrLocked) {
		t.Fatalf("Open while held: error = %v, want ErrLocked", err)
	}
	fork, ftr, err := st.Fork(s.ID, Meta{Cwd: "/home/ada/src/grit"})
	if err != nil {
		t.Fatal(err)
	}
	if fork.ID == s.ID {
		t.Fatal("Fork kept the same ID")
	}
	if diff := cmp.Diff(msgs, ftr.Messages()); diff != "" {
		t.Errorf("forked messages (-want +got):\n%s", diff)
	}
	fork.Close()

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, tr, err := st.Open(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if diff := cmp.Diff(msgs, tr.Messages()); diff != "" {
		t.Errorf("resumed messages (-want +got):\n%s", diff)
	}
	if got := tr.Usage(); got != (provider.Usage{InputTokens: 10, OutputTokens: 3}) {
		t.Errorf("resumed usage = %+v", got)
	}
	h, ok := tr.Header()
	if !ok || h.SessionID != s.ID || h.Model != "scripted:x" {
		t.Errorf("header = %+v, want id %s", h, s.ID)
	}

	infos, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 {
		t.Fatalf("List() = %d sessions, want 2 (original and fork)", len(infos))
	}
	var orig Info
	for _, in := range infos {
		if in.ID == s.ID {
			orig = in
		}
	}
	if orig.FirstPrompt != "hello" || orig.Turns != 1 || orig.Messages != 3 {
		t.Errorf("List() info = %+v, want first prompt hello, 1 turn, 3 messages", orig)
	}
	latest, err := st.Latest()
	if err != nil || latest != infos[0].ID {
		t.Errorf("Latest() = %q, %v, want %q", latest, err, infos[0].ID)
	}
	if _, _, err := st.Open("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open(unknown) error = %v, want ErrNotFound", err)
	}
	if _, _, err := st.Open("../x"); err == nil {
		t.Error("Open(../x) = nil error, want invalid id")
	}
}

func TestAppendConcurrent(t *testing.T) {
	st := newTestStore(t)
	s, err := st.Create(Meta{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if err := s.AppendMessage(userMsg(strings.Repeat("x", i*100)), false); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s.Close()
	tr, err := st.Read(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped != 0 || len(tr.Messages()) != 20 {
		t.Errorf("after 20 concurrent appends: %d messages, %d skipped; want 20, 0", len(tr.Messages()), tr.Skipped)
	}
}

// TestLoadTornAtEveryOffset simulates kill -9 mid-append at every byte
// offset of the last record: all complete records survive, the torn line is
// reported.
func TestLoadTornAtEveryOffset(t *testing.T) {
	data, err := os.ReadFile("testdata/v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(bytes.TrimRight(data, "\n"), []byte("\n"))
	head := bytes.Join(lines[:len(lines)-1], nil)
	last := lines[len(lines)-1]
	full := Load(head)
	for cut := 1; cut < len(last); cut++ {
		tr := Load(append(append([]byte(nil), head...), last[:cut]...))
		if len(tr.Records) != len(full.Records) || tr.Skipped != 1 {
			t.Fatalf("cut at %d: %d records, %d skipped; want %d and 1", cut, len(tr.Records), tr.Skipped, len(full.Records))
		}
	}
}

func TestLoadSkipsBadLinesAndKeepsTheRest(t *testing.T) {
	good := func(text string) string {
		b, _ := json.Marshal(Record{V: 1, Type: TypeMessage, Message: &provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: "text", Text: text}}}})
		return string(b)
	}
	input := strings.Join([]string{
		good("one"),
		`{"v":1,"type":"message","message":{"role":"user","con`, // torn in the middle (later appended after)
		good("two"),
		"\x00\x00\x00\x00",         // NUL padding from a crash
		`{"v":2,"type":"message"}`, // a newer grit
		`[1,2,3]`,
		``,
		good("three"),
		`{"v":1,"type":"message","message":{"role":"user","content":[{"type":"text","text":"four`, // torn last line
	}, "\n")
	tr := Load([]byte(input))
	var got []string
	for _, m := range tr.Messages() {
		got = append(got, m.Text())
	}
	if diff := cmp.Diff([]string{"one", "two", "three"}, got); diff != "" {
		t.Errorf("Load kept (-want +got):\n%s", diff)
	}
	if tr.Skipped != 5 || len(tr.Warnings) != 5 {
		t.Errorf("Load skipped %d with %d warnings, want 5 and 5: %q", tr.Skipped, len(tr.Warnings), tr.Warnings)
	}
	if !strings.Contains(tr.Warnings[0], "line 2") || !strings.Contains(tr.Warnings[2], "newer") {
		t.Errorf("warnings = %q, want line numbers and reasons", tr.Warnings)
	}
	if w := tr.Warning(); !strings.Contains(w, "5 line(s)") {
		t.Errorf("Warning() = %q, want the count", w)
	}
}

// TestLoadFixtureV1 keeps old transcripts loadable in every release.
func TestLoadFixtureV1(t *testing.T) {
	tr, err := LoadFile("testdata/v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped != 0 || len(tr.Records) != 7 {
		t.Fatalf("fixture: %d records, %d skipped, want 7, 0: %v", len(tr.Records), tr.Skipped, tr.Warnings)
	}
	msgs := tr.Messages()
	if len(msgs) != 4 || msgs[2].Content[0].ToolUseID != "toolu_1" || !tr.Records[5].Interrupted {
		t.Errorf("fixture messages = %+v", msgs)
	}
	if u := tr.Usage(); u != (provider.Usage{InputTokens: 1900, OutputTokens: 45, CacheReadTokens: 800}) {
		t.Errorf("fixture usage = %+v", u)
	}
	info := summarize(tr)
	if info.FirstPrompt != "Fix the failing test" || info.Turns != 1 || info.Model != "ollama:qwen2.5-coder:7b" {
		t.Errorf("fixture summary = %+v", info)
	}
}

func TestCompactRecordReplacesHistory(t *testing.T) {
	tr := Load([]byte(strings.Join([]string{
		`{"v":1,"type":"message","ts":"2026-01-01T00:00:00Z","message":{"role":"user","content":[{"type":"text","text":"old"}]}}`,
		`{"v":1,"type":"compact","ts":"2026-01-01T00:00:01Z","trigger":"auto","messages":[{"role":"user","content":[{"type":"text","text":"summary"}]}]}`,
		`{"v":1,"type":"message","ts":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"text","text":"new"}]}}`,
	}, "\n")))
	var got []string
	for _, m := range tr.Messages() {
		got = append(got, m.Text())
	}
	if diff := cmp.Diff([]string{"summary", "new"}, got); diff != "" {
		t.Errorf("Messages() after compact (-want +got):\n%s", diff)
	}
}

func TestRedact(t *testing.T) {
	r := NewRedactor([]string{
		"ANTHROPIC_API_KEY=my-anthropic-secret-value",
		"GH_TOKEN=quote\"and\\slash",
		"SHORT_KEY=abc",
		"HOME=/home/user-with-long-path",
	})
	tests := []struct{ name, in, want string }{
		{"openai key", `{"t":"key sk-proj-abcdefghijklmnopqrstuvwx end"}`, `{"t":"key [REDACTED] end"}`},
		{"anthropic key", `{"t":"sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA"}`, `{"t":"[REDACTED]"}`},
		{"github", `{"t":"ghp_abcdefghijklmnopqrstuvwxyz0123456789"}`, `{"t":"[REDACTED]"}`},
		{"aws", `{"t":"AKIAIOSFODNN7EXAMPLE"}`, `{"t":"[REDACTED]"}`},
		{"env value", `{"t":"echo my-anthropic-secret-value"}`, `{"t":"echo [REDACTED]"}`},
		{"env value escaped", `{"t":"x quote\"and\\slash y"}`, `{"t":"x [REDACTED] y"}`},
		{"short values kept", `{"t":"abc"}`, `{"t":"abc"}`},
		{"non-secret env kept", `{"t":"/home/user-with-long-path"}`, `{"t":"/home/user-with-long-path"}`},
		{"pem", `{"t":"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----"}`, `{"t":"[REDACTED]"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(r.Redact([]byte(tt.in)))
			if got != tt.want {
				t.Errorf("Redact(%s) = %s, want %s", tt.in, got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("Redact(%s) = %s is not valid JSON", tt.in, got)
			}
		})
	}
}

func TestAppendRedactsBeforeWriting(t *testing.T) {
	st := newTestStore(t)
	st.Redactor = NewRedactor([]string{"OPENAI_API_KEY=canary-0123456789"})
	s, err := st.Create(Meta{})
	if err != nil {
		t.Fatal(err)
	}
	s.AppendMessage(provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{
		{Type: provider.BlockToolUse, ID: "t", Name: "Bash", Input: json.RawMessage(`{"command":"curl -H 'x: canary-0123456789'"}`)}}}, false)
	s.Close()
	data, _ := os.ReadFile(s.Path)
	if bytes.Contains(data, []byte("canary-0123456789")) {
		t.Errorf("transcript contains the env canary:\n%s", data)
	}
	if tr := Load(data); tr.Skipped != 0 {
		t.Errorf("redacted transcript has bad lines: %v", tr.Warnings)
	}
}

func FuzzLoad(f *testing.F) {
	seed, _ := os.ReadFile("testdata/v1.jsonl")
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("\x00\x00\n{\"v\":1,\"type\":\"x\"}\n{"))
	f.Add([]byte(`{"v":1,"type":"message","message":null}`))
	f.Add([]byte(`{"v":1,"type":"compact","messages":[{"role":"user","content":[]}]}` + "\n\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := Load(data)
		// The loaded records are exactly the valid lines, in order.
		var want int
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if _, err := parseRecord(line); err == nil {
				want++
			}
		}
		if len(tr.Records) != want {
			t.Errorf("Load kept %d records, want %d valid lines", len(tr.Records), want)
		}
		if tr.Skipped != len(tr.Warnings) {
			t.Errorf("Skipped = %d but %d warnings", tr.Skipped, len(tr.Warnings))
		}
		_ = tr.Messages()
		_ = tr.Usage()
		_ = summarize(tr)
	})
}

// Pipeline steps are kept with their data and never replayed as conversation.
func TestStepRecords(t *testing.T) {
	tr := Load([]byte(strings.Join([]string{
		`{"v":1,"type":"message","ts":"2026-01-01T00:00:00Z","message":{"role":"user","content":[{"type":"text","text":"task"}]}}`,
		`{"v":1,"type":"step","ts":"2026-01-01T00:00:01Z","step":{"name":"candidates","data":[{"qname":"add","score":1.5}]}}`,
	}, "\n")))
	if got := len(tr.Messages()); got != 1 {
		t.Errorf("Messages() has %d messages, want 1: a step is not a message", got)
	}
	var steps []string
	for _, r := range tr.Records {
		if r.Type == TypeStep && r.Step != nil {
			steps = append(steps, r.Step.Name+" "+string(r.Step.Data))
		}
	}
	if diff := cmp.Diff([]string{`candidates [{"qname":"add","score":1.5}]`}, steps); diff != "" {
		t.Errorf("step records (-want +got):\n%s", diff)
	}
}
