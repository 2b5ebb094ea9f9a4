package mcp

import (
	"context"
	"os"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchSession serves the repository named by GRIT_MCP_BENCH_REPO (a checkout
// of a real project) in memory, indexed once, or skips.
func benchSession(b *testing.B) *sdk.ClientSession {
	root := os.Getenv("GRIT_MCP_BENCH_REPO")
	if root == "" {
		b.Skip("set GRIT_MCP_BENCH_REPO to a repository checkout to run the MCP benchmarks")
	}
	ctx := context.Background()
	s, err := New(ctx, Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		ss.Wait()
		s.Close()
	})
	// The first calls wait for the first index, build the search corpus and
	// load the file graph: steady state is what is measured.
	for _, tool := range []string{"locate", "repo_map"} {
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: map[string]any{"task": "warm up"}}); err != nil {
			b.Fatal(err)
		}
	}
	return cs
}

// BenchmarkCalls measures whole tool calls, each including the incremental
// re-index of an unchanged tree.
func BenchmarkCalls(b *testing.B) {
	cs := benchSession(b)
	for _, bc := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"symbols", "symbols", map[string]any{"file": os.Getenv("GRIT_MCP_BENCH_FILE")}},
		{"locate", "locate", map[string]any{"task": "redirect loses the authorization header", "include_source": true}},
		{"repo_map/task", "repo_map", map[string]any{"task": "redirect loses the authorization header"}},
		{"repo_map/whole", "repo_map", map[string]any{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if bc.tool == "symbols" && bc.args["file"] == "" {
				b.Skip("set GRIT_MCP_BENCH_FILE to a file of the repository")
			}
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: bc.tool, Arguments: bc.args})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %s", bc.tool, err, resultText(res))
				}
			}
		})
	}
}
