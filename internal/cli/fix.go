package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/permission"
)

type fixFlags struct {
	test      string
	model     string
	attempts  int
	traceback string
	yes       bool
	dryRun    bool
	asJSON    bool
	repo      string
	sandbox   string
}

func newFixCmd(e *env) *cobra.Command {
	var f fixFlags
	cmd := &cobra.Command{
		Use:   "fix TASK",
		Short: "Fix a bug: locate one function, have the model rewrite it, test, retry or restore",
		Long: `Fix runs the harness-driven pipeline. The model never explores: Grit indexes
the repository, runs the tests, locates the function to change from the task
and the test output (asking the model a multiple-choice question only when
the top candidates are too close to call), shows the model that one function
with the signatures around it, and asks for the whole function back. When
the fix needs more, the reply may add a new function ("NEW FUNCTION after
NAME") and import lines ("IMPORTS"), each in its own block.

A quality monitor checks each reply (prose, elisions like "# ... existing code",
truncation, a changed name or signature, syntax errors, ...) and repairs what is
safe (markdown fences, indentation, CRLF); a new function must be one
definition with a name the file does not have, an imports block import lines
only. The function is swapped by byte range, with the extra blocks in the same
atomic write, the tests run again, and on failure the output is read as a
traceback to locate again (possibly another function, keeping the first
change) and retry, up to --attempts. If no attempt passes, every changed file
is restored. 'grit undo' reverts the last kept fix.

Without --yes Grit shows each diff and asks before writing (on a terminal);
headless without --yes it behaves like --dry-run. Every step is recorded in a
session transcript; --json prints the whole report.`,
		Example: `  grit fix "total() ignores the discount" --model ollama:qwen2.5-coder:7b
  grit fix "KeyError in merge_headers" --traceback err.txt --test "pytest -x tests/test_session.py" --yes
  grit fix "Clamp returns lo above hi" --dry-run --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFix(cmd.Context(), e, args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.test, "test", "", "test command (default: detected: go test ./..., pytest, npm test, cargo test)")
	fl.StringVar(&f.model, "model", "", `model as PROVIDER:MODEL (anthropic, openai, ollama, scripted:FILE); default: "model" in settings.json`)
	fl.IntVar(&f.attempts, "attempts", 3, "model edits to try before restoring everything")
	fl.StringVar(&f.traceback, "traceback", "", "file with a traceback or failing test output to locate from")
	fl.BoolVarP(&f.yes, "yes", "y", false, "write changes without asking")
	fl.BoolVar(&f.dryRun, "dry-run", false, "show the first accepted change; write nothing")
	fl.BoolVar(&f.asJSON, "json", false, "print the machine-readable report")
	fl.StringVar(&f.repo, "repo", ".", "repository root")
	fl.StringVar(&f.sandbox, "sandbox", "auto", "test runner isolation: auto, bwrap or none")
	cmd.MarkFlagsMutuallyExclusive("yes", "dry-run")
	return cmd
}

func runFix(ctx context.Context, e *env, task string, f fixFlags) error {
	if f.attempts < 1 {
		return usageErrorf("--attempts must be at least 1, got %d", f.attempts)
	}
	o := app.FixOptions{Model: f.model, Test: f.test, Attempts: f.attempts, DryRun: f.dryRun, Sandbox: f.sandbox, Progress: e.Err}
	if o.Model == "" {
		root, err := filepath.Abs(f.repo)
		if err != nil {
			return err
		}
		s, _, status, err := permission.LoadSettings(root, config.LoadOptions{}, "")
		if err != nil {
			return err
		}
		if !status.Honoured() {
			fmt.Fprintf(e.Err, "grit: %s\n", status.Describe())
		}
		o.Model = s.Model
	}
	if f.traceback != "" {
		b, err := os.ReadFile(f.traceback)
		if err != nil {
			return usageErrorf("--traceback: %v", err)
		}
		o.Traceback = string(b)
	}
	if f.asJSON {
		o.Progress = io.Discard
	}
	if !f.yes && !f.dryRun {
		if isTTY(e.In) && isTTY(e.Err) && !f.asJSON {
			in := bufio.NewReader(e.In)
			o.Confirm = func(ctx context.Context, diff string) (bool, error) {
				fmt.Fprintf(e.Err, "\n%s\nApply this change and run the tests? [y/N] ", diff)
				line, err := in.ReadString('\n')
				if err != nil && !errors.Is(err, io.EOF) {
					return false, err
				}
				a := strings.ToLower(strings.TrimSpace(line))
				return a == "y" || a == "yes", nil
			}
		} else {
			o.DryRun = true
			fmt.Fprintln(e.Err, "grit fix: not a terminal and no --yes: showing the change without writing it (dry run)")
		}
	}
	rep, err := app.Fix(ctx, f.repo, task, o)
	if rep == nil {
		return err
	}
	if f.asJSON {
		if jerr := json.NewEncoder(e.Out).Encode(rep); jerr != nil {
			return jerr
		}
	} else {
		printFixReport(e.Out, rep)
	}
	switch {
	case errors.Is(err, fix.ErrNoCandidates):
		return quietOr(f.asJSON, ExitNotFound, err)
	case errors.Is(err, fix.ErrTestCommand):
		return quietError{ExitError} // the report said what does not run
	case err != nil:
		return err
	case rep.Status == fix.StatusReverted:
		return quietError{ExitTestsFailed}
	}
	return nil
}

// quietOr returns a quietError in JSON mode (the report says it all), else err with code.
func quietOr(asJSON bool, code int, err error) error {
	if asJSON {
		return quietError{code}
	}
	return withCode(code, err)
}

func printFixReport(w io.Writer, rep *fix.Report) {
	switch rep.Status {
	case fix.StatusFixed, fix.StatusUnverified:
		fmt.Fprint(w, rep.Diff)
		fmt.Fprintf(w, "\n%s: %s after %d attempt(s); changed %s\n", rep.Status, rep.Task, len(rep.Attempts), strings.Join(rep.FilesChanged, ", "))
		if rep.Message != "" {
			fmt.Fprintln(w, rep.Message)
		}
		fmt.Fprintln(w, "Undo with: grit undo")
	case fix.StatusDryRun:
		fmt.Fprint(w, rep.Diff)
		fmt.Fprintln(w, "\ndry run: nothing was written. Run again with --yes to apply and test.")
	default:
		fmt.Fprintf(w, "%s: %s\n", rep.Status, rep.Message)
	}
	if rep.SessionID != "" {
		fmt.Fprintf(w, "session: %s\n", rep.SessionID)
	}
}
