package provider

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
)

// Bounds on what an endpoint may send, so a hostile or broken server cannot
// exhaust memory.
const (
	// maxEventBytes bounds one server-sent event or NDJSON line (Ollama):
	// events carry a token or a few, the largest a tool call's arguments.
	maxEventBytes = 16 << 20
	// maxStreamBytes bounds a whole streamed reply: 128k output tokens,
	// one event each at about 250 bytes, is 32 MiB.
	maxStreamBytes = 128 << 20
	// maxErrorBytes bounds an error answer's body, which we only quote.
	maxErrorBytes = 64 << 10
	// maxListBytes bounds a model list (Ping).
	maxListBytes = 8 << 20
)

// errTooLarge reports a reply past one of the bounds above.
var errTooLarge = errors.New("reply too large")

// sseEvent is one server-sent event: the event field and the data lines,
// joined by "\n".
type sseEvent struct {
	name string
	data []byte
}

// sseReader reads server-sent events (the text/event-stream format of the
// Anthropic and OpenAI streaming APIs) from a reply body.
type sseReader struct {
	sc *bufio.Scanner
}

func newSSEReader(body io.Reader) *sseReader {
	sc := bufio.NewScanner(newLimitReader(body, maxStreamBytes))
	sc.Buffer(make([]byte, 0, 64<<10), maxEventBytes)
	return &sseReader{sc: sc}
}

// next returns the next event with data, or io.EOF at the end of the
// stream. An event cut off by the end of the stream is not delivered, as
// the format says.
func (r *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 { // a blank line dispatches the event
			if len(ev.data) > 1 { // more than one empty data line's "\n"
				ev.data = ev.data[:len(ev.data)-1] // the last "\n"
				return ev, nil
			}
			ev = sseEvent{}
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.name = string(value)
		case "data":
			if len(ev.data)+len(value) >= maxEventBytes {
				return sseEvent{}, fmt.Errorf("event of more than %d bytes: %w", maxEventBytes, errTooLarge)
			}
			ev.data = append(append(ev.data, value...), '\n')
		}
		// "" (a comment), id, retry and unknown fields are ignored.
	}
	switch err := r.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return sseEvent{}, fmt.Errorf("line of more than %d bytes: %w", maxEventBytes, errTooLarge)
	case err != nil:
		return sseEvent{}, err
	}
	return sseEvent{}, io.EOF
}

// notEventStream describes a reply that held no event and does not say it
// is an event stream (an HTML error page from a proxy, say), or "".
func notEventStream(h http.Header) string {
	ct := h.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "text/event-stream" {
		return ""
	}
	if ct == "" {
		ct = "no Content-Type"
	}
	return fmt.Sprintf(" (the reply is %s, not an event stream)", ct)
}

// limitReader reads at most max bytes from r, then fails with errTooLarge.
type limitReader struct {
	r    io.Reader
	max  int64
	read int64
}

func newLimitReader(r io.Reader, max int64) *limitReader { return &limitReader{r: r, max: max} }

func (l *limitReader) Read(p []byte) (int, error) {
	if l.read >= l.max {
		return 0, fmt.Errorf("more than %d bytes: %w", l.max, errTooLarge)
	}
	if int64(len(p)) > l.max-l.read {
		p = p[:l.max-l.read]
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	return n, err
}
