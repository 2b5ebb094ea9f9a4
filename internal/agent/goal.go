package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Goal mode: the harness, not the model, decides when the work is done. It
// runs a check command (the user's --until) before the first turn and after
// every turn, and keeps starting turns until the check exits 0 or a budget
// of turns, tokens or time is spent. The model is told the check and its
// latest output, but never runs it for the verdict.

// DefaultGoalTurns bounds the turns of a goal without --max-turns.
const DefaultGoalTurns = 10

// goalTail is how much of the check's output goes back to the model.
const goalTail = 4000

// Goal verdicts.
const (
	GoalMet         = "met"         // the check exited 0
	GoalTurns       = "max_turns"   // the turn budget is spent
	GoalTokens      = "max_tokens"  // the token budget is spent
	GoalTime        = "max_time"    // the time budget is spent
	GoalInterrupted = "interrupted" // the user canceled
	GoalError       = "error"       // a turn or the check failed to run
)

// CheckResult is one run of the goal's check command.
type CheckResult struct {
	ExitCode int    `json:"exit_code"`
	Output   string `json:"output"`
	TimedOut bool   `json:"timed_out,omitempty"`
}

// GoalOptions configure RunGoal.
type GoalOptions struct {
	Objective string
	// Until is the check command as the user wrote it (shown to the model).
	Until string
	// Check runs Until; exit code 0 means the goal is met. The harness runs
	// it (in the sandbox runner). An error is a broken environment and ends
	// the goal.
	Check func(ctx context.Context) (CheckResult, error)
	// MaxTurns bounds the turns (Run calls); 0 means DefaultGoalTurns.
	MaxTurns int
	// MaxTokens bounds the input plus output tokens of all turns; 0 is no
	// bound. A turn that crosses it finishes; no new turn starts.
	MaxTokens int
	// MaxTime bounds the wall time; 0 is no bound. A turn still running when
	// it ends is canceled, and the check runs once more for the verdict.
	MaxTime time.Duration
	// OnProgress receives a report after the first check and every turn.
	OnProgress func(GoalProgress)
}

// GoalProgress is the state after a check.
type GoalProgress struct {
	Turn      int           `json:"turn"` // 0 is the check before any turn
	MaxTurns  int           `json:"max_turns"`
	Check     CheckResult   `json:"check"`
	Tokens    int           `json:"tokens"`
	MaxTokens int           `json:"max_tokens,omitempty"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	// TurnText is the model's last reply of the turn (or why it stopped).
	TurnText string `json:"turn_text,omitempty"`
}

// GoalResult is the verdict.
type GoalResult struct {
	Met       bool          `json:"met"`
	Verdict   string        `json:"verdict"` // GoalMet, GoalTurns, ...
	Summary   string        `json:"summary"` // one sentence for the user
	Turns     int           `json:"turns"`
	Tokens    int           `json:"tokens"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	LastCheck CheckResult   `json:"last_check"`
}

// RunGoal works toward o.Objective until o.Check passes or a budget is
// spent. The returned error is a broken environment (a model call or the
// check could not run) or the user's cancellation; the GoalResult says how
// far it got either way.
func (a *Agent) RunGoal(ctx context.Context, o GoalOptions) (GoalResult, error) {
	if o.Check == nil {
		return GoalResult{Verdict: GoalError}, errors.New("goal: no check command")
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = DefaultGoalTurns
	}
	start := time.Now()
	budgetCtx := ctx
	if o.MaxTime > 0 {
		var cancel context.CancelFunc
		budgetCtx, cancel = context.WithTimeout(ctx, o.MaxTime)
		defer cancel()
	}
	var res GoalResult
	finish := func(verdict string, err error) (GoalResult, error) {
		res.Verdict = verdict
		res.Met = verdict == GoalMet
		res.Elapsed = time.Since(start)
		res.Summary = goalSummary(o, res)
		return res, err
	}
	check := func(turnText string) error {
		// The check gets the caller's context, not the time budget's: after
		// the budget ends it still runs once for an honest verdict.
		c, err := o.Check(ctx)
		if err != nil {
			return fmt.Errorf("goal check %q: %w", o.Until, err)
		}
		res.LastCheck = c
		if o.OnProgress != nil {
			o.OnProgress(GoalProgress{Turn: res.Turns, MaxTurns: o.MaxTurns, Check: c, Tokens: res.Tokens,
				MaxTokens: o.MaxTokens, Elapsed: time.Since(start), TurnText: turnText})
		}
		return nil
	}

	if err := check(""); err != nil {
		return finish(errorVerdict(ctx), err)
	}
	for res.LastCheck.ExitCode != 0 {
		switch {
		case ctx.Err() != nil:
			return finish(GoalInterrupted, ctx.Err())
		case res.Turns >= o.MaxTurns:
			return finish(GoalTurns, nil)
		case o.MaxTokens > 0 && res.Tokens >= o.MaxTokens:
			return finish(GoalTokens, nil)
		case budgetCtx.Err() != nil:
			return finish(GoalTime, nil)
		}
		r, err := a.run(budgetCtx, goalPrompt(o, res), res.Turns > 0, nil)
		res.Turns++
		res.Tokens += r.Usage.InputTokens + r.Usage.OutputTokens
		timeUp := err != nil && ctx.Err() == nil && budgetCtx.Err() != nil
		if err != nil && !timeUp {
			return finish(errorVerdict(ctx), err)
		}
		if cerr := check(r.Text); cerr != nil {
			return finish(errorVerdict(ctx), cerr)
		}
		if timeUp && res.LastCheck.ExitCode != 0 {
			return finish(GoalTime, nil)
		}
	}
	return finish(GoalMet, nil)
}

func errorVerdict(ctx context.Context) string {
	if ctx.Err() != nil {
		return GoalInterrupted
	}
	return GoalError
}

// goalPrompt is the user message of the next turn: the objective, the
// check, and what it said last.
func goalPrompt(o GoalOptions, res GoalResult) string {
	var b strings.Builder
	if res.Turns == 0 {
		fmt.Fprintf(&b, "Goal: %s\n\n", o.Objective)
		fmt.Fprintf(&b, "The harness decides when this goal is met by running `%s` after each of your turns; it is met when that exits 0. ", o.Until)
		fmt.Fprintf(&b, "You have at most %d turns. Work until you believe it passes, then end your turn.\n\n", o.MaxTurns)
		fmt.Fprintf(&b, "It currently exits %d. Its output:\n", res.LastCheck.ExitCode)
	} else {
		fmt.Fprintf(&b, "The goal is not met yet: `%s` still exits %d after turn %d of %d. Its output:\n", o.Until, res.LastCheck.ExitCode, res.Turns, o.MaxTurns)
	}
	b.WriteString("```\n")
	b.WriteString(tail(res.LastCheck.Output, goalTail))
	b.WriteString("\n```\n")
	if res.Turns > 0 {
		fmt.Fprintf(&b, "\nKeep working on the goal: %s", o.Objective)
	}
	return b.String()
}

// goalSummary is the verdict in one sentence.
func goalSummary(o GoalOptions, r GoalResult) string {
	turns := fmt.Sprintf("%d turn", r.Turns)
	if r.Turns != 1 {
		turns += "s"
	}
	last := fmt.Sprintf("`%s` exits %d", o.Until, r.LastCheck.ExitCode)
	switch r.Verdict {
	case GoalMet:
		if r.Turns == 0 {
			return fmt.Sprintf("goal met before any turn: %s", last)
		}
		return fmt.Sprintf("goal met after %s: %s", turns, last)
	case GoalTurns:
		return fmt.Sprintf("goal NOT met: the turn budget (%d) is spent; %s", o.MaxTurns, last)
	case GoalTokens:
		return fmt.Sprintf("goal NOT met: the token budget (%d) is spent after %s (%d tokens); %s", o.MaxTokens, turns, r.Tokens, last)
	case GoalTime:
		return fmt.Sprintf("goal NOT met: the time budget (%s) is spent after %s; %s", o.MaxTime, turns, last)
	case GoalInterrupted:
		return fmt.Sprintf("goal NOT met: interrupted after %s", turns)
	}
	return fmt.Sprintf("goal NOT met: stopped by an error after %s", turns)
}

// tail keeps the last max bytes of s, cut at a line start when it can.
func tail(s string, max int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) <= max {
		return s
	}
	s = s[len(s)-max:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	return "[... earlier output cut ...]\n" + s
}
