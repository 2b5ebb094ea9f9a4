package cli

import (
	"runtime"
	"strings"
	"testing"
)

// TestVersionFlag: `grit --version` and `-v` print what `grit version`
// prints, as users of other CLIs (claude --version) expect.
func TestVersionFlag(t *testing.T) {
	want := "grit " + Version + " (" + runtime.Version() + ")\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		stdout, stderr, code := runGrit(t, "", args...)
		if code != ExitOK || stdout != want {
			t.Errorf("grit %s: exit %d, stdout %q, stderr %q; want exit 0 and %q",
				strings.Join(args, " "), code, stdout, stderr, want)
		}
	}
}
