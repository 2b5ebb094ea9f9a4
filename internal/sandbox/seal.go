package sandbox

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// defaultProtected are workspace paths no sandboxed command may create,
// rename, replace or write: the git directory as a whole (hooks, config,
// objects a host git command would trust), .gitmodules, Grit's own settings,
// hooks and skills (.grit) and the skills Grit reads from .claude.
var defaultProtected = []string{".git", ".gitmodules", ".grit", ".claude/skills", ".claude/settings.json"}

// protectedFileNames are the protected paths that are files when present,
// which decides how a missing one is masked (the rest are directories).
var protectedFileNames = map[string]bool{".gitmodules": true, "settings.json": true}

// maxGitLinks bounds the linked git directories and worktree or submodule
// .git entries read from one workspace (a hostile repository can list many).
const maxGitLinks = 256

// linkedGitPaths returns the git paths that belong to the workspace's
// repository but are named by files in it rather than by fixed names: the
// git directory and common directory a .git file points to (a linked
// worktree or a submodule), the .git files of linked worktrees and the
// .git entries of submodules that lie inside the workspace. Absolute paths
// with symlinks resolved; only ones that exist.
func linkedGitPaths(ws string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if len(out) >= maxGitLinks {
			return
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] || real == filepath.Join(ws, ".git") {
			return
		}
		seen[real] = true
		out = append(out, real)
	}
	gitDir := filepath.Join(ws, ".git")
	if fi, err := os.Lstat(gitDir); err == nil && fi.Mode().IsRegular() {
		// A linked worktree or a submodule: .git is "gitdir: PATH".
		if dir := readGitdirFile(gitDir); dir != "" {
			add(dir)
			if common := readPathFile(filepath.Join(dir, "commondir"), dir); common != "" {
				add(common)
				gitDir = common
			} else {
				gitDir = dir
			}
		}
	}
	// Linked worktrees: each .git/worktrees/NAME/gitdir names the worktree's
	// .git file, which may sit inside the workspace.
	if ents, err := os.ReadDir(filepath.Join(gitDir, "worktrees")); err == nil {
		for _, e := range ents {
			if wt := readPathFile(filepath.Join(gitDir, "worktrees", e.Name(), "gitdir"), ""); wt != "" {
				add(wt)
			}
		}
	}
	// Submodules checked out with their own .git inside the workspace.
	for _, sub := range submodulePaths(filepath.Join(ws, ".gitmodules")) {
		p := filepath.Join(ws, sub, ".git")
		if strings.HasPrefix(p, ws+string(filepath.Separator)) {
			add(p)
		}
	}
	return out
}

// readGitdirFile returns the directory a ".git" file points to, "" if none.
func readGitdirFile(p string) string {
	b, err := readSmall(p)
	if err != nil {
		return ""
	}
	s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	s = strings.TrimSpace(s)
	if !filepath.IsAbs(s) {
		s = filepath.Join(filepath.Dir(p), s)
	}
	return filepath.Clean(s)
}

// readPathFile returns the path held in git's one-line file p (commondir,
// worktrees/NAME/gitdir), relative ones taken from base; "" if none.
func readPathFile(p, base string) string {
	b, err := readSmall(p)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if !filepath.IsAbs(s) {
		if base == "" {
			return ""
		}
		s = filepath.Join(base, s)
	}
	return filepath.Clean(s)
}

// submodulePaths reads the path = lines of a .gitmodules file.
func submodulePaths(p string) []string {
	b, err := readSmall(p)
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() && len(out) < maxGitLinks {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if ok && strings.TrimSpace(k) == "path" {
			if v = filepath.Clean(strings.Trim(strings.TrimSpace(v), `"`)); v != "." && !filepath.IsAbs(v) && !strings.HasPrefix(v, "..") {
				out = append(out, v)
			}
		}
	}
	return out
}

// maxGitFile bounds what is read of git's small files (a .git file,
// commondir, .gitmodules): a hostile one may be huge or a FIFO.
const maxGitFile = 1 << 20

// readSmall reads a regular file of at most maxGitFile bytes without
// blocking on a FIFO or device.
func readSmall(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxGitFile {
		return nil, fmt.Errorf("%s is not a small regular file", p)
	}
	b := make([]byte, fi.Size())
	n, err := f.Read(b)
	if err != nil && n == 0 && fi.Size() > 0 {
		return nil, err
	}
	return b[:n], nil
}

// A mask journal lists the mount points a run creates in the user's tree
// for missing protected paths, written before they are created, so that a
// run killed before its cleanup has them removed by the next New (a
// leftover empty .gitmodules or .grit would otherwise be taken for real).
// It lives in the user's state directory, which sandboxed commands cannot
// write (they could otherwise list paths for Grit to delete).

// journalDir is where mask journals live for home.
func journalDir(home string) string {
	if v := os.Getenv("XDG_STATE_HOME"); v != "" && filepath.IsAbs(v) {
		return filepath.Join(v, "grit", "sandbox-masks")
	}
	return filepath.Join(home, ".local", "state", "grit", "sandbox-masks")
}

// writeJournal records created before the mount points exist; it returns
// the journal's path ("" when nothing is created).
func writeJournal(dir string, created []string) (string, error) {
	if len(created) == 0 {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("sandbox: mask journal: %w", err)
	}
	name := fmt.Sprintf("%d-%d.list", os.Getpid(), time.Now().UnixNano())
	f, err := os.CreateTemp(dir, name+".tmp*")
	if err != nil {
		return "", fmt.Errorf("sandbox: mask journal: %w", err)
	}
	_, err = f.WriteString(strings.Join(created, "\n") + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	final := filepath.Join(dir, name)
	if err == nil {
		err = os.Rename(f.Name(), final)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("sandbox: mask journal: %w", err)
	}
	return final, nil
}

// sweepJournals removes the mask points left by Grit processes that are
// gone (killed before their cleanup), then their journals. Only empty
// files and directories are removed: anything with content is real.
func sweepJournals(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		pidText, _, ok := strings.Cut(name, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || !strings.HasSuffix(name, ".list") {
			if strings.Contains(name, ".tmp") {
				if pid, err := strconv.Atoi(pidText); err == nil && !processAlive(pid) {
					os.Remove(filepath.Join(dir, name))
				}
			}
			continue
		}
		if pid == os.Getpid() || processAlive(pid) {
			continue
		}
		b, err := readSmall(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		paths := strings.Split(strings.TrimSpace(string(b)), "\n")
		for i := len(paths) - 1; i >= 0; i-- {
			removeMaskPoint(paths[i])
		}
		os.Remove(filepath.Join(dir, name))
	}
}

// processAlive reports whether a process with pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// removeMaskPoint deletes p if it is what a mask point is: an empty
// directory or an empty regular file.
func removeMaskPoint(p string) {
	if !filepath.IsAbs(p) {
		return
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return
	}
	if fi.IsDir() || (fi.Mode().IsRegular() && fi.Size() == 0) {
		os.Remove(p) // a directory only goes when empty
	}
}
