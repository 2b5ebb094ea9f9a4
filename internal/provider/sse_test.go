package provider

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSSEReader(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream string
		want   []string // "name|data" of each event
	}{
		{"named events", "event: a\ndata: {\"x\":1}\n\nevent: b\ndata: 2\n\n", []string{"a|{\"x\":1}", "b|2"}},
		{"unnamed data", "data: {}\n\ndata: [DONE]\n\n", []string{"|{}", "|[DONE]"}},
		{"lines joined", "data: one\ndata: two\n\n", []string{"|one\ntwo"}},
		{"no space after the colon", "event:e\ndata:x\n\n", []string{"e|x"}},
		{"only the first space dropped", "data:  x\n\n", []string{"| x"}},
		{"CRLF", "event: e\r\ndata: x\r\n\r\n", []string{"e|x"}},
		{"comments, id and retry ignored", ": keep-alive\nid: 7\nretry: 10\ndata: x\n\n", []string{"|x"}},
		{"blank lines between events", "\n\n\ndata: x\n\n\n", []string{"|x"}},
		{"event without data skipped", "event: ping\n\ndata: x\n\n", []string{"|x"}},
		{"empty data skipped", "data:\n\ndata: x\n\n", []string{"|x"}},
		{"name does not leak into the next event", "event: a\n\ndata: x\n\n", []string{"|x"}},
		{"event cut off at the end not delivered", "data: x\n\ndata: half", []string{"|x"}},
		{"HTML", "<html><body>502 Bad Gateway</body></html>", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newSSEReader(strings.NewReader(tc.stream))
			var got []string
			for {
				ev, err := r.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("next: %v", err)
				}
				got = append(got, ev.name+"|"+string(ev.data))
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("events of %q (-want +got):\n%s", tc.stream, d)
			}
		})
	}
}

// A hostile server cannot make the reader buffer without bound: a line, an
// event of many lines and a whole stream each have a ceiling.
func TestSSEReaderBounds(t *testing.T) {
	long := strings.Repeat("x", maxEventBytes)
	for _, tc := range []struct {
		name   string
		stream io.Reader
	}{
		{"one long line", strings.NewReader("data: " + long + "\n\n")},
		{"an event of many lines", strings.NewReader(strings.Repeat("data: "+long[:1<<20]+"\n", 17) + "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newSSEReader(tc.stream).next()
			if !errors.Is(err, errTooLarge) {
				t.Errorf("next: %v, want errTooLarge", err)
			}
		})
	}
	t.Run("the whole stream", func(t *testing.T) {
		r := newLimitReader(strings.NewReader("data: x\n\ndata: y\n\n"), 12)
		data, err := io.ReadAll(r)
		if !errors.Is(err, errTooLarge) || string(data) != "data: x\n\ndat" {
			t.Errorf("ReadAll = %q, %v; want the first 12 bytes and errTooLarge", data, err)
		}
		r = newLimitReader(strings.NewReader("data: x\n\n"), 12)
		if data, err := io.ReadAll(r); err != nil || string(data) != "data: x\n\n" {
			t.Errorf("ReadAll under the bound = %q, %v", data, err)
		}
	})
}

// TestHostileStreams: a reply line past maxEventBytes ends the call with a
// clear error, for each streaming provider, and is not retried.
func TestHostileStreams(t *testing.T) {
	huge := reply{status: 200, header: http.Header{"Content-Type": {"text/event-stream"}},
		body: []byte("event: message_start\ndata: \"" + strings.Repeat("x", maxEventBytes) + "\"\n\n")}
	t.Run("anthropic", func(t *testing.T) {
		srv := newReplayServer(t, huge)
		p, waits := newTestAnthropic(t, srv)
		resp, err := p.Send(context.Background(), userSays("hi"), nil)
		checkSendError(t, resp, err, *waits, errTooLarge, []string{"anthropic: reading the reply", "line of more than"}, "")
	})
	t.Run("openai", func(t *testing.T) {
		srv := newReplayServer(t, huge)
		p, waits := newTestOpenAI(t, srv, "")
		resp, err := p.Send(context.Background(), userSays("hi"), nil)
		checkSendError(t, resp, err, *waits, errTooLarge, []string{"openai: reading the reply", "line of more than"}, "")
	})
}
