package cli

import (
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/spf13/cobra"
)

// newSandboxExecCmd is the hidden entry point of the landlock+netns
// sandbox: Grit re-executes itself as `grit __sandbox-exec PLAN` inside new
// namespaces, and the child applies the plan and becomes bash. It is not for
// people to run.
func newSandboxExecCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:                sandbox.ChildCommand + " PLAN",
		Short:              "internal: the Landlock sandbox's child process (started by grit itself)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			// ChildMain returns only when it could not run the command; it
			// has said why on stderr.
			return quietError{sandbox.ChildMain(args)}
		},
	}
}
