package search

import (
	"slices"
	"testing"
)

// TestTitleAreas: a title's "area:" or "[Area]" prefix names a part of the
// project; other colons and commit kinds do not.
func TestTitleAreas(t *testing.T) {
	for title, want := range map[string][]string{
		"grpclb: fallback gracefully if no balancer addresses are provided": {"grpclb"},
		"credentials/alts: isRunningOnGCP fatalf's":                         {"credentials/alts"},
		"[CustomParseFormat] parsing fails":                                 {"customparseformat"},
		"core, trace: avoid scoped dispatch overhead":                       {"core", "trace"},
		"fix: crash on empty input":                                         nil,
		"Day.js doesn't parse ISO 8601 timezone offset":                     nil,
		"Error when calling f(x): bad value":                                nil,
	} {
		if got := titleAreas(title); !slices.Equal(got, want) {
			t.Errorf("titleAreas(%q) = %q, want %q", title, got, want)
		}
	}
	for p, want := range map[string]bool{
		"balancer/grpclb/grpclb_picker.go":        true,
		"balancer/grpclb.go":                      true,
		"credentials/alts/utils.go":               true,
		"credentials/oauth/alts.go":               false,
		"src/plugin/customParseFormat/index.js":   true,
		"src/plugin/custom_parse_format_x/a.js":   false,
		"balancer/roundrobin/grpclbish/helper.go": false,
	} {
		if got := inArea(p, []string{"grpclb", "credentials/alts", "customparseformat"}); got != want {
			t.Errorf("inArea(%q) = %v, want %v", p, got, want)
		}
	}
}
