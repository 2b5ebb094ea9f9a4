package tool

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"

	"github.com/grit-dev/grit/internal/span"
)

// Size limits of the file tools.
const (
	maxEditSize = 16 << 20 // bytes; Edit and EditFunction load the whole file
	binarySniff = 8 << 10  // a NUL in this many leading bytes means binary
)

// openRoot opens the workspace as an os.Root. Every file operation of the
// tools goes through one, so each path component is opened with openat and
// checked, and nothing reaches outside the root even if the tree changes
// while a tool runs.
func (e *Env) openRoot() (*os.Root, error) {
	r, err := os.OpenRoot(e.realRoot())
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	return r, nil
}

// openRegular opens rel for reading through r: a regular file, never a
// FIFO, device or socket (which would block or never end), and without
// blocking on one. Refusals are the model's to fix.
func openRegular(r *os.Root, rel string) (*os.File, os.FileInfo, error) {
	f, fi, err := span.OpenRegular(r, rel)
	switch {
	case errors.Is(err, span.ErrNotRegular):
		if st, serr := r.Stat(rel); serr == nil && st.IsDir() {
			return nil, nil, fixf(nil, "%s is a directory. Use Glob or Bash ls to list it.", rel)
		}
		return nil, nil, fixf(nil, "%s is not a regular file (%v); only regular files can be read.", rel, errors.Unwrap(err))
	case err != nil:
		return nil, nil, pathErr(rel, err)
	}
	return f, fi, nil
}

// checkSearchTarget refuses a path named for searching that is neither a
// directory nor a regular file: rg reads a named FIFO until a writer comes.
func (e *Env) checkSearchTarget(rel string) error {
	r, err := e.openRoot()
	if err != nil {
		return err
	}
	defer r.Close()
	fi, err := r.Stat(rel)
	if err != nil {
		return pathErr(rel, err)
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return fixf(nil, "%s is not a regular file or a directory (%s); only those can be searched.", rel, fi.Mode().Type())
	}
	return nil
}

// pathErr turns an os.Root error on rel into a fixable one when it is the
// model's to fix (missing, a directory, leading out), or returns it as is.
func pathErr(rel string, err error) error {
	switch {
	case isEscape(err):
		return fixf(ErrOutsideWorkspace, "%s: the path leads out of the workspace through a symlink; only files inside the workspace can be used.", rel)
	case errors.Is(err, fs.ErrNotExist):
		return fixf(fs.ErrNotExist, "%s does not exist. Check the path with Glob.", rel)
	case errors.Is(err, fs.ErrPermission):
		return fixf(fs.ErrPermission, "%s: permission denied.", rel)
	}
	return err
}

// resolve is Resolve with its errors made fixable.
func (e *Env) resolve(p string) (string, error) {
	rel, err := e.Resolve(p)
	if err != nil {
		if errors.Is(err, ErrOutsideWorkspace) || errors.Is(err, ErrInvalidPath) {
			return "", &fixable{msg: err.Error() + ". Give a path inside the workspace " + e.Root + ".", err: err}
		}
		return "", err
	}
	return rel, nil
}

// readFile reads a whole regular file through the root, up to max bytes.
func (e *Env) readFile(rel string, max int64) ([]byte, os.FileInfo, error) {
	r, err := e.openRoot()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	f, fi, err := openRegular(r, rel)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, nil, fixf(nil, "%s is too large (%d bytes, limit %d).", rel, fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if int64(len(data)) > max {
		return nil, nil, fixf(nil, "%s is too large (over %d bytes).", rel, max)
	}
	return data, fi, nil
}

// writeFile replaces rel's content atomically: a temp file in the same
// directory, fsync, rename over the name, fsync of the directory. All of it
// happens through an os.Root opened on the parent directory, so a directory
// swapped for a symlink mid-write cannot redirect it, and renaming over a
// hard link leaves the other inode untouched. A final symlink that stays
// inside the workspace is written through (the link is kept); one that leads
// out is refused. With mkdir, missing parent directories are created. It
// returns the path written (the symlink's target for a link) and its info.
func (e *Env) writeFile(rel string, data []byte, perm os.FileMode, mkdir bool) (string, os.FileInfo, error) {
	r, err := e.openRoot()
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	target, err := linkTarget(r, rel)
	if err != nil {
		if errors.Is(err, ErrOutsideWorkspace) {
			return "", nil, fixf(ErrOutsideWorkspace, "%s: %v. Only files inside the workspace can be written.", rel, err)
		}
		return "", nil, pathErr(rel, err)
	}
	if target == "." {
		return "", nil, fixf(nil, "%s is the workspace directory, not a file.", rel)
	}
	dir, base := path.Split(target)
	if dir == "" {
		dir = "."
	}
	if mkdir && dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return "", nil, pathErr(dir, err)
		}
	}
	d, err := r.OpenRoot(dir)
	if err != nil {
		return "", nil, pathErr(dir, err)
	}
	defer d.Close()
	if fi, err := d.Lstat(base); err == nil {
		if fi.IsDir() {
			return "", nil, fixf(nil, "%s is a directory.", target)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			// Swapped for a symlink since linkTarget looked: refuse rather than chase it.
			return "", nil, fixf(ErrStale, "%s changed while it was being written; try again.", target)
		}
		perm = fi.Mode().Perm()
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := "." + base + ".grit-tmp-" + hex.EncodeToString(rnd[:])
	f, err := d.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", nil, fmt.Errorf("write %s: %w", target, err)
	}
	fail := func(err error) (string, os.FileInfo, error) {
		f.Close()
		d.Remove(tmp)
		return "", nil, fmt.Errorf("write %s: %w", target, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := d.Rename(tmp, base); err != nil {
		d.Remove(tmp)
		return "", nil, fmt.Errorf("write %s: %w", target, err)
	}
	if df, err := d.Open("."); err == nil {
		df.Sync()
		df.Close()
	}
	return target, fi, nil
}

// fileLocks serialises check-then-write on one file across every Env in the
// process, so two sessions editing from the same read cannot both win.
var fileLocks sync.Map // absolute path → *sync.Mutex

func (e *Env) lockFile(rel string) func() {
	m, _ := fileLocks.LoadOrStore(e.Abs(rel), new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// isBinary reports whether data looks binary: a NUL in its first 8 KB.
func isBinary(data []byte) bool {
	if len(data) > binarySniff {
		data = data[:binarySniff]
	}
	for _, b := range data {
		if b == 0 {
			return true
		}
	}
	return false
}

// isUTF16 reports a UTF-16 byte-order mark.
func isUTF16(data []byte) bool {
	return len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF)
}
