package index

import (
	"io/fs"
	"path/filepath"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirHandle is one open directory. On Linux it is read with getdents64
// into the walker's own buffer and its entries lstat'ed relative to its
// descriptor: a warm update is mostly these system calls, and os.File
// would add four more per directory (non-blocking mode set and unset, a
// poller registration that fails) and an allocation per entry.
type dirHandle struct {
	fd  int
	dir string
}

// openDir opens dir and lists it into *buf (grown as needed), with the
// directory's stamp as of before the listing (so a change made while it is
// listed moves the stamp past the one returned). The entries' names point
// into *buf: they are valid until the next openDir with it. Only the top
// directory may be reached through a symlink: below it a directory swapped
// for a symlink since it was listed is not followed.
func openDir(dir string, top bool, buf *[]byte) (dirHandle, dirStamp, []dirEntry, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !top {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := openRaw(dir, flags)
	if err != nil {
		return dirHandle{fd: -1}, dirStamp{}, nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	h := dirHandle{fd: fd, dir: dir}
	st, err := statAt(fd, "", unix.AT_EMPTY_PATH)
	if err != nil {
		h.close()
		return dirHandle{fd: -1}, dirStamp{}, nil, &fs.PathError{Op: "fstat", Path: dir, Err: err}
	}
	stamp := st.stamp()
	if cap(*buf) < 32<<10 {
		*buf = make([]byte, 0, 32<<10)
	}
	b := (*buf)[:0]
	for {
		if cap(b)-len(b) < 8<<10 {
			nb := make([]byte, len(b), 2*cap(b))
			copy(nb, b)
			b = nb
		}
		n, err := getdentsRaw(fd, b[len(b):cap(b)])
		if err != nil {
			h.close()
			return dirHandle{fd: -1}, dirStamp{}, nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		b = b[:len(b)+n]
	}
	*buf = b
	ents := make([]dirEntry, 0, len(b)/32)
	var d unix.Dirent
	const (
		offReclen = unsafe.Offsetof(d.Reclen)
		offType   = unsafe.Offsetof(d.Type)
		offName   = unsafe.Offsetof(d.Name)
	)
	for len(b) > 0 {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[offReclen])))
		if reclen == 0 || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		if *(*uint64)(unsafe.Pointer(&rec[0])) == 0 { // ino 0: a deleted entry
			continue
		}
		name := rec[offName:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
			continue
		}
		e := dirEntry{name: unsafe.String(&name[0], len(name))}
		switch rec[offType] {
		case unix.DT_REG:
		case unix.DT_DIR:
			e.typ = fs.ModeDir
		case unix.DT_LNK:
			e.typ = fs.ModeSymlink
		case unix.DT_UNKNOWN: // some file systems do not say: ask
			st, err := statAt(fd, e.name, unix.AT_SYMLINK_NOFOLLOW)
			if err != nil {
				continue
			}
			switch st.mode & unix.S_IFMT {
			case unix.S_IFREG:
			case unix.S_IFDIR:
				e.typ = fs.ModeDir
			case unix.S_IFLNK:
				e.typ = fs.ModeSymlink
			default:
				e.typ = fs.ModeIrregular
			}
		default:
			e.typ = fs.ModeIrregular
		}
		ents = append(ents, e)
	}
	return h, stamp, ents, nil
}

// statDir returns the stamp of the directory at path (followed if top, as
// openDir does), or false if it is not a directory or cannot be stat'ed.
func statDir(path string, top bool) (dirStamp, bool) {
	flags := unix.AT_SYMLINK_NOFOLLOW
	if top {
		flags = 0
	}
	st, err := statAt(unix.AT_FDCWD, path, flags)
	if err != nil || !st.isDir() {
		return dirStamp{}, false
	}
	return st.stamp(), true
}

// openForFiles is how many files a cached directory holds for its stamp
// to be read from a descriptor (O_PATH: open, fstat, close) and its files
// stat'ed relative to it; with fewer, the directory and its files are
// stat'ed by path. Resolving a full path costs a lookup per component: on
// sympy (six files a directory) a stat by path took 7 µs a call under
// strace against 4 µs relative to an open directory, more in all than the
// listings saved; on terraform (two source files a directory, a quarter of
// the directories without any) one stat a directory is the most it saves.
// Four is a judgement between the two, not a tuned value.
const openForFiles = 4

// statCached returns the stamp of a directory to be listed from the cache
// holding files regular files, with the handle its entries are stat'ed
// through (close it); false if it is not a directory or cannot be stat'ed.
func statCached(path string, top bool, files int) (dirHandle, dirStamp, bool) {
	if files < openForFiles {
		st, ok := statDir(path, top)
		return dirHandle{fd: -1, dir: path}, st, ok
	}
	flags := unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !top {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := openRaw(path, flags)
	if err != nil {
		return dirHandle{fd: -1}, dirStamp{}, false
	}
	h := dirHandle{fd: fd, dir: path}
	st, err := statAt(fd, "", unix.AT_EMPTY_PATH)
	if err != nil {
		h.close()
		return dirHandle{fd: -1}, dirStamp{}, false
	}
	return h, st.stamp(), true
}

// lstat returns the size and modification time (Unix nanoseconds) of name,
// resolved by the kernel in one step from the directory's descriptor, or
// from its path if it was not opened.
func (h dirHandle) lstat(name string) (size, mtime int64, err error) {
	dirfd, path := h.fd, name
	if dirfd < 0 {
		dirfd, path = unix.AT_FDCWD, h.dir+"/"+name
	}
	st, err := statAt(dirfd, path, unix.AT_SYMLINK_NOFOLLOW)
	if err != nil {
		return 0, 0, &fs.PathError{Op: "lstat", Path: filepath.Join(h.dir, name), Err: err}
	}
	return st.size, st.mtime, nil
}

func (h dirHandle) close() {
	if h.fd >= 0 {
		closeRaw(h.fd)
	}
}

// readFile reads the file at path into buf (grown as needed; size is what
// its stat said), with plain system calls: an os.File would set and reset
// non-blocking mode and try a poller registration for every file.
func readFile(path string, buf []byte, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0) // a FIFO swapped in reads as empty, never blocks
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return buf, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	buf = slices.Grow(buf[:0], int(size)+1) // +1: the read that sees the end
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 64<<10)
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
