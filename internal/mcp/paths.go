package mcp

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/grit-dev/grit/internal/span"
)

// errOutside marks a path outside the repository.
var errOutside = errors.New("path is outside the repository")

// repoPath turns a client's path (relative to the repository, or absolute
// inside it) into a clean slash-separated repository path. Absolute paths
// elsewhere, ".." escapes and Grit's own and git's directories are refused.
func (s *Server) repoPath(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", fmt.Errorf("empty path: give a file path relative to the repository %s", s.root)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%q: %w", p, errOutside)
	}
	if filepath.IsAbs(p) {
		rel, ok := within(s.root, p)
		if !ok {
			// The client may know the root by another name (a symlink).
			if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
				rel, ok = within(s.root, filepath.Join(real, filepath.Base(p)))
			}
		}
		if !ok {
			return "", fmt.Errorf("%s is outside the repository %s: %w", p, s.root, errOutside)
		}
		p = rel
	}
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
	clean = strings.TrimPrefix(clean, "./")
	if clean == "." || clean == "" {
		return "", fmt.Errorf("%q names the repository itself: give a file path", p)
	}
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%s is outside the repository %s: %w", p, s.root, errOutside)
	}
	for _, part := range strings.Split(clean, "/") {
		if part == ".git" || part == ".grit" {
			return "", fmt.Errorf("%s is under %s, which Grit does not serve: %w", p, part, errOutside)
		}
	}
	return clean, nil
}

// within reports p's path relative to root if p lies inside it.
func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// readFile reads a repository file through os.Root, which refuses symlinks
// that lead out of the repository.
func (s *Server) readFile(rel string) ([]byte, error) {
	data, err := span.ReadRegular(s.fsys, filepath.FromSlash(rel), 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file in the repository: %w", rel, err)
		}
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return data, nil
}
