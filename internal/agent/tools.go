package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/tool"
)

// parallelTools are the read-only tools whose calls of one reply may run
// at the same time: they only read the workspace, so their order cannot
// change what they see. Every other call runs alone, in the reply's order.
var parallelTools = map[string]bool{"Read": true, "Grep": true, "Glob": true, "Locate": true}

// runTools answers every call of one reply, in order. Consecutive calls of
// parallelTools run concurrently; the others one at a time. It returns the
// tool_result blocks (one per call, same ids, in the reply's order), a
// non-empty explanation when loop detection ended the turn, and an error
// for a broken environment. After cancellation or a loop, the remaining
// calls are answered as not run.
func (a *Agent) runTools(ctx context.Context, calls []provider.Block, loops *loopDetector) ([]provider.Block, string, error) {
	results := make([]provider.Block, len(calls))
	var images []provider.Block
	var loopMsg string
	var failure error
	set := func(i int, content string, isErr bool) {
		results[i] = provider.Block{Type: provider.BlockToolResult, ToolUseID: calls[i].ID, Content: content, IsError: isErr}
	}
	for i := 0; i < len(calls); {
		j := i + 1
		if parallelTools[calls[i].Name] {
			for j < len(calls) && parallelTools[calls[j].Name] {
				j++
			}
		}
		var run []int
		for k := i; k < j; k++ {
			c := calls[k]
			switch {
			case ctx.Err() != nil:
				set(k, "Not run: the user interrupted the turn.", true)
				continue
			case failure != nil:
				set(k, "Not run: an earlier call in this reply failed.", true)
				continue
			case loopMsg != "":
				set(k, "Not run: the turn was ended by loop detection.", true)
				continue
			case a.stopped() != "":
				set(k, "Not run: a hook stopped the turn.", true)
				continue
			}
			if n := loops.see(c.Name, c.Input); n > LoopRepeats {
				loopMsg = fmt.Sprintf("Stopped: the model made the same %s call %d times in its last %d tool calls, so it looks stuck in a loop. Rephrase the task or give it the missing information.", c.Name, n, LoopWindow)
				set(k, "Not run: "+loopMsg, true)
				continue
			}
			run = append(run, k)
		}
		type outcome struct {
			content string
			isErr   bool
			images  []tool.Image
			err     error
		}
		outs := make([]outcome, len(calls))
		var wg sync.WaitGroup
		for _, k := range run {
			if len(run) == 1 {
				outs[k].content, outs[k].isErr, outs[k].images, outs[k].err = a.runOne(ctx, calls[k])
				break
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[k].content, outs[k].isErr, outs[k].images, outs[k].err = a.runOne(ctx, calls[k])
			}()
		}
		wg.Wait()
		for _, k := range run {
			o := outs[k]
			switch {
			case o.err != nil && ctx.Err() != nil:
				set(k, "Interrupted by the user before the call completed.", true)
			case o.err != nil:
				if failure == nil {
					failure = fmt.Errorf("tool %s: %w", calls[k].Name, o.err)
				}
				set(k, "The tool failed in the harness: "+o.err.Error(), true)
			default:
				set(k, o.content, o.isErr)
				images = append(images, a.imageBlocks(&results[k], o.images)...)
			}
		}
		i = j
	}
	// Image blocks follow every tool_result: the APIs want the results first.
	return append(results, images...), loopMsg, failure
}

// imageBlocks turns a call's images into image blocks when the model takes
// images; otherwise the call's result says why they were not sent.
func (a *Agent) imageBlocks(result *provider.Block, images []tool.Image) []provider.Block {
	if len(images) == 0 {
		return nil
	}
	p := a.Provider()
	if !provider.AcceptsImages(p) {
		result.Content += fmt.Sprintf("\n[The image was not sent: the model %s does not accept images. Switch to a vision model (/model, --model) to look at it.]", p.Name())
		return nil
	}
	return ImageBlocks(images)
}

// ImageBlocks are images as provider blocks.
func ImageBlocks(images []tool.Image) []provider.Block {
	out := make([]provider.Block, len(images))
	for i, img := range images {
		out[i] = provider.Block{Type: provider.BlockImage, MediaType: img.MediaType, Data: base64.StdEncoding.EncodeToString(img.Data)}
	}
	return out
}

// runOne runs one call through the PreToolUse hook, the gate and the tool,
// then the PostToolUse hook. A model-fixable problem is (content, true, nil).
func (a *Agent) runOne(ctx context.Context, c provider.Block) (string, bool, []tool.Image, error) {
	input := c.Input
	if len(input) == 0 {
		input = json.RawMessage(`{}`)
	}
	t, ok := a.opts.Tools.Get(c.Name)
	if !ok {
		return fmt.Sprintf("Unknown tool %q. Available tools: %s.", c.Name, strings.Join(a.opts.Tools.Names(), ", ")), true, nil, nil
	}
	var toolInput any
	if err := json.Unmarshal(input, &toolInput); err != nil {
		return fmt.Sprintf("The input of %s is not valid JSON (%v). Send a JSON object matching the tool's schema.", c.Name, err), true, nil, nil
	}
	if a.opts.Hooks != nil {
		out, err := a.opts.Hooks.Fire(ctx, EventPreToolUse, a.hookInput(map[string]any{"tool_name": c.Name, "tool_input": toolInput}))
		if err != nil {
			return "", false, nil, err
		}
		if out.Stop {
			a.setStopped(out.StopReason)
			return "Not run: a PreToolUse hook stopped the turn.", true, nil, nil
		}
		if out.Block {
			return "Blocked by a PreToolUse hook: " + out.Reason, true, nil, nil
		}
	}
	paths, refused, err := tool.Targets(ctx, t, a.opts.Env, input)
	if err != nil {
		if ctx.Err() != nil || harnessFailure(err) {
			return "", false, nil, err
		}
		// Finding the target met the files or the index failing: the call
		// cannot be checked, so it does not run; the model hears why.
		return fmt.Sprintf("%s failed: %v", c.Name, err), true, nil, nil
	}
	if refused.IsError {
		return refused.Content, true, nil, nil
	}
	if msg, allowed, err := a.permit(ctx, Call{Tool: c.Name, Input: input, Paths: paths}); err != nil {
		return "", false, nil, err
	} else if !allowed {
		return msg, true, nil, nil
	}
	a.emit(Event{Kind: KindToolUse, ToolName: c.Name, ToolInput: input, ToolUseID: c.ID})
	res, err := runUntilCancelled(ctx, func() (tool.Result, error) { return t.Run(ctx, a.opts.Env, input) })
	if err != nil {
		if ctx.Err() != nil || harnessFailure(err) {
			return "", false, nil, err
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
			return "", false, nil, err
		}
		if out.Stop {
			a.setStopped(out.StopReason)
		}
		if out.Block {
			content += "\n\nPostToolUse hook feedback: " + out.Reason
		}
		if out.AdditionalContext != "" {
			content += "\n\n" + out.AdditionalContext
		}
	}
	return content, res.IsError, res.Images, nil
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
func (a *Agent) permit(ctx context.Context, c Call) (string, bool, error) {
	if a.opts.Gate == nil {
		return "", true, nil
	}
	name, input := c.Tool, c.Input
	d := a.opts.Gate.Check(ctx, c)
	switch d.Behavior {
	case Allow:
		return "", true, nil
	case Deny:
		return fmt.Sprintf("Permission to use %s was denied: %s", name, orDefault(d.Reason, "a deny rule matched")), false, nil
	case Ask:
		if a.opts.Asker == nil {
			return headlessDenial(name, input, d), false, nil
		}
		if a.opts.Hooks != nil {
			// Claude Code's Notification: the user is needed.
			msg := "Grit needs your permission to use " + name
			if _, err := a.opts.Hooks.Fire(ctx, EventNotification, a.hookInput(map[string]any{"message": msg})); err != nil {
				return "", false, err
			}
		}
		// Parallel reads may ask at once; the user answers one question at a time.
		a.askMu.Lock()
		ok, err := a.opts.Asker.Ask(ctx, c, d.Reason)
		a.askMu.Unlock()
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
	if name == "ExitPlanMode" {
		return "Plan mode is on and this session is non-interactive, so no one can approve the plan here. " +
			"End your turn with the whole plan as your reply; the user can carry it out by running grit again with --permission-mode default or acceptEdits."
	}
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
	} else if name == "WebFetch" {
		var in struct {
			URL string `json:"url"`
		}
		json.Unmarshal(input, &in)
		if u, err := url.Parse(in.URL); err == nil && u.Hostname() != "" {
			rule = "WebFetch(domain:" + u.Hostname() + ")"
		}
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
