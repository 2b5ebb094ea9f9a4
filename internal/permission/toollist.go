package permission

import (
	"strings"

	"github.com/grit-dev/grit/internal/config"
)

// RemovedTools are the bare tool names of a disallow list (Claude Code's
// --disallowedTools): such a tool is taken out of the model's list, while a
// rule with a pattern ("Bash(rm:*)") only denies matching calls.
func RemovedTools(disallowed []string) map[string]bool {
	out := map[string]bool{}
	for _, r := range config.SplitToolList(disallowed) {
		if !strings.Contains(r, "(") {
			out[r] = true
		}
	}
	return out
}
