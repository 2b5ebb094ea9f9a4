package index

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The walk's system calls (open, stat, getdents, close of directories and
// stats of files) are made raw, without entering the scheduler's system
// call state: they return in microseconds, and made the ordinary way they
// kept the runtime's monitor thread polling every 20 µs for a processor to
// hand off instead of backing off. On a no-change update of
// java-design-patterns (5,500 stats) the monitor went from 9.0% to 4.6% of
// the samples and the context switches from about 290 to 200 a run
// (docs/performance-notes.md). A raw call that blocks on a cold disk holds
// its processor meanwhile, as a busy goroutine would: the walk's workers
// are the update's main work while they run.

// atFDCWD is unix.AT_FDCWD as a variable: a negative constant does not
// convert to uintptr.
var atFDCWD = unix.AT_FDCWD

// statxMask is what the walk reads of a file or directory.
const statxMask = unix.STATX_TYPE | unix.STATX_MODE | unix.STATX_INO | unix.STATX_SIZE | unix.STATX_MTIME | unix.STATX_CTIME

// noStatx is set once statx(2) is found missing (a kernel before 4.11, or
// a seccomp filter that refuses it): stats go through fstatat then.
var noStatx atomic.Bool

// fileStat is what the walk uses of a stat.
type fileStat struct {
	mode              uint32 // type bits as in st_mode
	size              int64
	ino, mtime, ctime int64 // mtime and ctime in Unix nanoseconds
}

func (st fileStat) isDir() bool     { return st.mode&unix.S_IFMT == unix.S_IFDIR }
func (st fileStat) stamp() dirStamp { return dirStamp{ino: st.ino, mtime: st.mtime, ctime: st.ctime} }

// statAt stats path relative to dirfd (unix.AT_FDCWD, or an open
// directory; path "" with unix.AT_EMPTY_PATH for dirfd itself).
func statAt(dirfd int, path string, flags int) (fileStat, error) {
	p, err := unix.BytePtrFromString(path)
	if err != nil {
		return fileStat{}, err
	}
	if !noStatx.Load() {
		var st unix.Statx_t
		for {
			_, _, e := unix.RawSyscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags), statxMask, uintptr(unsafe.Pointer(&st)), 0)
			switch e {
			case 0:
				return fileStat{mode: uint32(st.Mode), size: int64(st.Size), ino: int64(st.Ino),
					mtime: st.Mtime.Sec*1e9 + int64(st.Mtime.Nsec), ctime: st.Ctime.Sec*1e9 + int64(st.Ctime.Nsec)}, nil
			case unix.EINTR:
				continue
			case unix.ENOSYS, unix.EPERM:
				noStatx.Store(true)
			default:
				return fileStat{}, e
			}
			break
		}
	}
	var st unix.Stat_t
	for {
		err = unix.Fstatat(dirfd, path, &st, flags)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{mode: uint32(st.Mode), size: int64(st.Size), ino: int64(st.Ino), mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, nil
}

// openRaw opens path (a directory, for the walk) with flags.
func openRaw(path string, flags int) (int, error) {
	p, err := unix.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	for {
		fd, _, e := unix.RawSyscall6(unix.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)), uintptr(flags), 0, 0, 0)
		switch e {
		case 0:
			return int(fd), nil
		case unix.EINTR:
			continue
		}
		return -1, e
	}
}

// getdentsRaw reads directory entries of fd into buf.
func getdentsRaw(fd int, buf []byte) (int, error) {
	if len(buf) == 0 {
		return 0, unix.EINVAL
	}
	for {
		n, _, e := unix.RawSyscall(unix.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		switch e {
		case 0:
			return int(n), nil
		case unix.EINTR:
			continue
		}
		return 0, e
	}
}

func closeRaw(fd int) { unix.RawSyscall(unix.SYS_CLOSE, uintptr(fd), 0, 0) }
