package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
	"github.com/grit-dev/grit/internal/span"
)

// openFileIndex opens and updates the index of the repository holding file.
func openFileIndex(e *env, file string) (*index.Index, string, error) {
	root, rel, _, err := readRepoFile(file)
	if err != nil {
		return nil, "", err
	}
	if err := treesitter.NotBuiltInError(rel); err != nil {
		return nil, "", fmt.Errorf("%s: %w", rel, err) // not "not in the index": say why
	}
	ix, err := app.OpenIndex(e.ctx, root, index.Options{Warn: warner(e)})
	if err != nil {
		return nil, "", err
	}
	if err := ix.UpdateFiles(e.ctx, rel); err != nil {
		ix.Close()
		return nil, "", err
	}
	return ix, rel, nil
}

// readRepoFile finds file's repository and reads file through it: a
// regular file inside the repository, never through a symlink that leads
// out of it (grit index skips those), never a FIFO or device. The same
// rule as the index, the agent's tools, MCP and the explorer.
func readRepoFile(file string) (root, rel string, src []byte, err error) {
	if _, err := os.Lstat(file); err != nil {
		return "", "", nil, withCode(ExitNotFound, fmt.Errorf("%s: no such file", file))
	}
	root, rel, err = repoRoot(file)
	if err != nil {
		return "", "", nil, err
	}
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", "", nil, usageErrorf("%s is outside the repository %s: run grit from the repository that holds it", file, root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return "", "", nil, err
	}
	defer r.Close()
	src, err = span.ReadRegular(r, filepath.FromSlash(rel), 0)
	switch {
	case errors.Is(err, span.ErrNotRegular):
		return "", "", nil, usageErrorf("%s: %v", file, errors.Unwrap(err))
	case errors.Is(err, fs.ErrNotExist):
		return "", "", nil, withCode(ExitNotFound, fmt.Errorf("%s: no such file", file))
	case err != nil && strings.Contains(err.Error(), "path escapes from parent"):
		return "", "", nil, usageErrorf("%s leads out of the repository %s through a symlink; grit reads files inside it only", file, root)
	case err != nil:
		return "", "", nil, err
	}
	return root, rel, src, nil
}

func newSymbolsCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "symbols FILE",
		Short: "List a file's definitions: kind, qualified name, signature, lines, byte range",
		Long: `Symbols prints the definitions the index holds for FILE (functions, methods,
classes and types, Python module-level assignments), in source order, with their
qualified name (Class.method, outer.inner), signature, line range and exact byte
range [start, end): the file's bytes in that range are the definition's source,
decorators included. The file is re-indexed first if it changed.`,
		Example: `  grit symbols requests/sessions.py
  grit symbols --json internal/index/index.go | jq '.[].qname'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ix, rel, err := openFileIndex(e, args[0])
			if err != nil {
				return err
			}
			defer ix.Close()
			defs, err := ix.Symbols(e.ctx, rel)
			if err != nil {
				return err
			}
			if asJSON {
				if defs == nil {
					defs = []index.Def{}
				}
				return writeJSON(e.Out, defs)
			}
			for _, d := range defs {
				fmt.Fprintf(e.Out, "%-8s %-40s %d-%d [%d,%d)  %s\n", d.Kind, d.QName, d.StartLine, d.EndLine, d.Start, d.End, d.Signature)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
