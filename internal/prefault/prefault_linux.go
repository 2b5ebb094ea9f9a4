package prefault

import (
	"sync"
	"syscall"
	"unsafe"
)

const madvPopulateWrite = 23 // MADV_POPULATE_WRITE, Linux 5.14

var (
	first *[64]byte // the first allocation: its mapping is the heap's
	done  sync.WaitGroup
	// populated is the region populated and the errno madvise returned
	// (tests read them once done is done).
	populated region
	errno     syscall.Errno
)

func init() {
	if _, off := syscall.Getenv("GRIT_NOPREFAULT"); off {
		return
	}
	// The sandbox's child (internal/sandbox's childEnv) replaces itself with
	// the command it sandboxes at once: pages populated for it are wasted.
	if _, child := syscall.Getenv("GRIT_SANDBOX_CHILD"); child {
		return
	}
	first = new([64]byte)
	r, ok := heapRegion(readMaps(), uintptr(unsafe.Pointer(first)), Window)
	if !ok {
		return
	}
	populated = r
	done.Go(func() {
		_, _, errno = syscall.Syscall(syscall.SYS_MADVISE, r.start, r.end-r.start, madvPopulateWrite)
	})
}

// readMaps reads /proc/self/maps with plain system calls (the os package is
// not initialised yet when this package's init runs).
func readMaps() []byte {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 32<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return buf
		}
		buf = buf[:len(buf)+n]
	}
}
