package tui

import (
	"context"
	"encoding/json"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/grit-dev/grit/internal/agent"
)

// Program is a running interface.
type Program struct {
	p *tea.Program
	m *model
}

// New builds the interface on a terminal's input and output.
func New(ctx context.Context, o Options, in io.Reader, out io.Writer) *Program {
	m := newModel(o)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	return &Program{p: p, m: m}
}

// Run shows the interface until the user quits.
func (p *Program) Run() error {
	_, err := p.p.Run()
	if err == tea.ErrProgramKilled && p.m.quit {
		return nil
	}
	return err
}

// Event passes one of the agent's events to the interface (any goroutine).
func (p *Program) Event(ev agent.Event) { p.p.Send(eventMsg{ev}) }

// Ask shows a permission dialog and waits for the answer; summary is the
// call's main argument, rules what "always" would allow.
func (p *Program) Ask(ctx context.Context, tool string, input json.RawMessage, reason string, rules []string) (Answer, error) {
	reply := make(chan Answer, 1)
	p.p.Send(askMsg{Tool: tool, Summary: summarizeInput(tool, input), Reason: reason, Rules: rules, Input: input, reply: reply})
	select {
	case a := <-reply:
		return a, nil
	case <-ctx.Done():
		p.p.Send(dismissMsg{})
		return Deny, ctx.Err()
	}
}

// dismissMsg closes a dialog whose question was withdrawn (the turn ended).
type dismissMsg struct{}
