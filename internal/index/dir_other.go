//go:build !linux

package index

import (
	"io"
	"os"
	"path/filepath"
	"slices"
)

// dirHandle is one directory, read with os.ReadDir and its entries
// lstat'ed by path.
type dirHandle struct{ dir string }

// openDir lists dir; top and buf are unused here, and the stamp is zero
// (statCached never matches it: the directory cache is Linux's).
func openDir(dir string, _ bool, _ *[]byte) (dirHandle, dirStamp, []dirEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return dirHandle{}, dirStamp{}, nil, err
	}
	ents := make([]dirEntry, 0, len(des))
	for _, de := range des {
		typ := de.Type()
		if typ&^(os.ModeDir|os.ModeSymlink) != 0 {
			typ = os.ModeIrregular
		}
		ents = append(ents, dirEntry{name: de.Name(), typ: typ})
	}
	return dirHandle{dir: dir}, dirStamp{}, ents, nil
}

// statCached says no: elsewhere than Linux every directory is listed.
func statCached(string, bool, int) (dirHandle, dirStamp, bool) { return dirHandle{}, dirStamp{}, false }

// lstat returns the size and modification time (Unix nanoseconds) of name.
func (h dirHandle) lstat(name string) (size, mtime int64, err error) {
	return lstatPath(filepath.Join(h.dir, name))
}

func (h dirHandle) close() {}

// readFile reads the file at path into buf (grown as needed).
func readFile(path string, buf []byte, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	buf = slices.Grow(buf[:0], int(size)+1)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 64<<10)
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// lstatPath returns the size and modification time (Unix nanoseconds) of
// the file at path, not following a symlink.
func lstatPath(path string) (size, mtime int64, err error) {
	info, err := os.Lstat(path)
	if err != nil {
		return 0, 0, err
	}
	return info.Size(), info.ModTime().UnixNano(), nil
}
