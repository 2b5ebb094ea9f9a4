// Package lazyre holds regular expressions that compile on first use:
// compiling every package's expressions when it loads cost each grit
// command, 'grit version' included, a few milliseconds of start-up. New is
// safe for concurrent use; All lists what was registered, for tests.
package lazyre

import (
	"regexp"
	"sync"
)

// all are the registered expressions; registration happens in package
// variable initialisers, which Go runs one at a time, and mu guards later
// calls.
var (
	mu  sync.Mutex
	all []func() *regexp.Regexp
)

// New returns a function compiling expr once, on its first call.
func New(expr string) func() *regexp.Regexp {
	f := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	mu.Lock()
	all = append(all, f)
	mu.Unlock()
	return f
}

// All returns every expression registered so far.
func All() []func() *regexp.Regexp {
	mu.Lock()
	defer mu.Unlock()
	return append([]func() *regexp.Regexp(nil), all...)
}
