//go:build unix

package index

import (
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// dirStat lstats entries of one open directory relative to its descriptor:
// the kernel resolves each name in one step, not the whole path again.
type dirStat struct {
	fd  int // -1: by path
	dir string
}

func newDirStat(d *os.File, dir string) dirStat {
	fd := -1
	if rc, err := d.SyscallConn(); err == nil {
		rc.Control(func(f uintptr) { fd = int(f) })
	}
	return dirStat{fd: fd, dir: dir}
}

// lstat returns the size and modification time (Unix nanoseconds) of name.
func (s dirStat) lstat(name string) (size, mtime int64, err error) {
	if s.fd < 0 {
		return lstatPath(filepath.Join(s.dir, name))
	}
	var st unix.Stat_t
	for {
		err = unix.Fstatat(s.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return 0, 0, &fs.PathError{Op: "lstat", Path: filepath.Join(s.dir, name), Err: err}
	}
	return st.Size, st.Mtim.Nano(), nil
}
