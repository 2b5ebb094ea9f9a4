package app

import (
	"context"
	"os"
	"path/filepath"
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

// TestNotificationHook (issue 20, item 5), the real loop: a Notification
// hook runs when a permission prompt is about to be shown.
func TestNotificationHook(t *testing.T) {
	w := newSafetyWork(t)
	repo := t.TempDir()
	marker := filepath.Join(t.TempDir(), "notified")
	settings := `{"sandbox": {"enabled": false}, "hooks": {"Notification": [{"hooks": [{"type": "command", "command": "cat > ` + marker + `"}]}]}}`
	if err := os.MkdirAll(filepath.Join(w.home, ".config", "grit"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.home, ".config", "grit", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	o := w.options(repo, safetyScript(t, bashTurn("t1", "touch x"), endTurn))
	o.Asker = &recordingAsker{}
	s, err := OpenAgent(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Agent.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(marker)
	if err != nil || !strings.Contains(string(data), `"hook_event_name":"Notification"`) || !strings.Contains(string(data), "permission to use Bash") {
		t.Errorf("Notification hook input = %s (%v), want the event with its message", data, err)
	}
}
