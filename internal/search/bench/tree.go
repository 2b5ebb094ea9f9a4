package bench

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// FindMirror locates the bare git mirror of repo ("owner/name") under dir,
// accepting dir/owner+name/repo (what the fetch tool produces),
// dir/owner/name.git and dir/owner/name.
func FindMirror(dir, repo string) (string, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok {
		return "", fmt.Errorf("repository %q is not owner/name", repo)
	}
	cands := []string{
		filepath.Join(dir, owner+"+"+name, "repo"),
		filepath.Join(dir, owner, name+".git"),
		filepath.Join(dir, owner, name),
		filepath.Join(dir, owner+"+"+name),
	}
	for _, c := range cands {
		if isGitDir(c) {
			return c, nil
		}
	}
	return "", fmt.Errorf("no mirror of %s under %s (tried %s)", repo, dir, strings.Join(cands, ", "))
}

func isGitDir(p string) bool {
	if st, err := os.Stat(filepath.Join(p, "HEAD")); err == nil && !st.IsDir() {
		if _, err := os.Stat(filepath.Join(p, "objects")); err == nil {
			return true
		}
	}
	if st, err := os.Stat(filepath.Join(p, ".git")); err == nil && st.IsDir() {
		return true
	}
	return false
}

// Tree is one work directory holding a repository's files at one commit,
// moved from commit to commit by applying the difference.
type Tree struct {
	Mirror string // git dir
	Dir    string // the extracted tree
	state  string // file remembering the commit Dir holds
}

// NewTree returns the tree for mirror kept at dir. The commit it holds is
// remembered in dir+".commit".
func NewTree(mirror, dir string) *Tree {
	return &Tree{Mirror: mirror, Dir: dir, state: dir + ".commit"}
}

// Commit is the commit the tree holds, "" if unknown.
func (t *Tree) Commit() string {
	b, err := os.ReadFile(t.state)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// Sync makes Dir hold exactly the files of commit, and a .git whose HEAD is
// commit (setHistory): from scratch the first time, then by deleting the
// paths removed since the held commit and extracting those added or
// modified (`git diff --name-status --no-renames`).
func (t *Tree) Sync(ctx context.Context, commit string) error {
	if err := t.sync(ctx, commit); err != nil {
		return err
	}
	return t.setHistory(ctx, commit)
}

// setHistory makes Dir a git work tree whose HEAD is commit, its objects
// read from the mirror (objects/info/alternates), nothing copied: the
// search's recency signal reads the history a checkout would have.
func (t *Tree) setHistory(ctx context.Context, commit string) error {
	objects := filepath.Join(t.Mirror, "objects")
	if _, err := os.Stat(objects); err != nil {
		objects = filepath.Join(t.Mirror, ".git", "objects")
	}
	objects, err := filepath.Abs(objects)
	if err != nil {
		return err
	}
	gitDir := filepath.Join(t.Dir, ".git")
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		if out, err := exec.CommandContext(ctx, "git", "init", "-q", t.Dir).CombinedOutput(); err != nil {
			return fmt.Errorf("git init %s: %w: %s", t.Dir, err, strings.TrimSpace(string(out)))
		}
	}
	if err := os.WriteFile(filepath.Join(gitDir, "objects", "info", "alternates"), []byte(objects+"\n"), 0o644); err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "git", "-C", t.Dir, "-c", "core.logAllRefUpdates=false", "update-ref", "--no-deref", "HEAD", commit).CombinedOutput(); err != nil {
		return fmt.Errorf("git update-ref HEAD %s: %w: %s", commit, err, strings.TrimSpace(string(out)))
	}
	return nil
}

func (t *Tree) sync(ctx context.Context, commit string) error {
	old := t.Commit()
	if old == commit {
		return nil
	}
	_ = os.Remove(t.state) // until the sync completes the tree's state is unknown
	if old == "" {
		if err := os.RemoveAll(t.Dir); err != nil {
			return fmt.Errorf("clear %s: %w", t.Dir, err)
		}
		if err := os.MkdirAll(t.Dir, 0o755); err != nil {
			return err
		}
		if err := t.extract(ctx, commit, nil); err != nil {
			return err
		}
		return os.WriteFile(t.state, []byte(commit+"\n"), 0o644)
	}
	out, err := t.git(ctx, "diff", "--name-status", "--no-renames", "-z", old, commit)
	if err != nil {
		return err
	}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var changed []string
	for i := 0; i+1 < len(fields); i += 2 {
		status, p := fields[i], fields[i+1]
		switch status[0] {
		case 'D':
			if err := os.Remove(filepath.Join(t.Dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", p, err)
			}
		default: // A, M, T
			_ = os.Remove(filepath.Join(t.Dir, filepath.FromSlash(p))) // a type change (file ↔ symlink) must not write through
			changed = append(changed, p)
		}
	}
	for len(changed) > 0 {
		n := min(len(changed), 500)
		if err := t.extract(ctx, commit, changed[:n]); err != nil {
			return err
		}
		changed = changed[n:]
	}
	return os.WriteFile(t.state, []byte(commit+"\n"), 0o644)
}

// extract writes commit's files (all, or the listed paths) into Dir.
func (t *Tree) extract(ctx context.Context, commit string, paths []string) error {
	args := []string{"archive", "--format=tar", commit}
	if paths != nil {
		args = append(args, "--")
		args = append(args, paths...)
	}
	out, err := t.git(ctx, args...)
	if err != nil {
		return err
	}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read archive of %s: %w", commit, err)
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) {
			continue
		}
		dst := filepath.Join(t.Dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, os.FileMode(h.Mode)&0o755|0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("write %s: %w", dst, err)
			}
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			_ = os.Remove(dst)
			if err := os.Symlink(h.Linkname, dst); err != nil {
				return err
			}
		}
	}
}

func (t *Tree) git(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir=" + t.Mirror}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}
