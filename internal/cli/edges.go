package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/index"
)

// edgesReport is `grit edges --json`.
type edgesReport struct {
	File       string           `json:"file"`
	Imports    []index.Import   `json:"imports"`
	RefersTo   []index.FileEdge `json:"refers_to"`
	ReferredBy []index.FileEdge `json:"referred_by"`
}

func newEdgesCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "edges FILE",
		Short: "Show what a file imports, what it refers to and who refers to it, with weights",
		Long: `Edges prints FILE's imports (with the repository file each resolves to), the
files it refers to and the files that refer to it.

A reference in file A to a name defined in file B makes an edge A→B. Its weight
says how telling the names are: a snake_case or camelCase name of 8+ characters
counts ×10, a leading underscore ×0.1, a name defined in more than five files
×0.1, and repeated references are dampened by the square root of their count.
Each edge lists its most telling names.`,
		Example: `  grit edges requests/sessions.py
  grit edges --json pkg/core.py | jq '.referred_by[].from'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ix, rel, err := openFileIndex(e, args[0])
			if err != nil {
				return err
			}
			defer ix.Close()
			if _, err := ix.Update(e.ctx); err != nil {
				return err
			}
			r := edgesReport{File: rel}
			if r.Imports, err = ix.Imports(e.ctx, rel); err != nil {
				return err
			}
			if r.RefersTo, err = ix.EdgesFrom(e.ctx, rel); err != nil {
				return err
			}
			if r.ReferredBy, err = ix.EdgesTo(e.ctx, rel); err != nil {
				return err
			}
			if asJSON {
				r.Imports = nonNil(r.Imports)
				r.RefersTo = nonNil(r.RefersTo)
				r.ReferredBy = nonNil(r.ReferredBy)
				return writeJSON(e.Out, r)
			}
			fmt.Fprintf(e.Out, "%s\n\nimports:\n", rel)
			for _, i := range r.Imports {
				what := i.Module
				if len(i.Names) > 0 {
					what += " (" + strings.Join(i.Names, ", ") + ")"
				}
				if i.Alias != "" {
					what += " as " + i.Alias
				}
				res := "external"
				if i.Resolved != "" {
					res = "→ " + i.Resolved
				}
				fmt.Fprintf(e.Out, "  %4d  %s  %s\n", i.Line, what, res)
			}
			fmt.Fprintf(e.Out, "\nrefers to:\n")
			for _, ed := range r.RefersTo {
				fmt.Fprintf(e.Out, "  %8.2f  %s  (%s)\n", ed.Weight, ed.To, strings.Join(ed.Names, ", "))
			}
			fmt.Fprintf(e.Out, "\nreferred to by:\n")
			for _, ed := range r.ReferredBy {
				fmt.Fprintf(e.Out, "  %8.2f  %s  (%s)\n", ed.Weight, ed.From, strings.Join(ed.Names, ", "))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
