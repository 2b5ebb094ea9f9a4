package contextlayer

import (
	"fmt"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextfiles"
)

// SubagentTypes are the Task tool's subagents: the built-in ones and the
// custom ones of the user and, when trusted, of the repository (.claude/
// and .grit/ agents; one of the same name replaces a built-in). The
// strings are warnings for the user.
func SubagentTypes(root string, co config.LoadOptions, trusted bool) ([]agent.SubagentType, []string) {
	types := agent.BuiltinSubagents()
	defs, warnings, err := contextfiles.FindAgents(contextfiles.Options{Root: root, Home: co.Home, Getenv: co.Getenv}, trusted)
	if err != nil {
		return types, []string{fmt.Sprintf("agents not loaded: %v", err)}
	}
	for _, d := range defs {
		replaced := false
		ty := agent.SubagentType{Name: d.Name, Description: d.Description, Tools: d.Tools, Model: d.Model, Prompt: d.Prompt}
		for i := range types {
			if types[i].Name == d.Name {
				types[i], replaced = ty, true
			}
		}
		if !replaced {
			types = append(types, ty)
		}
	}
	return types, warnings
}
