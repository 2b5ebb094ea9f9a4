package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed exitplanmode.md
var exitPlanModeMD string

var exitPlanModeDesc = render("exitplanmode.md", exitPlanModeMD)

// ExitPlanMode presents the model's plan for approval, as in Claude Code.
// The approval itself is the permission prompt: in plan mode the call
// always asks, and the user sees the plan there. Run happens only once the
// user approved, and switches the mode.
type ExitPlanMode struct {
	// Mode reads the permission mode; SetMode switches it.
	Mode    func() string
	SetMode func(string) error
}

func (ExitPlanMode) Name() string        { return "ExitPlanMode" }
func (ExitPlanMode) Description() string { return exitPlanModeDesc() }
func (ExitPlanMode) Schema() json.RawMessage {
	return rawSchema[exitPlanModeInput](nil)
}

type exitPlanModeInput struct {
	Plan string `json:"plan" jsonschema:"The plan to present for approval, in markdown"`
}

// Kind: leaving plan mode changes what every later call may do.
func (ExitPlanMode) Kind() Kind { return KindExecute }

func (t ExitPlanMode) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in exitPlanModeInput
	if err := decode("ExitPlanMode", input, &in); err != nil {
		return finish(Result{}, err)
	}
	if strings.TrimSpace(in.Plan) == "" {
		return Errorf("ExitPlanMode needs the plan: write it in the plan field."), nil
	}
	mode := t.Mode()
	if mode != "plan" && mode != "" {
		// The user chose a mode at the prompt (acceptEdits), or plan mode
		// was not on: nothing to switch.
		return Result{Content: fmt.Sprintf("Plan mode is off (the permission mode is %s): go ahead with the changes.", mode)}, nil
	}
	if err := t.SetMode("default"); err != nil {
		return Result{}, fmt.Errorf("exit plan mode: %w", err)
	}
	return Result{Content: "The user approved the plan; plan mode is off (edits and commands ask as usual). Go ahead with the changes."}, nil
}
