package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/grit-dev/grit/internal/provider"
)

// Transcript is a loaded session.
type Transcript struct {
	Records []Record
	// Skipped counts lines that were not valid records (torn by a crash,
	// malformed, or from a newer Grit); Warnings says which and why.
	Skipped  int
	Warnings []string
}

// Header returns the session header record, if any.
func (t *Transcript) Header() (Record, bool) {
	for _, r := range t.Records {
		if r.Type == TypeSession {
			return r, true
		}
	}
	return Record{}, false
}

// Messages replays the conversation: messages in order, a compaction
// replacing everything before it.
func (t *Transcript) Messages() []provider.Message {
	var out []provider.Message
	for _, r := range t.Records {
		switch r.Type {
		case TypeMessage:
			if r.Message != nil {
				out = append(out, *r.Message)
			}
		case TypeCompact:
			out = append([]provider.Message(nil), r.Messages...)
		}
	}
	return out
}

// Usage totals the usage records.
func (t *Transcript) Usage() provider.Usage {
	var u provider.Usage
	for _, r := range t.Records {
		if r.Type == TypeUsage && r.Usage != nil {
			u.Add(*r.Usage)
		}
	}
	return u
}

// Warning summarises the skipped lines in one sentence, or "" when none.
func (t *Transcript) Warning() string {
	if t.Skipped == 0 {
		return ""
	}
	return fmt.Sprintf("%d line(s) of the transcript were torn or malformed and were skipped; the other %d records were loaded", t.Skipped, len(t.Records))
}

// LoadFile reads a transcript file.
func LoadFile(path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	defer f.Close()
	return loadFrom(f)
}

func loadFrom(r io.ReaderAt) (*Transcript, error) {
	var data []byte
	buf := make([]byte, 64<<10)
	for off := int64(0); ; {
		n, err := r.ReadAt(buf, off)
		data = append(data, buf[:n]...)
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("load session: %w", err)
		}
	}
	return Load(data), nil
}

// Load parses a transcript. It never fails: every valid record is kept, and
// each line that is not one is skipped and reported in Warnings.
func Load(data []byte) *Transcript {
	t := &Transcript{}
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, err := parseRecord(line)
		if err != nil {
			t.Skipped++
			t.Warnings = append(t.Warnings, fmt.Sprintf("line %d skipped: %v", lineNo, err))
			continue
		}
		t.Records = append(t.Records, rec)
	}
	return t
}

// parseRecord decodes one line; it is the single definition of a valid record.
func parseRecord(line []byte) (Record, error) {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		return Record{}, fmt.Errorf("torn or malformed record (%d bytes): %w", len(line), err)
	}
	switch {
	case rec.V == 0 || rec.Type == "":
		return Record{}, fmt.Errorf("not a transcript record (no \"v\" or \"type\")")
	case rec.V > Version:
		return Record{}, fmt.Errorf("record version %d is newer than this grit reads (%d)", rec.V, Version)
	case rec.Type == TypeMessage && rec.Message == nil:
		return Record{}, fmt.Errorf("message record without a message")
	}
	return rec, nil
}
