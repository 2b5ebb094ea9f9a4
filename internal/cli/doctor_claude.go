package cli

import (
	"strings"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextlayer"
	"github.com/grit-dev/grit/internal/permission"
)

// claudeChecks lists the Claude Code files Grit found for root, what it
// uses and what it ignores, and why: one row each (a warning for a file,
// or part of one, that is ignored).
func claudeChecks(root string) []doctorResult {
	w, err := permission.OpenWorkspace(root, config.LoadOptions{}, "")
	if err != nil {
		return []doctorResult{{Name: "claude", Detail: "cannot read the Claude Code setup: " + err.Error()}}
	}
	files := contextlayer.ClaudeSetup(w, config.LoadOptions{})
	if len(files) == 0 {
		return []doctorResult{{Name: "claude", OK: true, Detail: "no Claude Code files (.claude/, CLAUDE.md, .mcp.json)"}}
	}
	var out []doctorResult
	for _, f := range files {
		r := doctorResult{Name: "claude", OK: f.Used && len(f.Notes) == 0, Detail: f.Kind + " " + f.Path}
		if f.Used {
			r.Detail += ": used"
		}
		if len(f.Notes) > 0 {
			r.Fix = strings.Join(f.Notes, "; ")
		}
		out = append(out, r)
	}
	return out
}
