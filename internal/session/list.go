package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/provider"
)

// Info summarises one session for listings.
type Info struct {
	ID          string    `json:"session_id"`
	Path        string    `json:"path"`
	FirstPrompt string    `json:"first_prompt"`
	Turns       int       `json:"turns"` // user prompts
	Messages    int       `json:"messages"`
	Model       string    `json:"model,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
	ForkedFrom  string    `json:"forked_from,omitempty"`
	Skipped     int       `json:"skipped_lines,omitempty"`
}

// maxPromptPreview bounds FirstPrompt, in runes.
const maxPromptPreview = 100

// List lists the sessions in a project's session directory, newest first. A
// missing directory is an empty list.
func List(dir string) ([]Info, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []Info
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		path := filepath.Join(dir, name)
		tr, err := LoadFile(path)
		if err != nil {
			continue // vanished or unreadable: not listable
		}
		info := summarize(tr)
		info.ID = strings.TrimSuffix(name, ".jsonl")
		info.Path = path
		if st, err := e.Info(); err == nil && info.Updated.IsZero() {
			info.Updated = st.ModTime().UTC()
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

func summarize(tr *Transcript) Info {
	var info Info
	info.Skipped = tr.Skipped
	for _, r := range tr.Records {
		if !r.TS.IsZero() && r.TS.After(info.Updated) {
			info.Updated = r.TS
		}
		switch r.Type {
		case TypeSession:
			info.Created = r.TS
			info.Model = r.Model
			info.ForkedFrom = r.ForkedFrom
		case TypeMessage:
			info.Messages++
			if !r.Meta && IsPrompt(*r.Message) {
				info.Turns++
				if info.FirstPrompt == "" {
					info.FirstPrompt = preview(r.Message.Text())
				}
			}
		}
	}
	return info
}

// IsPrompt reports whether m is a user's prompt (not tool results).
func IsPrompt(m provider.Message) bool {
	if m.Role != provider.RoleUser {
		return false
	}
	text := false
	for _, b := range m.Content {
		if b.Type == provider.BlockToolResult {
			return false
		}
		if b.Type == provider.BlockText {
			text = true
		}
	}
	return text
}

func preview(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > maxPromptPreview {
		return string(r[:maxPromptPreview-1]) + "…"
	}
	return s
}
