package tool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grit-dev/grit/internal/tool"
)

// named is a tool with a name and a description that answers "ok".
type named struct{ name, desc string }

func (n named) Name() string        { return n.name }
func (n named) Description() string { return n.desc }
func (n named) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)
}
func (n named) Run(context.Context, *tool.Env, json.RawMessage) (tool.Result, error) {
	return tool.Result{Content: "ok"}, nil
}

func specNames(r *tool.Registry) []string {
	var out []string
	for _, s := range r.Specs() {
		out = append(out, s.Name)
	}
	return out
}

func TestToolSearch(t *testing.T) {
	tests := []struct {
		name, query string
		isErr       bool
		wantLoaded  []string // Specs after the call, in registration order
		wantText    string
	}{
		{"select by exact names", `select:WebFetch, mcp__github__create_issue`, false,
			[]string{"Read", "ToolSearch", "WebFetch", "mcp__github__create_issue"}, "Loaded 2 tool(s)"},
		{"keyword in the name", `github issue`, false,
			[]string{"Read", "ToolSearch", "mcp__github__create_issue", "mcp__github__list_issues"}, "Loaded 2 tool(s)"},
		{"keyword in the description", `notebook`, false,
			[]string{"Read", "ToolSearch", "NotebookEdit"}, "NotebookEdit"},
		{"no match lists the deferred tools", `kubernetes`, false,
			[]string{"Read", "ToolSearch"}, "Deferred tools: NotebookEdit, WebFetch, mcp__github__create_issue, mcp__github__list_issues"},
		{"unknown selected name", `select:Nope`, true, []string{"Read", "ToolSearch"}, "No tool is called Nope"},
		{"empty query", ``, true, []string{"Read", "ToolSearch"}, "needs a query"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := tool.NewRegistry(named{"Read", "Reads files."})
			reg.Add(tool.ToolSearch{Registry: reg})
			for _, d := range []named{
				{"WebFetch", "Fetches a URL and returns its text."},
				{"NotebookEdit", "Edits a Jupyter notebook cell."},
				{"mcp__github__create_issue", "Create an issue in a GitHub repository."},
				{"mcp__github__list_issues", "List issues of a repository."},
			} {
				reg.Add(d)
				if err := reg.SetDeferred(d.name); err != nil {
					t.Fatal(err)
				}
			}
			ts, _ := reg.Get("ToolSearch")
			input, _ := json.Marshal(map[string]string{"query": tc.query})
			res := run(t, ts, nil, string(input))
			if res.IsError != tc.isErr || !strings.Contains(res.Content, tc.wantText) {
				t.Errorf("ToolSearch(%q) = %+v, want IsError=%v and %q", tc.query, res, tc.isErr, tc.wantText)
			}
			if d := cmp.Diff(tc.wantLoaded, specNames(reg)); d != "" {
				t.Errorf("ToolSearch(%q): Specs (-want +got):\n%s", tc.query, d)
			}
		})
	}
}
