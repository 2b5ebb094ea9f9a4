package tool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/sandbox"
)

// Env is the state tools share within one session. It is safe for concurrent use.
type Env struct {
	Root   string         // absolute workspace root; file tools are confined to it
	Runner sandbox.Runner // runs Bash commands
	// Index opens the repository index, brought up to date (Locate, EditFunction).
	// Nil when the session has no index.
	Index func(ctx context.Context) (*index.Index, error)
	// Vars are the settings' "env" ("KEY=value"), set for every Bash command.
	Vars []string

	mu     sync.Mutex
	real   string               // Root with symlinks resolved, set on first use
	cwd    string               // Bash's working directory; persists between calls
	base   string               // relative paths start here (slash-separated, relative to the root; "" the root)
	reads  map[string]FileState // relative path → state when the model last read it
	shells *Shells              // background shells, made on first use
	todos  []Todo               // the TodoWrite list
}

// Shells are the session's background shells.
func (e *Env) Shells() *Shells {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.shells == nil {
		e.shells = &Shells{}
	}
	return e.shells
}

// Close ends what the session started: background shells are killed.
func (e *Env) Close() {
	e.Shells().CloseAll()
}

// FileState is what the harness saw of a file when the model read it.
type FileState struct {
	Size  int64
	MTime int64  // UnixNano
	Hash  string // hex SHA-256
}

// NewEnv returns an Env for the workspace at root (made absolute, symlinks
// resolved), running commands with runner.
func NewEnv(root string, runner sandbox.Runner) (*Env, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace %s: not a directory", root)
	}
	return &Env{Root: real, Runner: runner, real: real}, nil
}

// realRoot is Root with symlinks resolved.
func (e *Env) realRoot() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.real == "" {
		if r, err := filepath.EvalSymlinks(e.Root); err == nil {
			e.real = r
		} else {
			e.real = filepath.Clean(e.Root)
		}
	}
	return e.real
}

// Resolve maps a path the model gave (absolute, or relative to the
// workspace root) to a clean, slash-separated path relative to the root; "."
// is the root itself. It fails with ErrInvalidPath for an empty path or one
// holding NUL, and with ErrOutsideWorkspace for a path that leads out of the
// workspace, lexically (.., an absolute path elsewhere, ~) or through a
// symlink. Every file tool resolves through here and then opens through
// os.Root, which re-checks each component as it opens it, so a path swapped
// for a symlink after Resolve still cannot lead out.
func (e *Env) Resolve(p string) (string, error) {
	if p == "" || strings.TrimSpace(p) == "" {
		return "", fmt.Errorf("empty path: %w", ErrInvalidPath)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q holds a NUL byte: %w", p, ErrInvalidPath)
	}
	if strings.HasPrefix(p, "~") {
		return "", fmt.Errorf("%s: ~ is not expanded: %w", p, ErrOutsideWorkspace)
	}
	rel, err := e.lexical(p)
	if err != nil {
		return "", err
	}
	r, err := os.OpenRoot(e.realRoot())
	if err != nil {
		return "", fmt.Errorf("open workspace: %w", err)
	}
	defer r.Close()
	if _, err := r.Stat(rel); err != nil {
		if isEscape(err) {
			return "", fmt.Errorf("%s: a symlink leads out: %w", p, ErrOutsideWorkspace)
		}
		// Missing is fine (Write creates files); a dangling symlink must not
		// point out, and its parents must stay inside.
		if fi, lerr := r.Lstat(rel); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			if _, err := linkTarget(r, rel); err != nil {
				return "", fmt.Errorf("%s: %w", p, err)
			}
		} else if isEscape(lerr) {
			return "", fmt.Errorf("%s: a symlink leads out: %w", p, ErrOutsideWorkspace)
		}
	}
	return rel, nil
}

// lexical makes p relative to the root without touching the disk.
func (e *Env) lexical(p string) (string, error) {
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
		for _, base := range []string{e.realRoot(), filepath.Clean(e.Root)} {
			if rel, err := filepath.Rel(base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				return filepath.ToSlash(rel), nil
			}
		}
		return "", fmt.Errorf("%s is not under the workspace %s: %w", p, e.Root, ErrOutsideWorkspace)
	}
	e.mu.Lock()
	base := e.base
	e.mu.Unlock()
	rel := path.Clean(path.Join(base, filepath.ToSlash(p)))
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("%s leads out of the workspace: %w", p, ErrOutsideWorkspace)
	}
	return rel, nil
}

// linkTarget follows the symlink chain at rel, lexically, to the path it
// finally names (which may not exist). Absolute targets and targets that
// leave the root are ErrOutsideWorkspace, as os.Root itself would refuse them.
func linkTarget(r *os.Root, rel string) (string, error) {
	for hops := 0; hops < 40; hops++ {
		fi, err := r.Lstat(rel)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return rel, nil
			}
			if isEscape(err) {
				return "", fmt.Errorf("a symlink leads out: %w", ErrOutsideWorkspace)
			}
			return "", err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			return rel, nil
		}
		link, err := r.Readlink(rel)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(link) {
			return "", fmt.Errorf("symlink %s points to the absolute path %s: %w", rel, link, ErrOutsideWorkspace)
		}
		next := path.Join(path.Dir(rel), filepath.ToSlash(link))
		if next == ".." || strings.HasPrefix(next, "../") {
			return "", fmt.Errorf("symlink %s points to %s: %w", rel, link, ErrOutsideWorkspace)
		}
		rel = next
	}
	return "", fmt.Errorf("%s: too many levels of symlinks", rel)
}

// Abs is the absolute path of a workspace-relative path.
func (e *Env) Abs(rel string) string { return filepath.Join(e.realRoot(), filepath.FromSlash(rel)) }

// MarkRead records what the model saw of rel (a path from Resolve).
func (e *Env) MarkRead(rel string, st FileState) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.reads == nil {
		e.reads = make(map[string]FileState)
	}
	e.reads[rel] = st
}

// ReadState returns what the model saw of rel when it last read (or wrote) it.
func (e *Env) ReadState(rel string) (FileState, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	st, ok := e.reads[rel]
	return st, ok
}

// Forget drops the read state of rel (after a failed write, say).
func (e *Env) Forget(rel string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.reads, rel)
}

// SetBase makes relative paths start at dir (absolute, in the workspace):
// where grit was started, as in Claude Code.
func (e *Env) SetBase(dir string) error {
	rel, err := filepath.Rel(e.realRoot(), dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return fmt.Errorf("working directory %s is not in the workspace %s", dir, e.Root)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.base = filepath.ToSlash(rel)
	if e.base == "." {
		e.base = ""
	}
	return nil
}

// Cwd is Bash's working directory (absolute); the root until a command changes it.
func (e *Env) Cwd() string {
	root := e.realRoot()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cwd == "" {
		return root
	}
	return e.cwd
}

// SetCwd sets Bash's working directory (absolute, inside the root).
func (e *Env) SetCwd(dir string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cwd = dir
}

// inside reports whether the absolute path p lies in the workspace.
func (e *Env) inside(p string) bool {
	root := e.realRoot()
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// stateOf is the FileState of data read from a file with info fi.
func stateOf(data []byte, fi os.FileInfo) FileState {
	sum := sha256.Sum256(data)
	return FileState{Size: int64(len(data)), MTime: fi.ModTime().UnixNano(), Hash: hex.EncodeToString(sum[:])}
}
