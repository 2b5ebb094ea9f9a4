// Package edit changes files safely: exact-string edits, whole-definition
// swaps by byte range with a quality monitor, atomic writes and diffs.
//
// Invariants: every write goes through WriteFileAtomic (temp file in the same
// directory, fsync, rename, fsync of the directory), so a crash leaves the old
// or the new file, never a torn one; bytes outside an edit stay identical; a
// U+FFFD that was not in the input is never written.
package edit

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path's content with data. It keeps the existing
// file's mode (perm is used for a new file) and never follows a final-component
// symlink out of its directory: a symlink is written through to its target.
// Writing by temp+rename also means a hard-linked outside inode is untouched.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".grit-tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
