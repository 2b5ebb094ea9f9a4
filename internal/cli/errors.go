package cli

import (
	"context"
	"errors"
	"fmt"
)

// Exit codes. They are part of the command-line contract.
const (
	ExitOK          = 0   // success
	ExitError       = 1   // the operation failed
	ExitUsage       = 2   // bad flags or arguments
	ExitNotFound    = 3   // nothing matched (a search with no result, an unknown session)
	ExitTestsFailed = 4   // grit fix / goal: the verification never passed
	ExitInterrupted = 130 // Ctrl-C
)

// usageError marks an error as the user's invocation being wrong.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// codeError carries an explicit exit code.
type codeError struct {
	code int
	err  error
}

func (c codeError) Error() string { return c.err.Error() }
func (c codeError) Unwrap() error { return c.err }

// withCode attaches an exit code to err.
func withCode(code int, err error) error { return codeError{code, err} }

// quietError is an error whose message was already shown to the user.
type quietError struct{ code int }

func (q quietError) Error() string { return fmt.Sprintf("exit %d", q.code) }

func exitCode(err error) int {
	var u usageError
	var c codeError
	var q quietError
	switch {
	case errors.As(err, &q):
		return q.code
	case errors.As(err, &c):
		return c.code
	case errors.As(err, &u):
		return ExitUsage
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	}
	return ExitError
}
