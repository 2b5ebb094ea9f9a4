package contextfiles

import (
	"fmt"
	"regexp"
)

// AgentDef is a custom subagent: a Markdown file whose body is the
// subagent's system prompt. Front matter: name and description (required),
// tools (a list; none means the parent's tools) and model ("inherit" or
// none for the parent's model, else PROVIDER:MODEL).
type AgentDef struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tools       []string `json:"tools,omitempty"`
	Model       string   `json:"model,omitempty"`
	Path        string   `json:"path"`
	Source      string   `json:"source"`
	Prompt      string   `json:"-"`
}

var agentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// FindAgents loads custom subagents from .grit/agents and .claude/agents
// (when project: the repository is trusted), then the user's folders. A
// file without a name or description is a warning and is left out.
func FindAgents(opts Options, project bool) ([]AgentDef, []string, error) {
	dirs, err := definitionDirs(opts, project, "agents")
	if err != nil {
		return nil, nil, err
	}
	files, warnings := loadMarkdownDirs(dirs)
	var out []AgentDef
	for _, f := range files {
		switch {
		case !agentName.MatchString(f.Name):
			warnings = append(warnings, fmt.Sprintf("agent %s left out: name %q is not valid (letters, digits, - and _)", f.Path, f.Name))
			continue
		case f.Meta["description"] == "":
			warnings = append(warnings, fmt.Sprintf("agent %s left out: no description in its front matter (it tells the model when to use the agent)", f.Path))
			continue
		}
		out = append(out, AgentDef{Name: f.Name, Description: f.Meta["description"], Tools: splitList(f.Meta["tools"]),
			Model: f.Meta["model"], Path: f.Path, Source: f.Source, Prompt: f.Body})
	}
	return out, warnings, nil
}
