package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/edit"
)

func newUndoCmd(e *env) *cobra.Command {
	var (
		force  bool
		asJSON bool
		repo   string
	)
	cmd := &cobra.Command{
		Use:   "undo",
		Short: "Restore the files the last grit fix changed",
		Long: `Undo restores every file the last kept 'grit fix' (or explorer edit) changed,
from the snapshot Grit took under .grit/snapshots before writing. It never
touches .git. If a file was edited after the fix, undo refuses and names it;
--force restores anyway (losing that later edit).`,
		Example: `  grit undo
  grit undo --force --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := app.UndoFix(cmd.Context(), repo, force)
			switch {
			case errors.Is(err, edit.ErrNoSnapshot):
				return withCode(ExitNotFound, errors.New("nothing to undo: no kept grit fix in this repository"))
			case err != nil:
				return err
			}
			if asJSON {
				return json.NewEncoder(e.Out).Encode(res)
			}
			fmt.Fprintf(e.Out, "restored %s (from the fix %q, %s)\n", strings.Join(res.Restored, ", "), res.Task, res.Created)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "restore even files changed after the fix")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().StringVar(&repo, "repo", ".", "repository root")
	return cmd
}
