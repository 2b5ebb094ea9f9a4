package cli

import (
	"fmt"
	"io"
	"net"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/mcp"
)

// mcpFlags are grit mcp's flags.
type mcpFlags struct {
	http       string
	token      string
	allowEdits bool
}

func newMCPCmd(e *env) *cobra.Command {
	var f mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [PATH]",
		Short: "Serve Grit's index, search and edits to other agents over MCP",
		Long: `Mcp serves the repository at PATH (default: the current directory) as a Model
Context Protocol server, so that Claude Code, Codex, Crush, Cursor or any MCP
client can use Grit's deterministic index of the code.

Tools: locate (rank the code for a task, with per-signal scores), symbols (a
file's definitions), definition (a definition's source and byte range), callers,
callees, edges (a file's imports and importers with weights), repo_map (an
Aider-style map ranked by PageRank around a task) and, with --allow-edits,
edit_function (replace one definition through grit fix's quality checks and
atomic write). Every answer fits a token budget and says what it cut. The index
is refreshed incrementally before each call, so edits made by the client are
seen at once; paths outside the repository are refused.

By default the server speaks over stdin and stdout (how agents launch it). With
--http HOST:PORT it serves the streamable HTTP transport at /mcp instead,
behind a bearer token: a random one printed on stderr unless --token gives it.
A non-loopback address is refused unless --token is given explicitly.`,
		Example: `  claude mcp add grit -- grit mcp /path/to/repo
  grit mcp .                                  # stdio, read-only tools
  grit mcp --allow-edits ~/src/project        # also edit_function
  grit mcp --http 127.0.0.1:8765 .            # HTTP on loopback; token on stderr`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErrorf("grit mcp serves one repository: give at most one PATH (got %d)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root := "."
			if len(args) == 1 {
				root = args[0]
			}
			return runMCP(e, root, f)
		},
	}
	cmd.Flags().StringVar(&f.http, "http", "", "serve streamable HTTP on `HOST:PORT` (loopback) instead of stdio")
	cmd.Flags().StringVar(&f.token, "token", "", "bearer `TOKEN` clients must send over --http (default: a random one, printed)")
	cmd.Flags().BoolVar(&f.allowEdits, "allow-edits", false, "offer the edit_function tool, which rewrites files")
	cmd.AddCommand(newMCPConfigCmds(e)...)
	return cmd
}

func runMCP(e *env, root string, f mcpFlags) error {
	if f.token != "" && f.http == "" {
		return usageErrorf("--token only applies with --http")
	}
	if f.http != "" {
		if err := mcp.CheckAddr(f.http, f.token != ""); err != nil {
			return usageError{err}
		}
	}
	srv, err := mcp.New(e.ctx, mcp.Options{Root: root, AllowEdits: f.allowEdits, Version: Version, Warn: warner(e)})
	if err != nil {
		return err
	}
	defer srv.Close()
	edits := "read-only"
	if f.allowEdits {
		edits = "edits allowed"
	}
	if f.http == "" {
		fmt.Fprintf(e.Err, "grit mcp: serving %s over stdio (%s)\n", srv.Root(), edits)
		t := &sdk.IOTransport{Reader: io.NopCloser(e.In), Writer: nopWriteCloser{e.Out}}
		if err := srv.Run(e.ctx, t); err != nil && e.ctx.Err() == nil {
			return fmt.Errorf("mcp: %w", err)
		}
		return nil
	}
	token := f.token
	if token == "" {
		if token, err = mcp.NewToken(); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", f.http)
	if err != nil {
		return fmt.Errorf("mcp: listen: %w", err)
	}
	fmt.Fprintf(e.Err, "grit mcp: serving %s at http://%s%s (%s)\n", srv.Root(), ln.Addr(), mcp.Endpoint, edits)
	if f.token == "" {
		fmt.Fprintf(e.Err, "grit mcp: token: %s  (send Authorization: Bearer <token>)\n", token)
	}
	return srv.ServeHTTP(e.ctx, ln, token)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
