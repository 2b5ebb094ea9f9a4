package search

import "github.com/grit-dev/grit/internal/lazyre"

// lazyRegexp compiles an expression on first use (package lazyre).
var lazyRegexp = lazyre.New
