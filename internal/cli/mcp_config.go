package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/mcpclient"
)

// mcpAddFlags are grit mcp add's flags, Claude Code's names.
type mcpAddFlags struct {
	scope     string
	transport string
	env       []string
	headers   []string
}

// newMCPConfigCmds are grit mcp add, remove and list: they edit the MCP
// servers the agent connects to (.mcp.json or the user's settings).
func newMCPConfigCmds(e *env) []*cobra.Command {
	var f mcpAddFlags
	add := &cobra.Command{
		Use:   "add NAME COMMAND [ARGS...] | add --transport http NAME URL",
		Short: "Add an MCP server for the agent (to .mcp.json, or the user's settings with --scope user)",
		Example: `  grit mcp add files -- npx -y @modelcontextprotocol/server-filesystem .
  grit mcp add --scope user grit -- grit mcp
  grit mcp add --transport http docs https://example.com/mcp -H "Authorization: Bearer $TOKEN"`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			s := mcpclient.Server{}
			switch f.transport {
			case "stdio":
				s.Command, s.Args = args[1], args[2:]
			case "http":
				if len(args) != 2 {
					return usageErrorf("an http server takes NAME URL (got %d arguments)", len(args))
				}
				s.Type, s.URL = "http", args[1]
			default:
				return usageErrorf("unknown --transport %q (expected: stdio, http)", f.transport)
			}
			for _, kv := range f.env {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return usageErrorf("-e %q: want KEY=VALUE", kv)
				}
				if s.Env == nil {
					s.Env = map[string]string{}
				}
				s.Env[k] = v
			}
			for _, h := range f.headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok || strings.TrimSpace(k) == "" {
					return usageErrorf("-H %q: want \"Name: value\"", h)
				}
				if s.Headers == nil {
					s.Headers = map[string]string{}
				}
				s.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			if err := s.Validate(args[0]); err != nil {
				return usageError{err}
			}
			path, err := mcpclient.ConfigPath(f.scope, "", config.LoadOptions{})
			if err != nil {
				return usageError{err}
			}
			err = mcpclient.Edit(path, func(m map[string]mcpclient.Server) (map[string]mcpclient.Server, error) {
				m[args[0]] = s
				return m, nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(e.Out, "Added MCP server %s to %s\n", args[0], path)
			if f.scope != "user" {
				fmt.Fprintln(e.Err, "grit: .mcp.json is the repository's own: it is used once the repository is trusted (grit trust)")
			}
			return nil
		},
	}
	add.Flags().StringVarP(&f.scope, "scope", "s", "project", "where to add it: project (.mcp.json) or user (settings.json)")
	add.Flags().StringVarP(&f.transport, "transport", "t", "stdio", "stdio (a command) or http (streamable HTTP at a URL)")
	add.Flags().StringArrayVarP(&f.env, "env", "e", nil, "`KEY=VALUE` for a stdio server's environment")
	add.Flags().StringArrayVarP(&f.headers, "header", "H", nil, "`\"Name: value\"` header for an http server")

	var rmScope string
	remove := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an MCP server",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := mcpclient.ConfigPath(rmScope, "", config.LoadOptions{})
			if err != nil {
				return usageError{err}
			}
			err = mcpclient.Edit(path, func(m map[string]mcpclient.Server) (map[string]mcpclient.Server, error) {
				if _, ok := m[args[0]]; !ok {
					names := make([]string, 0, len(m))
					for n := range m {
						names = append(names, n)
					}
					sort.Strings(names)
					return nil, usageErrorf("no MCP server %q in %s (it has: %s)", args[0], path, strings.Join(names, ", "))
				}
				delete(m, args[0])
				return m, nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(e.Out, "Removed MCP server %s from %s\n", args[0], path)
			return nil
		},
	}
	remove.Flags().StringVarP(&rmScope, "scope", "s", "project", "project (.mcp.json) or user (settings.json)")

	var asJSON, check bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the MCP servers the agent would use (--check connects to each)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return mcpList(e, asJSON, check)
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	list.Flags().BoolVar(&check, "check", false, "connect to each server and count its tools")
	return []*cobra.Command{add, remove, list}
}

func mcpList(e *env, asJSON, check bool) error {
	servers, warnings, err := mcpclient.Servers("", config.LoadOptions{}, "")
	if err != nil {
		return err
	}
	var status []mcpclient.Status
	if check {
		if status, warnings, err = mcpclient.Check(e.ctx, ""); err != nil {
			return err
		}
	}
	for _, w := range warnings {
		fmt.Fprintf(e.Err, "grit: %s\n", w)
	}
	if asJSON {
		out := struct {
			Servers []mcpclient.Named  `json:"servers"`
			Status  []mcpclient.Status `json:"status,omitempty"`
		}{append([]mcpclient.Named{}, servers...), status}
		return json.NewEncoder(e.Out).Encode(out)
	}
	if len(servers) == 0 {
		fmt.Fprintln(e.Out, "No MCP servers (grit mcp add NAME COMMAND... adds one).")
		return nil
	}
	for i, s := range servers {
		what := strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
		if s.Type == "http" {
			what = s.URL
		}
		line := fmt.Sprintf("%-16s %-8s %s", s.Name, s.Source, what)
		if check {
			line += "  · " + statusLine(status[i])
		}
		fmt.Fprintln(e.Out, line)
	}
	return nil
}

// statusLine says a server's state in a few words.
func statusLine(s mcpclient.Status) string {
	switch {
	case s.Error != "":
		return s.State + ": " + oneLine(s.Error, 120)
	case s.State == mcpclient.StateConnected:
		return fmt.Sprintf("connected, %d tools", s.Tools)
	}
	return s.State
}

// mcpCheck is grit doctor's line for the MCP servers.
func mcpCheck(ctx context.Context, root string) doctorResult {
	r := doctorResult{Name: "mcp servers", OK: true}
	status, warnings, err := mcpclient.Check(ctx, root)
	if err != nil {
		r.OK, r.Detail = false, err.Error()
		return r
	}
	if len(status) == 0 {
		r.Detail = "none configured"
	}
	var parts []string
	for _, s := range status {
		parts = append(parts, s.Name+": "+statusLine(s))
		if s.State != mcpclient.StateConnected {
			r.OK = false
			r.Fix = "check the server's command in .mcp.json or settings (grit mcp list --check)"
		}
	}
	parts = append(parts, warnings...)
	if len(parts) > 0 {
		r.Detail = strings.Join(parts, "; ")
	}
	return r
}

func slashMCP(ctx context.Context, c *chat, arg string) error {
	status := c.s.MCPStatus()
	if len(status) == 0 {
		fmt.Fprintln(c.e.Out, "No MCP servers (grit mcp add adds one).")
		return nil
	}
	for _, s := range status {
		fmt.Fprintf(c.e.Out, "  %-16s %-8s %-6s %s\n", s.Name, s.Source, s.Transport, statusLine(s))
		if s.Log != "" {
			fmt.Fprintf(c.e.Out, "  %-16s log: %s\n", "", s.Log)
		}
	}
	return nil
}
