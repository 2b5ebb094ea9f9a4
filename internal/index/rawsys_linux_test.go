package index

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStatAtFallback: statAt through statx and through fstatat (where
// statx is missing) agree on files, directories and open directories.
func TestStatAtFallback(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := openRaw(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRaw(fd)
	stats := func() []fileStat {
		var out []fileStat
		for _, c := range []struct {
			dirfd int
			path  string
			flags int
		}{{unix.AT_FDCWD, file, unix.AT_SYMLINK_NOFOLLOW}, {unix.AT_FDCWD, dir, 0}, {fd, "a.go", unix.AT_SYMLINK_NOFOLLOW}, {fd, "", unix.AT_EMPTY_PATH}} {
			st, err := statAt(c.dirfd, c.path, c.flags)
			if err != nil {
				t.Fatalf("statAt(%d, %q) = %v", c.dirfd, c.path, err)
			}
			out = append(out, st)
		}
		return out
	}
	viaStatx := stats()
	noStatx.Store(true)
	defer noStatx.Store(false)
	viaFstatat := stats()
	for i := range viaStatx {
		if viaStatx[i] != viaFstatat[i] {
			t.Errorf("stat %d: statx %+v, fstatat %+v", i, viaStatx[i], viaFstatat[i])
		}
	}
	if viaStatx[0].size != 10 || viaStatx[0].isDir() || !viaStatx[1].isDir() || viaStatx[1] != viaStatx[3] {
		t.Errorf("stats = %+v", viaStatx)
	}
	if _, err := statAt(unix.AT_FDCWD, filepath.Join(dir, "missing"), 0); err == nil {
		t.Error("statAt(missing) = nil error")
	}
}
