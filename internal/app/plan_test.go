package app

import (
	"context"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/sandbox"
)

// approver says yes and remembers what it was asked.
type approver struct{ asked []agent.Call }

func (a *approver) Ask(ctx context.Context, c agent.Call, reason string) (bool, error) {
	a.asked = append(a.asked, c)
	return true, nil
}

// TestExitPlanModeApproval (issue 20, item 13), the real loop: in plan
// mode ExitPlanMode asks the user with the plan; approved, it leaves plan
// mode, the system prompt stops saying plan mode is on, and edits follow
// the default mode.
func TestExitPlanModeApproval(t *testing.T) {
	w := newSafetyWork(t)
	repo := t.TempDir()
	p := safetyScript(t,
		`{"content": [{"type": "tool_use", "id": "p1", "name": "ExitPlanMode", "input": {"plan": "1. Add the file."}}], "stop_reason": "tool_use"}`,
		endTurn)
	o := w.options(repo, p)
	o.PermissionMode = permission.ModePlan
	o.Runner = sandbox.NewPlain()
	ask := &approver{}
	o.Asker = ask
	s, err := OpenAgent(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Agent.Run(context.Background(), "plan then do it")
	if err != nil {
		t.Fatal(err)
	}
	if len(ask.asked) != 1 || ask.asked[0].Tool != "ExitPlanMode" || !strings.Contains(string(ask.asked[0].Input), "Add the file") {
		t.Fatalf("asked %+v, want one approval of the plan", ask.asked)
	}
	if m := s.Engine.Mode(); m != permission.ModeDefault {
		t.Errorf("mode after approval = %s, want default", m)
	}
	reqs := p.Requests()
	if !strings.Contains(reqs[0].System, "Plan mode is on") || strings.Contains(reqs[1].System, "Plan mode is on") {
		t.Errorf("the system prompt does not follow the mode: first has plan %v, second %v",
			strings.Contains(reqs[0].System, "Plan mode is on"), strings.Contains(reqs[1].System, "Plan mode is on"))
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; !strings.Contains(last.Content[0].Content, "approved the plan") {
		t.Errorf("tool result = %+v, want the approval", last.Content)
	}
	if res.IsError {
		t.Errorf("Run = %+v", res)
	}
}
