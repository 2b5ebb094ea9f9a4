package permission

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Trust states of a repository.
const (
	TrustNothing   = "nothing"   // the repository has no settings, hooks or skills to trust
	TrustUntrusted = "untrusted" // never trusted
	TrustChanged   = "changed"   // trusted once, but the files changed since
	TrustTrusted   = "trusted"   // trusted, and unchanged
)

// TrustStatus is a repository's trust state with the files it covers.
type TrustStatus struct {
	State string   `json:"state"`
	Hash  string   `json:"hash,omitempty"`
	Files []string `json:"files,omitempty"` // workspace-relative
}

// Honoured reports whether the repository's own settings, hooks and skills
// may be used.
func (s TrustStatus) Honoured() bool { return s.State == TrustTrusted || s.State == TrustNothing }

// Trust is the store of trusted repositories (~/.config/grit/trust.json).
// A repository's own settings, hooks, skills and MCP definitions are not
// honoured until the user trusts it; trust is bound to a content hash of
// those files, so any change asks again. Safe for concurrent use in one
// process; writes are atomic.
type Trust struct {
	path string

	mu sync.Mutex // serialises read-modify-write of the file
}

// OpenTrust returns the store at path (created on the first Grant).
func OpenTrust(path string) *Trust { return &Trust{path: path} }

// DefaultTrustPath is $XDG_CONFIG_HOME/grit/trust.json, else
// ~/.config/grit/trust.json.
func DefaultTrustPath() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "grit", "trust.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("trust store: %w", err)
	}
	return filepath.Join(home, ".config", "grit", "trust.json"), nil
}

type trustFile struct {
	Version int                   `json:"version"`
	Repos   map[string]trustEntry `json:"repos"`
}

type trustEntry struct {
	Hash      string    `json:"hash"`
	Files     []string  `json:"files"`
	TrustedAt time.Time `json:"trusted_at"`
}

// What a repository brings, under one trust rule: Grit's and Claude Code's
// settings, MCP servers, hooks, skills, commands and agents. Nothing of it
// is honoured until the user trusts the repository as it is (the files'
// content is hashed), by grit trust. The agent, grit fix and grit doctor
// all decide through Trust.Check over these lists.
var (
	// TrustPaths are the files, relative to the repository, whose content
	// decides trust: everything that configures or runs code.
	TrustPaths = []string{".grit/settings.json", ".grit/settings.local.json", ".grit/mcp.json",
		".claude/settings.json", ".claude/settings.local.json", ".mcp.json"}
	// TrustDirs are trees whose every file counts.
	TrustDirs = []string{".grit/hooks", ".grit/skills", ".grit/commands", ".grit/agents",
		".claude/hooks", ".claude/skills", ".claude/commands", ".claude/agents"}
)

// ProjectFingerprint hashes the repository's trust-relevant files: paths,
// executable bits, symlink targets and contents. It returns "" and no files
// when there are none.
func ProjectFingerprint(root string) (string, []string, error) {
	var files []string
	for _, p := range TrustPaths {
		if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
			files = append(files, p)
		}
	}
	for _, d := range TrustDirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if !e.IsDir() {
				rel, _ := filepath.Rel(root, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return "", nil, fmt.Errorf("trust fingerprint: %w", err)
		}
	}
	if len(files) == 0 {
		return "", nil, nil
	}
	sort.Strings(files)
	h := sha256.New()
	for _, rel := range files {
		full := filepath.Join(root, rel)
		fi, err := os.Lstat(full)
		if err != nil {
			return "", nil, fmt.Errorf("trust fingerprint: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%o\x00", rel, fi.Mode()&(fs.ModeSymlink|0o111))
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(full)
			fmt.Fprintf(h, "link:%s\x00", target)
			continue
		}
		data, err := os.ReadFile(full)
		if err != nil {
			return "", nil, fmt.Errorf("trust fingerprint: %w", err)
		}
		fmt.Fprintf(h, "%d\x00", len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), files, nil
}

func (t *Trust) load() (trustFile, error) {
	tf := trustFile{Version: 1, Repos: map[string]trustEntry{}}
	data, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return tf, nil
	}
	if err != nil {
		return tf, fmt.Errorf("read trust store: %w", err)
	}
	if err := json.Unmarshal(data, &tf); err != nil {
		return tf, fmt.Errorf("read trust store %s: %w", t.path, err)
	}
	if tf.Repos == nil {
		tf.Repos = map[string]trustEntry{}
	}
	return tf, nil
}

func (t *Trust) save(tf trustFile) error {
	if err := os.MkdirAll(filepath.Dir(t.path), 0o700); err != nil {
		return fmt.Errorf("write trust store: %w", err)
	}
	data, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.path), ".trust-*.json")
	if err != nil {
		return fmt.Errorf("write trust store: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write trust store: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write trust store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write trust store: %w", err)
	}
	if err := os.Rename(tmp.Name(), t.path); err != nil {
		return fmt.Errorf("write trust store: %w", err)
	}
	return nil
}

func canonicalRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return abs, nil
}

// Check returns the repository's trust state.
func (t *Trust) Check(root string) (TrustStatus, error) {
	root, err := canonicalRoot(root)
	if err != nil {
		return TrustStatus{}, fmt.Errorf("check trust: %w", err)
	}
	hash, files, err := ProjectFingerprint(root)
	if err != nil {
		return TrustStatus{}, err
	}
	st := TrustStatus{Hash: hash, Files: files}
	if hash == "" {
		st.State = TrustNothing
		return st, nil
	}
	t.mu.Lock()
	tf, err := t.load()
	t.mu.Unlock()
	if err != nil {
		return st, err
	}
	e, ok := tf.Repos[root]
	switch {
	case !ok:
		st.State = TrustUntrusted
	case e.Hash != hash:
		st.State = TrustChanged
	default:
		st.State = TrustTrusted
	}
	return st, nil
}

// Grant trusts the repository's files as they are now.
func (t *Trust) Grant(root string) (TrustStatus, error) {
	root, err := canonicalRoot(root)
	if err != nil {
		return TrustStatus{}, fmt.Errorf("trust: %w", err)
	}
	hash, files, err := ProjectFingerprint(root)
	if err != nil {
		return TrustStatus{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	tf, err := t.load()
	if err != nil {
		return TrustStatus{}, err
	}
	tf.Repos[root] = trustEntry{Hash: hash, Files: files, TrustedAt: time.Now().UTC()}
	if err := t.save(tf); err != nil {
		return TrustStatus{}, err
	}
	state := TrustTrusted
	if hash == "" {
		state = TrustNothing
	}
	return TrustStatus{State: state, Hash: hash, Files: files}, nil
}

// Revoke forgets the repository.
func (t *Trust) Revoke(root string) error {
	root, err := canonicalRoot(root)
	if err != nil {
		return fmt.Errorf("revoke trust: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	tf, err := t.load()
	if err != nil {
		return err
	}
	if _, ok := tf.Repos[root]; !ok {
		return nil
	}
	delete(tf.Repos, root)
	return t.save(tf)
}

// Describe is a one-line explanation for the user of what trusting covers.
func (s TrustStatus) Describe() string {
	switch s.State {
	case TrustNothing:
		return "the repository has no settings, hooks or skills of its own"
	case TrustTrusted:
		return "trusted: " + strings.Join(s.Files, ", ")
	case TrustChanged:
		return "changed since you trusted it: review " + strings.Join(s.Files, ", ") + " and trust it again"
	}
	return "not trusted: its " + strings.Join(s.Files, ", ") + " are ignored until you trust it"
}
