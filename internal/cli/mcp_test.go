package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPStdio runs `grit mcp DIR` through Main with its stdin and stdout
// wired to an MCP client from the SDK.
func TestMCPStdio(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.py"), []byte("def add(a, b):\n    return a + b\n\n\ndef twice(x):\n    return add(x, x)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()   // client → grit's stdin
	outR, outW := io.Pipe() // grit's stdout → client
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Main(context.Background(), []string{"mcp", "--allow-edits", dir}, Stdio{In: inR, Out: outW, Err: &stderr})
		outW.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
		&sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 8 {
		t.Errorf("grit mcp --allow-edits lists %d tools, want 8", len(tools.Tools))
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "callers", Arguments: map[string]any{"name": "add"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; res.IsError || !strings.Contains(text, "calc.py:6 in twice | return add(x, x)") {
		t.Errorf("callers over grit mcp: %s", text)
	}
	cs.Close()
	inW.Close()
	if code := <-done; code != ExitOK {
		t.Errorf("grit mcp exited %d, want %d; stderr:\n%s", code, ExitOK, stderr.String())
	}
	if !strings.Contains(stderr.String(), "grit mcp: serving ") || !strings.Contains(stderr.String(), "(edits allowed)") {
		t.Errorf("stderr = %q, want the serving line", stderr.String())
	}
}

func TestMCPUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"non-loopback without token", []string{"mcp", "--http", "0.0.0.0:0", dir}, ExitUsage, "without an explicit --token"},
		{"bad address", []string{"mcp", "--http", "8765", dir}, ExitUsage, "expected HOST:PORT"},
		{"token without http", []string{"mcp", "--token", "t", dir}, ExitUsage, "--token only applies with --http"},
		{"missing repository", []string{"mcp", filepath.Join(dir, "nope")}, ExitError, "no such file or directory"},
		{"two paths", []string{"mcp", dir, dir}, ExitUsage, "give at most one PATH (got 2)"},
		{"help", []string{"mcp", "--help"}, ExitOK, "claude mcp add grit -- grit mcp /path/to/repo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(context.Background(), tc.args, Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
			if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
				t.Errorf("grit %v = %d, %q; want %d and %q", tc.args, code, out.String()+errb.String(), tc.code, tc.want)
			}
		})
	}
}
