package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
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
// modified (`git diff --name-status --no-renames`). A file whose blob the
// mirror lacks is left out and listed by Missing; a path that turns from a
// file into a directory or back is replaced.
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
	missing := map[string]bool{}
	if old == "" {
		if err := os.RemoveAll(t.Dir); err != nil {
			return fmt.Errorf("clear %s: %w", t.Dir, err)
		}
		if err := os.MkdirAll(t.Dir, 0o755); err != nil {
			return err
		}
		lost, err := t.extract(ctx, commit, nil)
		if err != nil {
			return err
		}
		for _, p := range lost {
			missing[p] = true
		}
		return t.finish(commit, missing)
	}
	for _, p := range t.Missing() {
		missing[p] = true
	}
	out, err := t.git(ctx, "diff", "--name-status", "--no-renames", "-z", old, commit)
	if err != nil {
		return err
	}
	var changed []string
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status, p := fields[i], fields[i+1]
		delete(missing, p)
		if err := t.remove(p); err != nil {
			return err
		}
		if status[0] != 'D' { // A, M, T (a type change, file ↔ symlink, must not write through)
			changed = append(changed, p)
		}
	}
	for len(changed) > 0 {
		n := min(len(changed), 500)
		lost, err := t.extract(ctx, commit, changed[:n:n])
		if err != nil {
			return err
		}
		for _, p := range lost {
			missing[p] = true
		}
		changed = changed[n:]
	}
	return t.finish(commit, missing)
}

// finish records the commit the tree now holds and the paths whose blobs
// the mirror lacks there.
func (t *Tree) finish(commit string, missing map[string]bool) error {
	var lost []string
	for p := range missing {
		lost = append(lost, p)
	}
	sort.Strings(lost)
	if err := os.WriteFile(t.state+".missing", []byte(strings.Join(lost, "\n")), 0o644); err != nil {
		return err
	}
	return os.WriteFile(t.state, []byte(commit+"\n"), 0o644)
}

// Missing lists the files of the held commit that the tree lacks because
// the mirror lacks their blobs (snapshots leave out big ones).
func (t *Tree) Missing() []string {
	b, err := os.ReadFile(t.state + ".missing")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(string(b), "\n")
}

// remove deletes path p of the tree (a file, a symlink or, when a file
// replaced a directory, the directory) and the directories it leaves empty.
func (t *Tree) remove(p string) error {
	full := filepath.Join(t.Dir, filepath.FromSlash(p))
	if err := os.RemoveAll(full); err != nil {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	for dir := filepath.Dir(full); dir != t.Dir && strings.HasPrefix(dir, t.Dir); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil { // not empty (or gone): stop
			break
		}
	}
	return nil
}

// extract writes commit's files (all when paths is nil, else the listed
// ones) into Dir, blob by blob: a blob the mirror lacks is skipped and its
// path returned, where git archive would fail the whole tree.
func (t *Tree) extract(ctx context.Context, commit string, paths []string) (missing []string, err error) {
	args := []string{"--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", commit}
	if paths != nil {
		args = append(append(args, "--"), paths...)
	}
	out, err := t.git(ctx, args...)
	if err != nil {
		return nil, err
	}
	type entry struct{ mode, oid, path string }
	var ents []entry
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		meta, path, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" { // submodules (commit) have no files here
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(path)) {
			continue
		}
		ents = append(ents, entry{f[0], f[2], path})
	}
	if len(ents) == 0 {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+t.Mirror, "cat-file", "--batch")
	var input strings.Builder
	for _, e := range ents {
		input.WriteString(e.oid + "\n")
	}
	cmd.Stdin = strings.NewReader(input.String())
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	defer func() {
		if werr := cmd.Wait(); werr != nil && err == nil {
			err = fmt.Errorf("git cat-file: %w: %s", werr, strings.TrimSpace(errb.String()))
		}
	}()
	r := bufio.NewReaderSize(stdout, 1<<16)
	for _, e := range ents {
		head, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file %s: %w: %s", e.oid, err, strings.TrimSpace(errb.String()))
		}
		f := strings.Fields(head)
		if len(f) == 2 && f[1] == "missing" {
			missing = append(missing, e.path)
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file %s: unexpected header %q", e.oid, head)
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("git cat-file %s: header %q: %w", e.oid, head, err)
		}
		data := make([]byte, size+1) // the blob and its trailing newline
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, fmt.Errorf("git cat-file %s: %w", e.oid, err)
		}
		if err := t.write(e.path, e.mode, data[:size]); err != nil {
			return nil, err
		}
	}
	return missing, nil
}

// write puts one file of the tree in place: a directory where it goes (the
// path was a directory at the previous commit) is removed, and so is a file
// where one of its directories goes.
func (t *Tree) write(p, mode string, data []byte) error {
	dst := filepath.Join(t.Dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		// a file (or symlink) stands where a directory must be: clear it
		for dir := filepath.Dir(dst); dir != t.Dir && strings.HasPrefix(dir, t.Dir); dir = filepath.Dir(dir) {
			if st, err := os.Lstat(dir); err == nil && !st.IsDir() {
				if err := os.Remove(dir); err != nil {
					return fmt.Errorf("write %s: %w", p, err)
				}
				break
			}
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	if err := os.RemoveAll(dst); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if mode == "120000" {
		return os.Symlink(string(data), dst)
	}
	perm := os.FileMode(0o644)
	if mode == "100755" {
		perm = 0o755
	}
	if err := os.WriteFile(dst, data, perm); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

func (t *Tree) git(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir=" + t.Mirror}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		op := args[0]
		for _, a := range args { // the subcommand, not a global option
			if !strings.HasPrefix(a, "-") {
				op = a
				break
			}
		}
		return nil, fmt.Errorf("git %s: %w: %s", op, err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}
