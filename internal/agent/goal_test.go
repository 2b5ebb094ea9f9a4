package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestRunGoal(t *testing.T) {
	echoTurn := func(id string) []map[string]any {
		return []map[string]any{turn("tool_use", call(id, "Echo", map[string]string{"id": id})), turn("end_turn", text("worked on it"))}
	}
	hang := map[string]any{"content": []map[string]any{text("thinking...")}, "stop_reason": "end_turn", "hang": true}
	tests := []struct {
		name      string
		turns     []map[string]any
		passAfter int // the check passes once Echo ran this often; -1 never
		checkErr  error
		opts      GoalOptions
		want      GoalResult // Verdict, Met, Turns compared
		wantErr   bool
		wantProg  []int // exit codes reported, in order
	}{
		{"met after two turns", append(echoTurn("a"), echoTurn("b")...), 2, nil, GoalOptions{},
			GoalResult{Verdict: GoalMet, Met: true, Turns: 2}, false, []int{1, 1, 0}},
		{"already met", nil, 0, nil, GoalOptions{},
			GoalResult{Verdict: GoalMet, Met: true, Turns: 0}, false, []int{0}},
		{"turn budget", append(echoTurn("a"), echoTurn("b")...), -1, nil, GoalOptions{MaxTurns: 2},
			GoalResult{Verdict: GoalTurns, Turns: 2}, false, []int{1, 1, 1}},
		{"token budget", append(echoTurn("a"), echoTurn("b")...), -1, nil, GoalOptions{MaxTokens: 20},
			GoalResult{Verdict: GoalTokens, Turns: 1}, false, []int{1, 1}},
		{"time budget", []map[string]any{hang}, -1, nil, GoalOptions{MaxTime: 50 * time.Millisecond},
			GoalResult{Verdict: GoalTime, Turns: 1}, false, []int{1, 1}},
		{"check cannot run", nil, -1, errors.New("sandbox broken"), GoalOptions{},
			GoalResult{Verdict: GoalError, Turns: 0}, true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := script(t, tc.turns...)
			a, echo := newAgent(t, p, Options{})
			var prog []int
			o := tc.opts
			o.Objective, o.Until = "make it pass", "./check.sh"
			o.Check = func(ctx context.Context) (CheckResult, error) {
				if tc.checkErr != nil {
					return CheckResult{}, tc.checkErr
				}
				echo.mu.Lock()
				n := len(echo.runs)
				echo.mu.Unlock()
				if tc.passAfter >= 0 && n >= tc.passAfter {
					return CheckResult{ExitCode: 0, Output: "ok"}, nil
				}
				return CheckResult{ExitCode: 1, Output: fmt.Sprintf("FAIL: %d of 2 fixed", n)}, nil
			}
			o.OnProgress = func(g GoalProgress) { prog = append(prog, g.Check.ExitCode) }
			got, err := a.RunGoal(context.Background(), o)
			if (err != nil) != tc.wantErr {
				t.Fatalf("RunGoal error = %v, want error %v", err, tc.wantErr)
			}
			if got.Verdict != tc.want.Verdict || got.Met != tc.want.Met || got.Turns != tc.want.Turns {
				t.Errorf("RunGoal = verdict %s met %v turns %d, want %s %v %d (%s)", got.Verdict, got.Met, got.Turns, tc.want.Verdict, tc.want.Met, tc.want.Turns, got.Summary)
			}
			if fmt.Sprint(prog) != fmt.Sprint(tc.wantProg) {
				t.Errorf("progress exit codes = %v, want %v", prog, tc.wantProg)
			}
			if got.Summary == "" || (got.Met != strings.HasPrefix(got.Summary, "goal met")) {
				t.Errorf("summary %q does not match the verdict %s", got.Summary, got.Verdict)
			}
		})
	}
}

// The model is told the check and its latest output; the harness runs it.
func TestGoalPromptCarriesCheckOutput(t *testing.T) {
	p := script(t, turn("end_turn", text("tried")), turn("end_turn", text("tried again")))
	a, _ := newAgent(t, p, Options{})
	runs := 0
	res, err := a.RunGoal(context.Background(), GoalOptions{
		Objective: "fix the parser", Until: "go test ./parser", MaxTurns: 2,
		Check: func(ctx context.Context) (CheckResult, error) {
			runs++
			return CheckResult{ExitCode: 1, Output: fmt.Sprintf("--- FAIL: TestParse (run %d)", runs)}, nil
		},
	})
	if err != nil || res.Verdict != GoalTurns {
		t.Fatalf("RunGoal = %+v, %v; want the turn budget spent", res, err)
	}
	reqs := p.Requests()
	first := reqs[0].Messages[0].Text()
	for _, want := range []string{"Goal: fix the parser", "`go test ./parser`", "exits 1", "TestParse (run 1)", "at most 2 turns"} {
		if !strings.Contains(first, want) {
			t.Errorf("first goal prompt lacks %q:\n%s", want, first)
		}
	}
	second := reqs[1].Messages[len(reqs[1].Messages)-1].Text()
	for _, want := range []string{"not met yet", "after turn 1 of 2", "TestParse (run 2)", "Keep working on the goal: fix the parser"} {
		if !strings.Contains(second, want) {
			t.Errorf("second goal prompt lacks %q:\n%s", want, second)
		}
	}
	if runs != 3 {
		t.Errorf("the check ran %d times, want 3 (before, and after each turn)", runs)
	}
}

func TestGoalInterrupted(t *testing.T) {
	p := script(t, map[string]any{"content": []map[string]any{text("...")}, "stop_reason": "end_turn", "hang": true})
	a, _ := newAgent(t, p, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	checks := 0
	res, err := a.RunGoal(ctx, GoalOptions{Objective: "x", Until: "false", Check: func(context.Context) (CheckResult, error) {
		checks++
		if checks == 1 {
			go cancel() // the user presses Ctrl-C during the first turn
		}
		return CheckResult{ExitCode: 1}, nil
	}})
	if !errors.Is(err, context.Canceled) || res.Verdict != GoalInterrupted || res.Met {
		t.Errorf("RunGoal after Ctrl-C = %+v, %v; want interrupted with context.Canceled", res, err)
	}
}
