package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
)

func newASTCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ast FILE[:SYMBOL]",
		Short: "Print a file's tree-sitter syntax tree with byte ranges",
		Long: `AST parses FILE with its tree-sitter grammar and prints the node tree: each node's
type, its field name in the parent, its byte range [start, end) and its line:column
span. ERROR and MISSING nodes are flagged. With :SYMBOL (a name or qualified name
such as Session.get), only that definition's subtree is printed.`,
		Example: `  grit ast pkg/core.py
  grit ast pkg/core.py:Session.get
  grit ast --json lib/lib.go:Greet | jq .type`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file, sym := args[0], ""
			if _, err := os.Stat(file); err != nil {
				if i := strings.LastIndexByte(file, ':'); i > 0 {
					file, sym = file[:i], file[i+1:]
				}
			}
			_, _, src, err := readRepoFile(file)
			if err != nil {
				return err
			}
			var r *[2]int
			if sym != "" {
				ix, rel, err := openFileIndex(e, file)
				if err != nil {
					return err
				}
				defs, err := ix.Symbols(e.ctx, rel)
				ix.Close()
				if err != nil {
					return err
				}
				var names []string
				for _, d := range defs {
					if d.QName == sym || d.Name == sym {
						r = &[2]int{d.Start, d.End}
						break
					}
					names = append(names, d.QName)
				}
				if r == nil {
					return withCode(ExitNotFound, fmt.Errorf("%s has no definition %q (it has: %s)", file, sym, strings.Join(names, ", ")))
				}
			}
			node, err := app.NewParser().AST(e.ctx, filepath.Base(file), src, r)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.Out, node)
			}
			printAST(e.Out, node, 0)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func printAST(w io.Writer, n *index.ASTNode, depth int) {
	if !n.Named && !n.Error {
		return // punctuation and keywords: in the ranges of their parents
	}
	field := ""
	if n.Field != "" {
		field = n.Field + ": "
	}
	flag := ""
	if n.Error {
		flag = "  !" + map[bool]string{true: "ERROR", false: "MISSING"}[n.Type == "ERROR"]
	}
	fmt.Fprintf(w, "%s%s%s [%d,%d) %d:%d-%d:%d%s\n", strings.Repeat("  ", depth), field, n.Type, n.Start, n.End,
		n.StartPos[0], n.StartPos[1], n.EndPos[0], n.EndPos[1], flag)
	for _, c := range n.Children {
		printAST(w, c, depth+1)
	}
}
