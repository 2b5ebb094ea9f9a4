package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/contextlayer"
)

type initFlags struct {
	force, dryRun, json bool
}

func newInitCmd(e *env) *cobra.Command {
	var f initFlags
	cmd := &cobra.Command{
		Use:   "init [PATH]",
		Short: "Write a starting AGENTS.md from what the index knows about the repository",
		Long: `Init indexes the repository at PATH (default: the current directory) and writes
PATH/AGENTS.md: the test and build commands it detects, the languages with their
file counts, the layout (each top-level directory with its files and languages)
and the entry points (main functions, __main__.py, ...).

AGENTS.md is loaded into the system prompt of every grit session (CLAUDE.md too,
and ~/.config/grit/AGENTS.md for instructions of your own), so keep it short and
true: edit what init wrote. An existing AGENTS.md is never replaced without --force.`,
		Example: `  grit init                # write ./AGENTS.md
  grit init --dry-run      # print what would be written
  grit init --force        # replace an existing AGENTS.md`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := rootArg(args)
			if err != nil {
				return err
			}
			rep, err := app.InitAgentsMD(e.ctx, root, f.force, f.dryRun)
			if errors.Is(err, contextlayer.ErrExists) {
				return usageErrorf("%v", err)
			}
			if err != nil {
				return err
			}
			switch {
			case f.json:
				return writeJSON(e.Out, rep)
			case f.dryRun:
				fmt.Fprint(e.Out, rep.Text)
			default:
				fmt.Fprintf(e.Out, "Wrote %s (%d files indexed, %d languages). Edit it: it is loaded into every session.\n", rep.Path, rep.Files, len(rep.Languages))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&f.force, "force", false, "replace an existing AGENTS.md")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the file instead of writing it")
	cmd.Flags().BoolVar(&f.json, "json", false, "print the findings and the text as JSON")
	return cmd
}
