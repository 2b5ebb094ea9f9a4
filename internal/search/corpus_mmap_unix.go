//go:build unix

package search

import (
	"os"
	"runtime"
	"syscall"
)

// mapping is a read-only view of a file: a shared mapping of it, unmapped
// when the mapping is no longer referenced. Nothing that outlives the
// Corpus holding it may point into data (results copy what they keep).
type mapping struct {
	data []byte
}

// mapFile maps size bytes of f.
func mapFile(f *os.File, size int) (*mapping, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	m := &mapping{data: data}
	runtime.AddCleanup(m, func(b []byte) { _ = syscall.Munmap(b) }, data)
	return m, nil
}

// release tells the kernel that the pages of data[off:off+n] are not
// needed now: they leave the process's resident set and are read again
// (from the page cache) when touched.
func (m *mapping) release(off, n int) {
	pg := syscall.Getpagesize()
	start := (off + pg - 1) / pg * pg
	end := min(off+n, len(m.data)) / pg * pg
	if end > start {
		_ = syscall.Madvise(m.data[start:end], syscall.MADV_DONTNEED)
	}
}
