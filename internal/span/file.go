package span

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular means a path names something other than a regular file (a
// directory, FIFO, device or socket). Every reader of repository files
// refuses these: opening a FIFO blocks until a writer comes, reading a
// device may never end.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge means a file is over the reader's size limit.
var ErrTooLarge = errors.New("file too large")

// OpenRegular opens rel under root for reading, refusing anything but a
// regular file. The open never blocks (O_NONBLOCK, which does nothing to
// a regular file's reads), and the type is checked on the opened file, so
// a name swapped for a FIFO after a check cannot hang the caller.
func OpenRegular(root *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	return checkRegular(f, rel)
}

// ReadRegular reads all of rel under root, a regular file of at most max
// bytes (max <= 0: no limit).
func ReadRegular(root *os.Root, rel string, max int64) ([]byte, error) {
	f, fi, err := OpenRegular(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, fi, rel, max)
}

// ReadFile is os.ReadFile for a file that must be regular, with the same
// never-blocking open and a size limit (max <= 0: none). For paths that
// are not confined to a root (the root itself is chosen by the user).
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	f, fi, err := checkRegular(f, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, fi, path, max)
}

func checkRegular(f *os.File, name string) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		what := "a directory"
		switch t := fi.Mode().Type(); {
		case t&fs.ModeNamedPipe != 0:
			what = "a FIFO"
		case t&fs.ModeSocket != 0:
			what = "a socket"
		case t&fs.ModeDevice != 0:
			what = "a device"
		case !fi.IsDir():
			what = "not a file"
		}
		return nil, nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, what)}
	}
	return f, fi, nil
}

func readAll(f *os.File, fi fs.FileInfo, name string, max int64) ([]byte, error) {
	if max > 0 && fi.Size() > max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, fi.Size(), max)}
	}
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	b := make([]byte, 0, fi.Size()+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	if max > 0 && int64(len(b)) > max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (over %d bytes)", ErrTooLarge, max)}
	}
	return b, nil
}
