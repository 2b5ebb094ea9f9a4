package contextfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/grit-dev/grit/internal/span"
)

// Memory load caps: the first MemoryMaxLines lines or MemoryMaxBytes bytes,
// whichever comes first.
const (
	MemoryMaxLines = 200
	MemoryMaxBytes = 25 << 10
)

// Memory scopes.
const (
	MemoryProject = "project"
	MemoryUser    = "user"
)

// Memory is one MEMORY.md file: notes the agent keeps across sessions.
type Memory struct {
	Scope string // MemoryProject or MemoryUser
	Path  string // absolute
}

// ProjectMemory is the project's memory file, root/.grit/memory/MEMORY.md.
func ProjectMemory(root string) Memory {
	return Memory{Scope: MemoryProject, Path: filepath.Join(root, ".grit", "memory", "MEMORY.md")}
}

// UserMemory is the user's memory file, <user dir>/memory/MEMORY.md.
func UserMemory(userDir string) Memory {
	return Memory{Scope: MemoryUser, Path: filepath.Join(userDir, "memory", "MEMORY.md")}
}

// Memories returns the user's and the project's memory files for opts, in
// prompt order (user first, the project's more specific notes last).
func Memories(opts Options) ([]Memory, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	var out []Memory
	if o.UserDir != "" {
		out = append(out, UserMemory(o.UserDir))
	}
	return append(out, ProjectMemory(o.Root)), nil
}

// Read returns the whole file; a missing file is empty.
func (m Memory) Read() (string, error) {
	data, err := span.ReadFile(m.Path, 0)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read memory: %w", err)
	}
	return string(data), nil
}

// Write replaces the file's content atomically, creating its directory.
func (m Memory) Write(text string) error {
	if err := os.MkdirAll(filepath.Dir(m.Path), 0o755); err != nil {
		return fmt.Errorf("write memory: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(m.Path), ".MEMORY.md.*")
	if err != nil {
		return fmt.Errorf("write memory: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		return fmt.Errorf("write memory: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write memory: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write memory: %w", err)
	}
	if err := os.Rename(tmp.Name(), m.Path); err != nil {
		return fmt.Errorf("write memory: %w", err)
	}
	return nil
}

// Add appends one note as a Markdown list item. Several lines become one
// item; an empty note is an error.
func (m Memory) Add(note string) error {
	note = strings.Join(strings.Fields(note), " ")
	if note == "" {
		return fmt.Errorf("add memory: empty note")
	}
	text, err := m.Read()
	if err != nil {
		return err
	}
	if text == "" {
		text = "# Memory\n\n"
	} else if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return m.Write(text + "- " + note + "\n")
}

// Load returns the file for the prompt: up to MemoryMaxLines lines or
// MemoryMaxBytes bytes, whichever comes first, with a marker when cut.
func (m Memory) Load() (text string, cut bool, err error) {
	all, err := m.Read()
	if err != nil {
		return "", false, err
	}
	text, cut = capText(all, MemoryMaxLines, MemoryMaxBytes)
	if cut {
		text += fmt.Sprintf("\n[... memory cut: %s has %d lines, %d bytes; only the first %d lines or %d bytes are loaded. Use the Memory tool's view command to see the rest, and tidy it ...]",
			m.Path, strings.Count(all, "\n")+1, len(all), MemoryMaxLines, MemoryMaxBytes)
	}
	return text, cut, nil
}

// capText keeps the first maxLines lines of s, and at most maxBytes bytes
// (cut at a line end when there is one).
func capText(s string, maxLines, maxBytes int) (string, bool) {
	cut := false
	if n := nthLineEnd(s, maxLines); n >= 0 && n < len(s)-1 {
		s, cut = s[:n+1], true
	}
	if len(s) > maxBytes {
		t := s[:maxBytes]
		if i := strings.LastIndexByte(t, '\n'); i > 0 {
			t = t[:i+1]
		} else {
			t = cutUTF8(s, maxBytes)
		}
		s, cut = t, true
	}
	return s, cut
}

// nthLineEnd is the index of the n-th newline of s, or -1.
func nthLineEnd(s string, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		j := strings.IndexByte(s[off:], '\n')
		if j < 0 {
			return -1
		}
		off += j + 1
	}
	return off - 1
}

// RenderMemory is the system prompt section of the memory files, or "" when
// all are empty. Cut files carry a marker; warnings say which were cut.
func RenderMemory(mems []Memory) (section string, warnings []string) {
	var b strings.Builder
	for _, m := range mems {
		text, cut, err := m.Load()
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if cut {
			warnings = append(warnings, fmt.Sprintf("memory %s is over %d lines or %d bytes; only the start was loaded", m.Path, MemoryMaxLines, MemoryMaxBytes))
		}
		if b.Len() == 0 {
			b.WriteString("# Memory\n\nNotes kept across sessions (edit them with the Memory tool when one is worth keeping).\n")
		}
		fmt.Fprintf(&b, "\n## %s memory (%s)\n\n%s\n", m.Scope, m.Path, strings.TrimSpace(text))
	}
	return strings.TrimRight(b.String(), "\n"), warnings
}
