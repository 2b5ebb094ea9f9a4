package lazyre_test

import (
	"testing"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/lazyre"
	"github.com/grit-dev/grit/internal/search"
)

// The packages whose expressions TestLazyRegexps compiles.
var _, _ = edit.Hash, search.Run

// TestLazyRegexps compiles every regular expression registered by the
// packages that use lazyre, as loading them did before they became lazy.
func TestLazyRegexps(t *testing.T) {
	if len(lazyre.All()) == 0 {
		t.Fatal("no regular expressions registered")
	}
	for _, re := range lazyre.All() {
		re()
	}
}
