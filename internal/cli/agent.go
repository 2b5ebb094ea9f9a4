package cli

import (
	"github.com/spf13/cobra"
)

// newAgentCmd is the root command: `grit` (interactive), `grit -p` (headless),
// `-c` and `-r` (resume). The agent core fills it in.
func newAgentCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "grit",
		Short: "Grit: a coding-agent harness that carries the intelligence so the model only edits",
		Long: `Grit indexes a repository with tree-sitter, finds the code a task is about with
deterministic signals (no model), and has a model rewrite one whole function,
verified by the tests.

Start here:
  grit index            index the current repository into .grit/index.db
  grit search "task"    rank the functions a task is about, with every signal's score
  grit explore          the web explorer over the index and the search`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	return cmd
}
