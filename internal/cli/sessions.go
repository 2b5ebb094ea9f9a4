package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/session"
	"github.com/spf13/cobra"
)

func newSessionsCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List this project's agent sessions, newest first",
		Long: `List the agent sessions recorded for the current directory's project, newest
first: the ID to pass to grit -r, when it was last active, how many prompts
it holds, and its first prompt.

Transcripts are JSONL files in $XDG_DATA_HOME/grit/sessions/<project>/
(default ~/.local/share), one record per line.`,
		Example: `  grit sessions
  grit sessions --json | jq -r '.[0].session_id'
  grit -r "$(grit sessions --json | jq -r '.[0].session_id')" -p "continue"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			wd, err := permission.WorkspaceRoot("")
			if err != nil {
				return err
			}
			st, err := session.NewStore("", wd)
			if err != nil {
				return err
			}
			infos, err := st.List()
			if err != nil {
				return err
			}
			if asJSON {
				if infos == nil {
					infos = []session.Info{}
				}
				enc := json.NewEncoder(e.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			if len(infos) == 0 {
				fmt.Fprintf(e.Err, "no sessions for %s yet (start one with grit or grit -p)\n", wd)
				return nil
			}
			tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SESSION\tUPDATED\tPROMPTS\tFIRST PROMPT")
			for _, in := range infos {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", in.ID, in.Updated.Local().Format(time.DateTime), in.Turns, oneLine(in.FirstPrompt, 60))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
