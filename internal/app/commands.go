package app

import (
	"context"
	"fmt"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/contextlayer"
)

// RunPrompt expands line (ExpandPrompt) and runs it as one turn, with the
// command's allowed-tools and model in force for that turn only.
func (s *AgentSession) RunPrompt(ctx context.Context, l *contextlayer.Layer, line string) (agent.Result, error) {
	p := contextlayer.Prompt{Text: line}
	if l != nil {
		var err error
		if p, err = l.ExpandPrompt(ctx, s.env, line); err != nil {
			return agent.Result{IsError: true, Text: err.Error()}, err
		}
	}
	if len(p.AllowedTools) > 0 {
		undo, err := s.Engine.AllowForTurn(p.AllowedTools)
		if err != nil {
			err = fmt.Errorf("command /%s: %w", p.Command, err)
			return agent.Result{IsError: true, Text: err.Error()}, err
		}
		defer undo()
	}
	if p.Model != "" && p.Model != s.Model {
		prev, prevModel := s.Agent.Provider(), s.Model
		if err := s.SetModel(p.Model); err != nil {
			err = fmt.Errorf("command /%s: %w", p.Command, err)
			return agent.Result{IsError: true, Text: err.Error()}, err
		}
		defer func() { s.Agent.SetProvider(prev); s.Model = prevModel }()
	}
	return s.Agent.RunWith(ctx, p.Text, p.Images)
}
