package index

import (
	"path/filepath"
	"time"
)

// SetRacyWindow sets how recent a stamp must be to be re-checked, until the
// returned function restores it: a test's fresh files and directories are
// all "racy" under the real two seconds.
func SetRacyWindow(d time.Duration) (restore func()) {
	old := racyWindow
	racyWindow = d
	return func() { racyWindow = old }
}

// DirCacheLen is how many directory listings root's cache holds.
func DirCacheLen(root string) int {
	return len(loadDirCache(filepath.Join(root, ".grit", dirCacheName)))
}
