// Package cli is Grit's command line: one file per subcommand, each built by a
// function (no init-time globals), flags in a struct, intended output on stdout
// and progress and warnings on stderr. Main is the single exit point; errors
// map to the exit codes in errors.go.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Stdio is the process's standard streams, injectable for tests.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// env is what every subcommand gets: the streams and the context.
type env struct {
	ctx context.Context
	Stdio
}

// isTTY reports whether w is a terminal (progress bars and prompts only then).
func isTTY(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Main runs the grit command line with args (without the program name) and
// returns the process exit code.
func Main(ctx context.Context, args []string, stdio Stdio) int {
	e := &env{ctx: ctx, Stdio: stdio}
	root := newRootCmd(e)
	root.SetArgs(resumeWithoutID(args))
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var q quietError
	if !errors.As(err, &q) {
		fmt.Fprintf(stdio.Err, "grit: %v\n", err)
	}
	return exitCode(err)
}

// newRootCmd builds the whole command tree.
func newRootCmd(e *env) *cobra.Command {
	root := newAgentCmd(e) // bare `grit`, `grit -p`, `-c`, `-r`: the agent's faces
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.CompletionOptions.HiddenDefaultCmd = true
	// `grit --version` and `-v`, as `claude --version` and most CLIs: the
	// same line as `grit version`.
	root.Version = Version
	root.SetVersionTemplate("grit {{.Version}} (" + runtime.Version() + ")\n")
	for _, sub := range []func(*env) *cobra.Command{
		newVersionCmd,
		newSearchCmd,
		newIndexCmd,
		newSymbolsCmd,
		newEdgesCmd,
		newASTCmd,
		newDoctorCmd,
		newBenchCmd,
		newExploreCmd,
		newFixCmd,
		newUndoCmd,
		newDemoCmd,
		newMCPCmd,
		newSessionsCmd,
		newInitCmd,
		newContextCmd,
		newTrustCmd,
		newSandboxExecCmd,
		newGoalCmd,
		// Subcommands register here, one line each.
	} {
		root.AddCommand(sub(e))
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf("%v\nRun '%s --help' for usage.", err, c.CommandPath())
	})
	return root
}

// pickSessionArg stands for `-r` given no ID: the interactive session then
// opens a picker, as Claude Code's `claude -r` does.
const pickSessionArg = "\x00pick"

// resumeWithoutID gives a bare -r/--resume (last, or followed by another
// flag) the picker's value, since a flag's value cannot be optional and
// still be written apart from it (`-r ID`).
func resumeWithoutID(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		out = append(out, a)
		if (a == "-r" || a == "--resume") && (i+1 == len(args) || strings.HasPrefix(args[i+1], "-")) {
			out = append(out, pickSessionArg)
		}
	}
	return out
}
