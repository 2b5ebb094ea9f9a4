package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/tool"
)

// runTools answers every call of one reply, in order. It returns the
// tool_result blocks (one per call, same ids), a non-empty explanation when
// loop detection ended the turn, and an error for a broken environment.
// After cancellation or a loop, the remaining calls are answered as not run.
func (a *Agent) runTools(ctx context.Context, calls []provider.Block, loops *loopDetector) ([]provider.Block, string, error) {
	results := make([]provider.Block, 0, len(calls))
	var loopMsg string
	var failure error
	for _, c := range calls {
		result := func(content string, isErr bool) {
			results = append(results, provider.Block{Type: provider.BlockToolResult, ToolUseID: c.ID, Content: content, IsError: isErr})
		}
		switch {
		case ctx.Err() != nil:
			result("Not run: the user interrupted the turn.", true)
			continue
		case failure != nil:
			result("Not run: an earlier call in this reply failed.", true)
			continue
		case loopMsg != "":
			result("Not run: the turn was ended by loop detection.", true)
			continue
		}
		if n := loops.see(c.Name, c.Input); n > LoopRepeats {
			loopMsg = fmt.Sprintf("Stopped: the model made the same %s call %d times in its last %d tool calls, so it looks stuck in a loop. Rephrase the task or give it the missing information.", c.Name, n, LoopWindow)
			result("Not run: "+loopMsg, true)
			continue
		}
		content, isErr, err := a.runOne(ctx, c)
		if err != nil {
			if ctx.Err() != nil {
				result("Interrupted by the user before the call completed.", true)
				continue
			}
			failure = fmt.Errorf("tool %s: %w", c.Name, err)
			result("The tool failed in the harness: "+err.Error(), true)
			continue
		}
		result(content, isErr)
	}
	return results, loopMsg, failure
}

// runOne runs one call through the PreToolUse hook, the gate and the tool,
// then the PostToolUse hook. A model-fixable problem is (content, true, nil).
func (a *Agent) runOne(ctx context.Context, c provider.Block) (string, bool, error) {
	input := c.Input
	if len(input) == 0 {
		input = json.RawMessage(`{}`)
	}
	t, ok := a.opts.Tools.Get(c.Name)
	if !ok {
		return fmt.Sprintf("Unknown tool %q. Available tools: %s.", c.Name, strings.Join(a.opts.Tools.Names(), ", ")), true, nil
	}
	var toolInput any
	if err := json.Unmarshal(input, &toolInput); err != nil {
		return fmt.Sprintf("The input of %s is not valid JSON (%v). Send a JSON object matching the tool's schema.", c.Name, err), true, nil
	}
	if a.opts.Hooks != nil {
		out, err := a.opts.Hooks.Fire(ctx, EventPreToolUse, a.hookInput(map[string]any{"tool_name": c.Name, "tool_input": toolInput}))
		if err != nil {
			return "", false, err
		}
		if out.Block {
			return "Blocked by a PreToolUse hook: " + out.Reason, true, nil
		}
	}
	if msg, allowed, err := a.permit(ctx, c.Name, input); err != nil {
		return "", false, err
	} else if !allowed {
		return msg, true, nil
	}
	a.emit(Event{Kind: KindToolUse, ToolName: c.Name, ToolInput: input, ToolUseID: c.ID})
	res, err := runUntilCancelled(ctx, func() (tool.Result, error) { return t.Run(ctx, a.opts.Env, input) })
	if err != nil {
		if ctx.Err() != nil || harnessFailure(err) {
			return "", false, err
		}
		// What the tool met in the files, the index or the system (a
		// symlink loop, a parent that is a file, a read-only repository)
		// goes back to the model like any failed call; the run goes on.
		res = tool.Result{Content: fmt.Sprintf("%s failed: %v", c.Name, err), IsError: true}
	}
	content := res.Content
	if a.opts.Hooks != nil {
		out, err := a.opts.Hooks.Fire(ctx, EventPostToolUse, a.hookInput(map[string]any{
			"tool_name": c.Name, "tool_input": toolInput,
			"tool_response": map[string]any{"content": res.Content, "is_error": res.IsError},
		}))
		if err != nil {
			return "", false, err
		}
		if out.Block {
			content += "\n\nPostToolUse hook feedback: " + out.Reason
		}
		if out.AdditionalContext != "" {
			content += "\n\n" + out.AdditionalContext
		}
	}
	return content, res.IsError, nil
}

// toolCancelGrace is how long a cancelled tool call may take to wind down
// (kill its process group, remove the sandbox's mask points) before the
// run stops waiting for it.
const toolCancelGrace = 2 * time.Second

// runUntilCancelled runs a tool call and returns when it ends, or shortly
// after ctx is cancelled: a call stuck in a system call that ignores its
// context (a read that never ends) must not keep SIGINT or SIGTERM from
// ending the run. A stuck goroutine is left behind.
func runUntilCancelled(ctx context.Context, run func() (tool.Result, error)) (tool.Result, error) {
	type outcome struct {
		res tool.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := run()
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-ctx.Done():
	}
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(toolCancelGrace):
		return tool.Result{}, ctx.Err()
	}
}

// harnessFailure reports whether a tool's error is the harness's own and
// ends the run: commands cannot be isolated as configured, so no Bash call
// can run until the user acts. Every other tool error is a tool result.
func harnessFailure(err error) bool {
	return errors.Is(err, sandbox.ErrNoBackend)
}

// permit applies the gate (and the asker). It returns the tool_result text
// for a refused call.
func (a *Agent) permit(ctx context.Context, name string, input json.RawMessage) (string, bool, error) {
	if a.opts.Gate == nil {
		return "", true, nil
	}
	d := a.opts.Gate.Check(ctx, name, input)
	switch d.Behavior {
	case Allow:
		return "", true, nil
	case Deny:
		return fmt.Sprintf("Permission to use %s was denied: %s", name, orDefault(d.Reason, "a deny rule matched")), false, nil
	case Ask:
		if a.opts.Asker == nil {
			return headlessDenial(name, input, d), false, nil
		}
		ok, err := a.opts.Asker.Ask(ctx, name, input, d.Reason)
		if err != nil {
			return "", false, fmt.Errorf("ask permission for %s: %w", name, err)
		}
		if !ok {
			return fmt.Sprintf("The user declined this %s call. Do not retry it; ask the user how to proceed or take another approach.", name), false, nil
		}
		return "", true, nil
	}
	return "", false, fmt.Errorf("permission gate returned behavior %q for %s (expected: allow, ask, deny)", d.Behavior, name)
}

// headlessDenial explains an ask that no one can answer, and how the user
// can allow the call: a rule or mode only where one would help, in the
// settings file that counts.
func headlessDenial(name string, input json.RawMessage, d Decision) string {
	reason := orDefault(d.Reason, "this tool asks in the current permission mode")
	if d.Protected {
		return fmt.Sprintf("Permission to use %s requires approval (%s), and this session is non-interactive, so it was denied. "+
			"Protected paths need a person's approval in every mode: no rule or permission mode allows this call, so run it in an interactive session. "+
			"Continue without this call if you can, or stop and say what you need.", name, reason)
	}
	rule := name
	mode := "bypassPermissions"
	if name == "Bash" {
		var in struct {
			Command string `json:"command"`
		}
		json.Unmarshal(input, &in)
		if f := strings.Fields(in.Command); len(f) > 0 {
			rule = fmt.Sprintf("Bash(%s:*)", f[0])
		}
	} else if name == "Edit" || name == "Write" || name == "EditFunction" {
		mode = "acceptEdits"
	}
	file := orDefault(d.RulesFile, ".grit/settings.json")
	return fmt.Sprintf("Permission to use %s requires approval (%s), and this session is non-interactive, so it was denied. "+
		"The user can allow it by running grit with --permission-mode %s, with --allowedTools %q, or by adding %q to permissions.allow in %s. "+
		"Continue without this call if you can, or stop and say what you need.",
		name, reason, mode, rule, rule, file)
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
