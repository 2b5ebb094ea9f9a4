package edit

import "github.com/grit-dev/grit/internal/lazyre"

// lazyRegexp compiles an expression on first use (package lazyre).
var lazyRegexp = lazyre.New
