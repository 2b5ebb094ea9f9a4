package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/provider"
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
		if out.Block {
			return "Blocked by a PreToolUse hook: " + out.Reason, true, nil, nil
		}
	}
	if msg, allowed, err := a.permit(ctx, c.Name, input); err != nil {
		return "", false, nil, err
	} else if !allowed {
		return msg, true, nil, nil
	}
	a.emit(Event{Kind: KindToolUse, ToolName: c.Name, ToolInput: input, ToolUseID: c.ID})
	res, err := t.Run(ctx, a.opts.Env, input)
	if err != nil {
		return "", false, nil, err
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
		if out.Block {
			content += "\n\nPostToolUse hook feedback: " + out.Reason
		}
		if out.AdditionalContext != "" {
			content += "\n\n" + out.AdditionalContext
		}
	}
	return content, res.IsError, res.Images, nil
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
			return headlessDenial(name, input, d.Reason), false, nil
		}
		// Parallel reads may ask at once; the user answers one question at a time.
		a.askMu.Lock()
		ok, err := a.opts.Asker.Ask(ctx, name, input, d.Reason)
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
// can allow the call.
func headlessDenial(name string, input json.RawMessage, reason string) string {
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
	return fmt.Sprintf("Permission to use %s requires approval (%s), and this session is non-interactive, so it was denied. "+
		"The user can allow it by running grit with --permission-mode %s, with --allowedTools %q, or by adding %q to permissions.allow in .grit/settings.json. "+
		"Continue without this call if you can, or stop and say what you need.",
		name, orDefault(reason, "this tool asks in the current permission mode"), mode, rule, rule)
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
