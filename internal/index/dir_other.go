//go:build !linux

package index

import (
	"os"
	"path/filepath"
)

// dirHandle is one directory, read with os.ReadDir and its entries
// lstat'ed by path.
type dirHandle struct{ dir string }

// openDir lists dir; top and buf are unused here.
func openDir(dir string, _ bool, _ *[]byte) (dirHandle, []dirEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return dirHandle{}, nil, err
	}
	ents := make([]dirEntry, 0, len(des))
	for _, de := range des {
		typ := de.Type()
		if typ&^(os.ModeDir|os.ModeSymlink) != 0 {
			typ = os.ModeIrregular
		}
		ents = append(ents, dirEntry{name: de.Name(), typ: typ})
	}
	return dirHandle{dir: dir}, ents, nil
}

// lstat returns the size and modification time (Unix nanoseconds) of name.
func (h dirHandle) lstat(name string) (size, mtime int64, err error) {
	return lstatPath(filepath.Join(h.dir, name))
}

func (h dirHandle) close() {}
