package tool

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors callers branch on. Tools report them to the model as a
// Result with IsError set; the internal run functions return them wrapped so
// tests and callers can use errors.Is.
var (
	// ErrOutsideWorkspace: the path escapes the workspace root (.., an
	// absolute path elsewhere, ~, or a symlink that leads out).
	ErrOutsideWorkspace = errors.New("path is outside the workspace")
	// ErrInvalidPath: empty or holding a NUL byte.
	ErrInvalidPath = errors.New("invalid path")
	// ErrNotRead: Edit or Write of an existing file the model has not read.
	ErrNotRead = errors.New("file has not been read yet")
	// ErrStale: the file changed since the model read it.
	ErrStale = errors.New("file changed since it was read")
)

// fixable is a mistake the model can correct. Run turns it into a Result
// with IsError set; any other error is a broken environment and ends the turn.
type fixable struct {
	msg string
	err error // the sentinel, or nil
}

func (f *fixable) Error() string { return f.msg }
func (f *fixable) Unwrap() error { return f.err }

// fixf makes a fixable error wrapping sentinel (which may be nil).
func fixf(sentinel error, format string, args ...any) error {
	return &fixable{msg: fmt.Sprintf(format, args...), err: sentinel}
}

// finish maps a tool's internal outcome to Run's: fixable errors become
// error results for the model.
func finish(res Result, err error) (Result, error) {
	var f *fixable
	if errors.As(err, &f) {
		return Result{Content: f.msg, IsError: true}, nil
	}
	return res, err
}

// isEscape reports whether err is os.Root refusing a path that leads out of
// the root. The os package does not export that error; its text is stable.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}
