package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, s := range files { // deletions first: a directory may become a file
		if s == "" {
			full := filepath.Join(dir, p)
			os.Remove(full)
			os.Remove(filepath.Dir(full)) // if now empty
		}
	}
	for p, s := range files {
		full := filepath.Join(dir, p)
		if s == "" {
			continue
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot lists dir's regular files and their contents, ignoring empty
// directories and .git.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func TestTreeSync(t *testing.T) {
	src := t.TempDir()
	git(t, src, "init", "-q", "-b", "main")
	steps := []map[string]string{
		{"a.py": "a1\n", "pkg/b.py": "b1\n", "pkg/c.py": "c1\n"},
		{"a.py": "a2\n", "pkg/c.py": "", "pkg/d/e.py": "e1\n"}, // modify, delete, add
		{"pkg/b.py": "", "pkg/c.py": "c3\n", "f.py": "f\n"},    // delete, re-add
	}
	var commits []string
	for _, s := range steps {
		write(t, src, s)
		git(t, src, "add", "-A")
		git(t, src, "commit", "-q", "-m", "step")
		commits = append(commits, git(t, src, "rev-parse", "HEAD"))
	}
	mirror := filepath.Join(t.TempDir(), "owner+name", "repo")
	git(t, src, "clone", "-q", "--bare", src, mirror)
	found, err := FindMirror(filepath.Dir(filepath.Dir(mirror)), "owner/name")
	if err != nil || found != mirror {
		t.Fatalf("FindMirror = %q, %v, want %q", found, err, mirror)
	}
	if _, err := FindMirror(t.TempDir(), "owner/name"); err == nil || !strings.Contains(err.Error(), "no mirror of owner/name") {
		t.Errorf("FindMirror(empty dir) error = %v, want one naming owner/name", err)
	}
	tree := NewTree(mirror, filepath.Join(t.TempDir(), "tree"))
	ctx := context.Background()
	// Forwards, backwards and skipping: each state must equal a fresh checkout.
	for _, i := range []int{0, 1, 2, 0, 2, 1} {
		if err := tree.Sync(ctx, commits[i]); err != nil {
			t.Fatalf("Sync(step %d): %v", i, err)
		}
		fresh := NewTree(mirror, filepath.Join(t.TempDir(), "fresh"))
		if err := fresh.Sync(ctx, commits[i]); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(snapshot(t, fresh.Dir), snapshot(t, tree.Dir)); diff != "" {
			t.Errorf("after Sync(step %d) the tree differs from a fresh checkout (-want +got):\n%s", i, diff)
		}
		if tree.Commit() != commits[i] {
			t.Errorf("Commit() = %q, want %q", tree.Commit(), commits[i])
		}
		// The history a checkout has, for the recency signal.
		if head := git(t, tree.Dir, "log", "-1", "--format=%H"); head != commits[i] {
			t.Errorf("git log in the tree after Sync(step %d) = %q, want HEAD at %q", i, head, commits[i])
		}
		if n := git(t, tree.Dir, "rev-list", "--count", "HEAD"); n != fmt.Sprint(i+1) {
			t.Errorf("the tree's history after Sync(step %d) has %s commits, want %d", i, n, i+1)
		}
	}
	got := snapshot(t, tree.Dir)
	var names []string
	for p := range got {
		names = append(names, p)
	}
	sort.Strings(names)
	if diff := cmp.Diff([]string{"a.py", "pkg/b.py", "pkg/d/e.py"}, names); diff != "" {
		t.Errorf("files at step 1 (-want +got):\n%s", diff)
	}
}

// TestTreeSyncMissingBlobsAndTypeChanges: a mirror that lacks a blob (as
// snapshots lack big ones) still checks out, the file left out and listed
// by Missing; a path that is a file at one commit and a directory at the
// next, and back, is replaced, whichever way the tree moves.
func TestTreeSyncMissingBlobsAndTypeChanges(t *testing.T) {
	src := t.TempDir()
	git(t, src, "init", "-q", "-b", "main")
	steps := []map[string]string{
		{"a.py": "a\n", "big.bin": "too big\n", "p": "a file\n"},
		{"p": "", "p/q.py": "q\n"},                               // p becomes a directory
		{"p/q.py": "", "p": "a file again\n", "big.bin": "v2\n"}, // and a file again
	}
	var commits []string
	for _, s := range steps {
		write(t, src, s)
		git(t, src, "add", "-A")
		git(t, src, "commit", "-q", "-m", "step")
		commits = append(commits, git(t, src, "rev-parse", "HEAD"))
	}
	mirror := filepath.Join(t.TempDir(), "owner+name", "repo")
	git(t, src, "clone", "-q", "--bare", src, mirror)
	oid := git(t, src, "rev-parse", commits[0]+":big.bin")
	if err := os.Remove(filepath.Join(mirror, "objects", oid[:2], oid[2:])); err != nil {
		t.Fatalf("remove the blob of big.bin from the mirror: %v", err)
	}
	want := []struct {
		files   []string
		missing []string
	}{
		{[]string{"a.py", "p"}, []string{"big.bin"}},
		{[]string{"a.py", "p/q.py"}, []string{"big.bin"}},
		{[]string{"a.py", "big.bin", "p"}, nil},
	}
	tree := NewTree(mirror, filepath.Join(t.TempDir(), "tree"))
	ctx := context.Background()
	for _, i := range []int{0, 1, 2, 1, 0, 2, 0} {
		if err := tree.Sync(ctx, commits[i]); err != nil {
			t.Fatalf("Sync(step %d): %v", i, err)
		}
		var names []string
		for p := range snapshot(t, tree.Dir) {
			names = append(names, p)
		}
		sort.Strings(names)
		if diff := cmp.Diff(want[i].files, names); diff != "" {
			t.Errorf("files after Sync(step %d) (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff(want[i].missing, tree.Missing()); diff != "" {
			t.Errorf("Missing() after Sync(step %d) (-want +got):\n%s", i, diff)
		}
		fresh := NewTree(mirror, filepath.Join(t.TempDir(), "fresh"))
		if err := fresh.Sync(ctx, commits[i]); err != nil {
			t.Fatalf("fresh Sync(step %d): %v", i, err)
		}
		if diff := cmp.Diff(snapshot(t, fresh.Dir), snapshot(t, tree.Dir)); diff != "" {
			t.Errorf("after Sync(step %d) the tree differs from a fresh checkout (-want +got):\n%s", i, diff)
		}
	}
}
