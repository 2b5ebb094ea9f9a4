package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/provider"
)

// summaryMaxTokens bounds a summary of a fetched page: an answer to one
// prompt, not a copy.
const summaryMaxTokens = 2048

// Summarize answers prompt from content with the conversation's model, in
// a call of its own (no tools, no history); its usage counts as the
// session's. WebFetch uses it for pages over its budget.
func (a *Agent) Summarize(ctx context.Context, prompt, content string) (string, error) {
	p := a.Provider()
	req := &provider.Request{
		System: "You answer a question from a web page's content. Quote code, commands and exact values verbatim; say so when the page does not hold the answer.",
		Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText,
			Text: "<page>\n" + content + "\n</page>\n\n" + prompt}}}},
		MaxTokens: summaryMaxTokens,
	}
	resp, err := p.Send(ctx, req, nil)
	if resp != nil {
		a.addUsage(p.Name(), resp.Usage)
	}
	if err != nil {
		return "", fmt.Errorf("summarize with %s: %w", p.Name(), err)
	}
	return strings.TrimSpace(resp.Message().Text()), nil
}
