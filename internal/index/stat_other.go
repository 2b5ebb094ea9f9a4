//go:build !unix

package index

import (
	"os"
	"path/filepath"
)

// dirStat lstats entries of one directory by their paths.
type dirStat struct{ dir string }

func newDirStat(_ *os.File, dir string) dirStat { return dirStat{dir: dir} }

// lstat returns the size and modification time (Unix nanoseconds) of name.
func (s dirStat) lstat(name string) (size, mtime int64, err error) {
	return lstatPath(filepath.Join(s.dir, name))
}
