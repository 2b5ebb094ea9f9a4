package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/spf13/cobra"
)

type goalFlags struct {
	until          string
	maxTurns       int
	maxTokens      int
	maxTime        time.Duration
	checkTimeout   time.Duration
	model          string
	permissionMode string
	allowed        []string
	disallowed     []string
	asJSON         bool
	verbose        bool
}

func newGoalCmd(e *env) *cobra.Command {
	var f goalFlags
	cmd := &cobra.Command{
		Use:   "goal OBJECTIVE --until CMD",
		Short: "Work toward an objective until a check command passes or a budget is spent",
		Long: `grit goal starts agent turns toward OBJECTIVE and, after each turn, runs the
check command CMD itself, in the sandbox. The goal is met when CMD exits 0: the
harness decides, not the model. It stops when the check passes or when a budget
is spent: --max-turns turns (default 10), --max-tokens input plus output tokens,
--max-time wall time. The check runs once before the first turn (a goal that
already holds costs nothing) and its output tail goes back to the model.

Progress is printed on stderr after every turn; the verdict is printed on
stdout (or as JSON with --json). Exit status: 0 when the goal is met, 4 when a
budget ran out first, 1 on an error, 130 when interrupted.

Goal mode runs unattended: the permission mode defaults to acceptEdits (edits
are allowed; commands that a rule does not allow are refused, since nobody is
there to ask). Widen it with --allowedTools or --permission-mode.`,
		Example: `  grit goal "make the tests pass" --until "go test ./..."
  grit goal "fix the flaky parser test" --until "pytest -q tests/test_parser.py" --max-turns 5 --max-time 10m
  grit goal "port the CLI to cobra" --until "go build ./... && go test ./cmd/..." --max-tokens 400000 --json`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			objective := strings.TrimSpace(strings.Join(args, " "))
			if objective == "" {
				return usageErrorf("goal needs an objective: grit goal \"make the tests pass\" --until \"go test ./...\"")
			}
			if strings.TrimSpace(f.until) == "" {
				return usageErrorf("goal needs --until CMD: the command whose exit status 0 means the goal is met")
			}
			if f.maxTurns < 0 || f.maxTokens < 0 || f.maxTime < 0 {
				return usageErrorf("--max-turns, --max-tokens and --max-time must not be negative")
			}
			return runGoal(e, f, objective)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.until, "until", "", "the check command; the goal is met when it exits 0 (run by grit in the sandbox)")
	fl.IntVar(&f.maxTurns, "max-turns", agent.DefaultGoalTurns, "most agent turns")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "most input plus output tokens over all turns (0: no limit)")
	fl.DurationVar(&f.maxTime, "max-time", 0, "most wall time, e.g. 10m (0: no limit)")
	fl.DurationVar(&f.checkTimeout, "check-timeout", 10*time.Minute, "most time one run of the check command may take")
	fl.StringVar(&f.model, "model", "", "the model as PROVIDER:MODEL (anthropic, openai, ollama, scripted)")
	fl.StringVar(&f.permissionMode, "permission-mode", "acceptEdits", "default, acceptEdits, plan or bypassPermissions")
	fl.StringArrayVar(&f.allowed, "allowedTools", nil, `rules that allow tool calls ("Bash(go vet:*),Read")`)
	fl.StringArrayVar(&f.disallowed, "disallowedTools", nil, "rules that deny tool calls; a bare tool name also hides the tool")
	fl.BoolVar(&f.asJSON, "json", false, "print the verdict as JSON")
	fl.BoolVar(&f.verbose, "verbose", false, "show tool calls on stderr")
	return cmd
}

// goalJSON is the --json verdict.
type goalJSON struct {
	agent.GoalResult
	Objective string `json:"objective"`
	Until     string `json:"until"`
	SessionID string `json:"session_id"`
	Sandbox   string `json:"sandbox"`
}

func runGoal(e *env, f goalFlags, objective string) error {
	opts := app.AgentOptions{
		Model: f.model, PermissionMode: f.permissionMode,
		AllowedTools: f.allowed, DisallowedTools: f.disallowed,
		Warnf: func(format string, a ...any) { fmt.Fprintf(e.Err, "grit: "+format+"\n", a...) },
	}
	if f.verbose {
		opts.OnEvent = func(ev agent.Event) { describeEvent(e.Err, ev) }
	}
	s, err := app.OpenAgent(e.ctx, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := app.AttachContext(e.ctx, s, opts); err != nil {
		return err
	}
	runner, err := sandbox.NewFor(s.Root, s.Settings)
	if err != nil {
		return err
	}
	res, runErr := s.Agent.RunGoal(e.ctx, agent.GoalOptions{
		Objective: objective, Until: f.until,
		Check:    checkWith(runner, s.Root, f.until, f.checkTimeout),
		MaxTurns: f.maxTurns, MaxTokens: f.maxTokens, MaxTime: f.maxTime,
		OnProgress: func(p agent.GoalProgress) { printGoalProgress(e.Err, f.until, p) },
	})
	if runErr != nil {
		if hint := provider.Unreachable(s.Model, runErr); hint != "" {
			runErr = errors.New(hint)
		}
	}
	if f.asJSON {
		if err := json.NewEncoder(e.Out).Encode(goalJSON{GoalResult: res, Objective: objective, Until: f.until,
			SessionID: s.Session.ID, Sandbox: runner.Backend()}); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(e.Out, res.Summary)
		if !res.Met && res.LastCheck.Output != "" && runErr == nil {
			fmt.Fprintf(e.Out, "last check output (tail):\n%s\n", indent(lastLines(res.LastCheck.Output, 20)))
		}
	}
	switch {
	case runErr != nil && errors.Is(runErr, context.Canceled):
		return quietError{ExitInterrupted}
	case runErr != nil && f.asJSON:
		fmt.Fprintf(e.Err, "grit: %v\n", runErr)
		return quietError{ExitError}
	case runErr != nil:
		return runErr
	case !res.Met:
		return quietError{ExitTestsFailed}
	}
	return nil
}

// checkWith runs the goal's check command through the sandbox runner, in
// the workspace: the harness runs it, never the model.
func checkWith(r sandbox.Runner, root, until string, timeout time.Duration) func(context.Context) (agent.CheckResult, error) {
	return func(ctx context.Context) (agent.CheckResult, error) {
		res, err := r.Run(ctx, sandbox.Spec{Script: until, Dir: root, Timeout: timeout})
		if err != nil {
			return agent.CheckResult{}, err
		}
		return agent.CheckResult{ExitCode: res.ExitCode, Output: res.Output, TimedOut: res.TimedOut}, nil
	}
}

// printGoalProgress is one line per check, and the last lines of a failing
// check's output.
func printGoalProgress(w io.Writer, until string, p agent.GoalProgress) {
	tokens := fmt.Sprintf("%d tokens", p.Tokens)
	if p.MaxTokens > 0 {
		tokens = fmt.Sprintf("%d/%d tokens", p.Tokens, p.MaxTokens)
	}
	state := fmt.Sprintf("fails (exit %d)", p.Check.ExitCode)
	if p.Check.TimedOut {
		state = "timed out"
	}
	if p.Check.ExitCode == 0 {
		state = "passes"
	}
	when := fmt.Sprintf("after turn %d/%d", p.Turn, p.MaxTurns)
	if p.Turn == 0 {
		when = "before the first turn"
	}
	fmt.Fprintf(w, "goal: %s: `%s` %s; %s, %s\n", when, oneLine(until, 60), state, tokens, p.Elapsed.Round(time.Second))
	if p.Check.ExitCode != 0 {
		fmt.Fprintln(w, indent(lastLines(p.Check.Output, 5)))
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

// slashGoal is /goal OBJECTIVE --until CMD in an interactive session: the
// same loop as grit goal, with the default budget, in this conversation.
func slashGoal(ctx context.Context, c *chat, arg string) error {
	objective, until, ok := strings.Cut(arg, "--until ")
	objective, until = strings.TrimSpace(objective), strings.TrimSpace(until)
	if !ok || objective == "" || until == "" {
		return errors.New(`usage: /goal OBJECTIVE --until CMD (e.g. /goal make the tests pass --until go test ./...)`)
	}
	runner, err := sandbox.NewFor(c.s.Root, c.s.Settings)
	if err != nil {
		return err
	}
	res, err := c.s.Agent.RunGoal(ctx, agent.GoalOptions{
		Objective: objective, Until: until,
		Check: checkWith(runner, c.s.Root, until, 10*time.Minute),
		OnProgress: func(p agent.GoalProgress) {
			c.endStream()
			printGoalProgress(c.e.Err, until, p)
		},
	})
	c.endStream()
	fmt.Fprintln(c.e.Out, res.Summary)
	return err
}
