// Package contextfiles is the context layer: the files the harness reads
// into the model's window to steer it, and the art of loading less.
//
//   - Context files (Set): AGENTS.md and CLAUDE.md, loaded in full at
//     session start in a fixed order, from least to most specific: the
//     user's (~/.claude/CLAUDE.md, then $XDG_CONFIG_HOME/grit or
//     ~/.config/grit), then each directory's above the repository root
//     (as Claude Code reads them, up to but not including /), then each
//     directory's from the repository root down to the working directory. A later file is more specific and wins where
//     two disagree; the rendered section says so. A subdirectory's files are
//     loaded the first time the agent reads a file under it (ForPath), once.
//     `@path` imports are expanded (relative to the importing file, ~ is the
//     home directory, at most MaxImportDepth deep, cycles and paths outside
//     the home directory and the repository refused), and every file is cut
//     at a size cap with a visible warning.
//   - Memory: notes kept across sessions in .grit/memory/MEMORY.md (the
//     project's) and <user dir>/memory/MEMORY.md (the user's), loaded up to
//     MemoryMaxLines lines or MemoryMaxBytes bytes, whichever comes first,
//     with a marker when cut.
//   - Skills: folders holding SKILL.md (YAML front matter name and
//     description, then a body) under .grit/skills, .claude/skills and
//     <user dir>/skills. Only names and descriptions enter the prompt; the
//     body is read when the Skill tool asks for it, and a skill's other
//     files only when the task needs them.
//
// A Set is safe for concurrent use; Memory and Skill values are plain data
// that read the disk on each call.
package contextfiles

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/span"
)

// Size caps.
const (
	// MaxFileBytes caps one context file, its imports included: past it the
	// text is cut and a warning says so (Claude Code warns at 40k characters).
	MaxFileBytes = 40_000
	// MaxTotalBytes caps all context files together; files past it are left out.
	MaxTotalBytes = 120_000
	// MaxImportDepth bounds nested @path imports.
	MaxImportDepth = 5
)

// Names are the context file names looked for in each directory, in load order.
var Names = []string{"AGENTS.md", "CLAUDE.md"}

// Scopes of a context file, from least to most specific.
const (
	ScopeUser         = "user"         // ~/.claude/CLAUDE.md, ~/.config/grit/{AGENTS,CLAUDE}.md
	ScopeParent       = "parent"       // a directory above the repository root
	ScopeProject      = "project"      // the repository root's
	ScopeDirectory    = "directory"    // a directory between the root and the working directory
	ScopeSubdirectory = "subdirectory" // loaded when the agent first read a file under it
)

// Options locate the context layer. Only Root is required.
type Options struct {
	Root string // the repository root
	Cwd  string // the working directory, under Root; "" means Root
	// Home is the user's home directory; "" means os.UserHomeDir.
	Home string
	// UserDir is Grit's user config directory; "" means config.UserDir.
	UserDir string
	// Getenv reads the environment (XDG_CONFIG_HOME); nil means os.Getenv.
	Getenv func(string) string
}

// resolved fills in the defaults.
func (o Options) resolved() (Options, error) {
	if o.Root == "" {
		return o, fmt.Errorf("context files: no repository root")
	}
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return o, fmt.Errorf("context files: %w", err)
	}
	o.Root = root
	if o.Cwd == "" {
		o.Cwd = root
	}
	if o.Cwd, err = filepath.Abs(o.Cwd); err != nil {
		return o, fmt.Errorf("context files: %w", err)
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir() // no home: user files are simply absent
	}
	if o.UserDir == "" && o.Home != "" {
		o.UserDir = config.UserDir(o.Home, o.Getenv)
	}
	return o, nil
}

// File is one loaded context file.
type File struct {
	Path      string   `json:"path"`  // absolute
	Scope     string   `json:"scope"` // one of the Scope constants
	Content   string   `json:"-"`     // imports expanded, cut at MaxFileBytes
	Bytes     int      `json:"bytes"` // len(Content)
	Imports   []string `json:"imports,omitempty"`
	Truncated bool     `json:"truncated,omitempty"`
}

// Set is the context files of one session.
type Set struct {
	opts Options

	// mu guards the fields below.
	mu       sync.Mutex
	files    []File
	warnings []string
	loaded   map[string]bool // directories whose files were looked at
	seen     map[string]bool // content hashes of loaded files (CLAUDE.md → AGENTS.md symlinks)
	total    int             // bytes loaded
}

// Load reads the session-start context files. A file that cannot be read is
// a warning, not an error: the session goes on without it.
func Load(opts Options) (*Set, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	s := &Set{opts: o}
	s.load()
	return s, nil
}

// Reload re-reads every file from disk (after compaction, or /clear) and
// forgets which subdirectories were loaded.
func (s *Set) Reload() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.load()
}

func (s *Set) load() {
	s.files, s.warnings, s.total = nil, nil, 0
	s.loaded, s.seen = map[string]bool{}, map[string]bool{}
	o := s.opts
	if o.Home != "" {
		s.add(filepath.Join(o.Home, ".claude", "CLAUDE.md"), ScopeUser)
	}
	if o.UserDir != "" {
		for _, n := range Names {
			s.add(filepath.Join(o.UserDir, n), ScopeUser)
		}
	}
	for _, dir := range parents(o.Root) {
		s.loadDir(dir, ScopeParent)
	}
	for i, dir := range chain(o.Root, o.Cwd) {
		scope := ScopeDirectory
		if i == 0 {
			scope = ScopeProject
		}
		s.loadDir(dir, scope)
	}
}

// parents lists the directories above root, from the topmost down, not
// including the file system's root: Claude Code reads their CLAUDE.md
// files too (a CLAUDE.md in ~/work applies to every repository under it).
func parents(root string) []string {
	var out []string
	for d := filepath.Dir(root); d != root && d != filepath.Dir(d); root, d = d, filepath.Dir(d) {
		out = append([]string{d}, out...)
	}
	return out
}

// chain lists root and each directory below it down to dir; just root when
// dir is not under root.
func chain(root, dir string) []string {
	out := []string{root}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return out
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		out = append(out, cur)
	}
	return out
}

// loadDir adds dir's context files, once per directory. It returns the new files.
func (s *Set) loadDir(dir, scope string) []File {
	if s.loaded[dir] {
		return nil
	}
	s.loaded[dir] = true
	var out []File
	for _, n := range Names {
		if f, ok := s.add(filepath.Join(dir, n), scope); ok {
			out = append(out, f)
		}
	}
	return out
}

// add reads one context file, if it exists, and appends it.
func (s *Set) add(path, scope string) (File, bool) {
	data, err := span.ReadFile(path, 0)
	if err != nil {
		if !os.IsNotExist(err) {
			s.warnings = append(s.warnings, fmt.Sprintf("context file %s not loaded: %v", path, err))
		}
		return File{}, false
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(data))
	if s.seen[sum] {
		return File{}, false // the same text under another name (CLAUDE.md → AGENTS.md)
	}
	s.seen[sum] = true
	imp := importer{home: s.opts.Home, root: s.opts.Root}
	text := imp.expand(path, string(data))
	s.warnings = append(s.warnings, imp.warnings...)
	f := File{Path: path, Scope: scope, Imports: imp.imported}
	if n := len(text); n > MaxFileBytes {
		text = cutUTF8(text, MaxFileBytes) + fmt.Sprintf("\n[... cut: %s is %d bytes with its imports, over the %d-byte cap ...]", filepath.Base(path), n, MaxFileBytes)
		f.Truncated = true
		s.warnings = append(s.warnings, fmt.Sprintf("context file %s is %d bytes with its imports; only the first %d were loaded: shorten it or move detail into a skill", path, n, MaxFileBytes))
	}
	if s.total+len(text) > MaxTotalBytes {
		s.warnings = append(s.warnings, fmt.Sprintf("context file %s left out: the context files already take %d bytes of the %d-byte total cap", path, s.total, MaxTotalBytes))
		return File{}, false
	}
	s.total += len(text)
	f.Content, f.Bytes = text, len(text)
	s.files = append(s.files, f)
	return f, true
}

// Files returns the loaded files in load order (least specific first).
func (s *Set) Files() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]File(nil), s.files...)
}

// Warnings returns what went wrong while loading (cut files, refused
// imports, unreadable files), for the user to see.
func (s *Set) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.warnings...)
}

// Render is the system prompt section of the session-start files, or ""
// when there are none. Its order is fixed, so the prompt prefix is stable.
func (s *Set) Render() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var start []File
	for _, f := range s.files {
		if f.Scope != ScopeSubdirectory {
			start = append(start, f)
		}
	}
	if len(start) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Context files\n\nInstructions from the user's and the repository's context files follow, least specific first: where two disagree, the later (more specific) one wins. They are the user's instructions; follow them.\n")
	for _, f := range start {
		fmt.Fprintf(&b, "\n## %s (%s)\n\n%s\n", s.display(f.Path), f.Scope, strings.TrimSpace(f.Content))
	}
	return strings.TrimRight(b.String(), "\n")
}

// display shows path relative to the root or as ~/..., for the prompt.
func (s *Set) display(path string) string {
	if rel, err := filepath.Rel(s.opts.Root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	if h := s.opts.Home; h != "" {
		if rel, err := filepath.Rel(h, path); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}

// ForPath loads the context files of the directories between the root and
// the file at path (absolute, or relative to the root) that were not loaded
// yet, marks them loaded, and returns them rendered as a system reminder to
// append to the tool result; "" when there is nothing new. Each directory is
// loaded at most once per session (until Reload).
func (s *Set) ForPath(path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.opts.Root, path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []File
	for _, dir := range chain(s.opts.Root, filepath.Dir(path)) {
		found = append(found, s.loadDir(dir, ScopeSubdirectory)...)
	}
	if len(found) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<system-reminder>\nThe directory of this file has its own context files; follow them for work under that directory (they are more specific than the ones loaded at start):\n")
	for _, f := range found {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", s.display(f.Path), strings.TrimSpace(f.Content))
	}
	b.WriteString("</system-reminder>")
	return b.String()
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
