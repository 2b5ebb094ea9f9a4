package search

import "testing"

// TestLazyRegexps compiles every regular expression of the package, as
// loading it did before they became lazy.
func TestLazyRegexps(t *testing.T) {
	if len(lazyRegexps) == 0 {
		t.Fatal("no regular expressions registered")
	}
	for _, re := range lazyRegexps {
		re()
	}
}
