package tool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A1: paths are resolved relative to the workspace and escapes are typed errors.
func TestResolve(t *testing.T) {
	env, outside := testEnv(t, map[string]string{"a/b.txt": "x", "top.txt": "y"})
	os.Symlink(outside, filepath.Join(env.Root, "esc"))
	os.Symlink("a/b.txt", filepath.Join(env.Root, "inlink"))
	os.Symlink("/etc/passwd", filepath.Join(env.Root, "abslink"))
	os.Symlink("../outside/missing", filepath.Join(env.Root, "dangling-out"))
	os.Symlink("missing-inside", filepath.Join(env.Root, "dangling-in"))
	tests := []struct {
		in      string
		want    string
		wantErr error
	}{
		{"top.txt", "top.txt", nil},
		{"a/b.txt", "a/b.txt", nil},
		{"./a/../top.txt", "top.txt", nil},
		{"a/b.txt/", "a/b.txt", nil},
		{".", ".", nil},
		{"new/file.txt", "new/file.txt", nil},
		{env.Root + "/a/b.txt", "a/b.txt", nil},
		{env.Root, ".", nil},
		{"inlink", "inlink", nil},
		{"dangling-in", "dangling-in", nil},
		{"", "", ErrInvalidPath},
		{"  ", "", ErrInvalidPath},
		{"a\x00b", "", ErrInvalidPath},
		{"..", "", ErrOutsideWorkspace},
		{"../outside/secret.txt", "", ErrOutsideWorkspace},
		{"a/../../outside", "", ErrOutsideWorkspace},
		{outside + "/secret.txt", "", ErrOutsideWorkspace},
		{"/etc/passwd", "", ErrOutsideWorkspace},
		{"~", "", ErrOutsideWorkspace},
		{"~/.ssh/id_rsa", "", ErrOutsideWorkspace},
		{"~root/x", "", ErrOutsideWorkspace},
		{"esc/secret.txt", "", ErrOutsideWorkspace},
		{"esc", "", ErrOutsideWorkspace},
		{"esc/new.txt", "", ErrOutsideWorkspace},
		{"abslink", "", ErrOutsideWorkspace},
		{"dangling-out", "", ErrOutsideWorkspace},
	}
	for _, tt := range tests {
		got, err := env.Resolve(tt.in)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Resolve(%q) = %q, %v; want error %v", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// FuzzResolve: Resolve either fails or names a path whose real location is
// inside the workspace; and Read, Edit and Write on any path leave the
// outside sentinel unchanged.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"a.txt", "../outside/secret.txt", "/etc/passwd", "~", "", ".", "..", "esc/secret.txt",
		"a/../../x", "./././a.txt", "a\x00b", "//a.txt", "esc/../a.txt", "dir/../../outside", "lnk", "\\..\\x", "a.txt/.."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		env, outside := testEnv(t, map[string]string{"a.txt": "hello\n", "dir/b.txt": "b\n"})
		os.Symlink(outside, filepath.Join(env.Root, "esc"))
		os.Symlink("../outside/secret.txt", filepath.Join(env.Root, "lnk"))
		before := treeHash(t, outside)
		rel, err := env.Resolve(p)
		if err == nil {
			real, rerr := filepath.EvalSymlinks(env.Abs(rel))
			if rerr == nil && !env.inside(real) {
				t.Fatalf("Resolve(%q) = %q, which is really %s, outside %s", p, rel, real, env.Root)
			}
		}
		ctx := context.Background()
		Read{}.Run(ctx, env, mustJSON(map[string]any{"file_path": p}))
		Edit{}.Run(ctx, env, mustJSON(map[string]any{"file_path": p, "old_string": "outside", "new_string": "PWNED"}))
		Write{}.Run(ctx, env, mustJSON(map[string]any{"file_path": p, "content": "PWNED"}))
		if after := treeHash(t, outside); after != before {
			t.Fatalf("path %q changed the outside directory", p)
		}
	})
}

// A2, A3: symlinks that lead out are refused for read and write; an in-tree
// symlink is written through and stays a symlink.
func TestSymlinks(t *testing.T) {
	env, outside := testEnv(t, map[string]string{"real.txt": "inside\n"})
	root := env.Root
	os.Symlink(outside, filepath.Join(root, "escdir"))
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "abs-out"))
	os.Symlink("../outside/secret.txt", filepath.Join(root, "rel-out"))
	os.Symlink("../outside/missing.txt", filepath.Join(root, "dangling-out"))
	os.Symlink("real.txt", filepath.Join(root, "in-tree"))
	before := treeHash(t, outside)

	for _, p := range []string{"escdir/secret.txt", "abs-out", "rel-out", "dangling-out", "escdir/new.txt"} {
		t.Run(p, func(t *testing.T) {
			if res := call(t, Read{}, env, map[string]any{"file_path": p}); !res.IsError || strings.Contains(res.Content, "outside bytes") {
				t.Errorf("Read(%s) = %+v, want a refusal", p, res)
			}
			// Even with a read state planted, Edit and Write refuse.
			env.MarkRead(p, FileState{})
			if res := call(t, Edit{}, env, map[string]any{"file_path": p, "old_string": "outside", "new_string": "PWNED"}); !res.IsError {
				t.Errorf("Edit(%s) = %+v, want a refusal", p, res)
			}
			if res := call(t, Write{}, env, map[string]any{"file_path": p, "content": "PWNED"}); !res.IsError {
				t.Errorf("Write(%s) = %+v, want a refusal", p, res)
			}
			if _, err := runErr(t, Write{}.run, env, map[string]any{"file_path": p, "content": "PWNED"}); !errors.Is(err, ErrOutsideWorkspace) {
				t.Errorf("Write(%s) error = %v, want ErrOutsideWorkspace", p, err)
			}
		})
	}
	if after := treeHash(t, outside); after != before {
		t.Fatal("the outside directory changed")
	}
	if _, err := os.Stat(filepath.Join(outside, "missing.txt")); !os.IsNotExist(err) {
		t.Error("a dangling symlink was written through to the outside")
	}

	// In-tree link: written through, link kept.
	call(t, Read{}, env, map[string]any{"file_path": "in-tree"})
	res := call(t, Edit{}, env, map[string]any{"file_path": "in-tree", "old_string": "inside", "new_string": "edited"})
	if res.IsError {
		t.Fatalf("Edit(in-tree) = %+v", res)
	}
	if fi, err := os.Lstat(filepath.Join(root, "in-tree")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("in-tree is no longer a symlink (%v, %v)", fi, err)
	}
	if got := readWS(t, env, "real.txt"); got != "edited\n" {
		t.Errorf("real.txt = %q, want %q", got, "edited\n")
	}
}

// A4: a directory flipped between a real directory and a symlink to the
// outside, while Edit and Write run on a file under it, never leads a write
// outside.
func TestTOCTOUDirSymlinkRace(t *testing.T) {
	env, outside := testEnv(t, nil)
	root := env.Root
	os.WriteFile(filepath.Join(outside, "f"), []byte("outside f\n"), 0o644)
	before := treeHash(t, outside)
	d := filepath.Join(root, "d")
	real := filepath.Join(root, "d-real")
	os.MkdirAll(real, 0o755)
	os.WriteFile(filepath.Join(real, "f"), []byte("outside f\n"), 0o644)

	const flips = 10000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(stop)
		for i := 0; i < flips; i++ {
			os.Rename(real, d) // d is a real directory
			os.Rename(d, real)
			os.Symlink(outside, d) // d leads out
			os.Remove(d)
		}
	}()
	ctx := context.Background()
	edits, writes := 0, 0
	for i := 0; ; i++ {
		select {
		case <-stop:
			wg.Wait()
			if after := treeHash(t, outside); after != before {
				t.Fatalf("the outside directory changed after %d rounds", i)
			}
			t.Logf("%d rounds: %d edits and %d writes landed inside, none outside", i, edits, writes)
			return
		default:
		}
		b, err := os.ReadFile(filepath.Join(real, "f"))
		if err != nil {
			b, _ = os.ReadFile(filepath.Join(d, "f"))
		}
		old, new := "outside", "PWNED"
		if strings.Contains(string(b), "PWNED") {
			old, new = new, old
		}
		env.MarkRead("d/f", stateOf(b, fakeInfo{}))
		if res, _ := (Edit{}).Run(ctx, env, mustJSON(map[string]any{"file_path": "d/f", "old_string": old, "new_string": new})); !res.IsError {
			edits++
		}
		// Write without creating directories (a created d would end the flipping).
		if _, err := os.Lstat(d); err == nil {
			if res, _ := (Write{}).Run(ctx, env, mustJSON(map[string]any{"file_path": "d/f", "content": "outside f\n"})); !res.IsError {
				writes++
			}
		}
	}
}

// A5: a hard link to an outside inode: the edit replaces the link's name,
// the outside file keeps its bytes.
func TestHardLink(t *testing.T) {
	env, outside := testEnv(t, nil)
	sec := filepath.Join(outside, "secret.txt")
	h := filepath.Join(env.Root, "h")
	if err := os.Link(sec, h); err != nil {
		t.Skipf("hard links not supported here: %v", err)
	}
	call(t, Read{}, env, map[string]any{"file_path": "h"})
	res := call(t, Edit{}, env, map[string]any{"file_path": "h", "old_string": "outside", "new_string": "inside"})
	if res.IsError {
		t.Fatalf("Edit(h) = %+v", res)
	}
	if got, _ := os.ReadFile(sec); string(got) != "outside bytes\n" {
		t.Errorf("outside file = %q, want it unchanged", got)
	}
	if got := readWS(t, env, "h"); got != "inside bytes\n" {
		t.Errorf("h = %q, want %q", got, "inside bytes\n")
	}
}

// A6: a symlink planted by a command run through Bash, then Edit on it.
func TestSymlinkPlantedByBash(t *testing.T) {
	env, outside := testEnv(t, nil)
	before := treeHash(t, outside)
	res := call(t, Bash{}, env, map[string]any{"command": "ln -s " + filepath.Join(outside, "secret.txt") + " x && ln -s ../outside y"})
	if res.IsError {
		t.Fatalf("Bash = %+v", res)
	}
	for _, p := range []string{"x", "y/secret.txt"} {
		if r := call(t, Read{}, env, map[string]any{"file_path": p}); !r.IsError {
			t.Errorf("Read(%s) = %+v, want a refusal", p, r)
		}
		env.MarkRead(p, stateOf([]byte("outside bytes\n"), fakeInfo{}))
		if r := call(t, Edit{}, env, map[string]any{"file_path": p, "old_string": "outside", "new_string": "PWNED"}); !r.IsError {
			t.Errorf("Edit(%s) = %+v, want a refusal", p, r)
		}
	}
	if after := treeHash(t, outside); after != before {
		t.Fatal("the outside directory changed")
	}
}
