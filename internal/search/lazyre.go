package search

import (
	"regexp"
	"sync"
)

// lazyRegexps are the package's regular expressions, each compiled on first
// use: compiling them all when the package loads cost every grit command,
// 'grit version' included, a few milliseconds of start-up.
var lazyRegexps []func() *regexp.Regexp

// lazyRegexp returns a function compiling expr once, on its first call.
func lazyRegexp(expr string) func() *regexp.Regexp {
	f := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	lazyRegexps = append(lazyRegexps, f)
	return f
}
