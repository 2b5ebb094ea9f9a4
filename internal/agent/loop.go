package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/tool"
)

// Run is one turn: prompt in, the model and tools work until the model ends
// its turn, a bound is hit, or ctx is canceled. Stop conditions the model
// or the harness chose (max turns, a refusal, a loop) are a Result with
// IsError set; a failed model call, a broken tool environment or a
// transcript that cannot be written is an error (with the Result so far).
// On cancellation the partial reply is kept, recorded as interrupted, and
// the error is ctx.Err().
func (a *Agent) Run(ctx context.Context, prompt string) (Result, error) {
	return a.run(ctx, prompt, false, nil)
}

// RunWith is Run with images attached to the prompt (pasted image paths).
// A model that does not take images gets a note in their place.
func (a *Agent) RunWith(ctx context.Context, prompt string, images []tool.Image) (Result, error) {
	return a.run(ctx, prompt, false, images)
}

// run is Run; nudge marks the prompt as the harness's (goal mode's
// follow-ups), not the user's.
func (a *Agent) run(ctx context.Context, prompt string, nudge bool, images []tool.Image) (out Result, err error) {
	var res Result
	fail := func(err error) (Result, error) {
		res.IsError = true
		res.Subtype = SubtypeDuringExecute
		if res.Text == "" {
			res.Text = err.Error()
		}
		if ctx.Err() != nil {
			res.Interrupted = true
		}
		return res, err
	}

	if stop, err := a.openTurn(ctx, prompt, nudge, images); err != nil {
		res.Text = stop
		return fail(err)
	}

	a.setStopped("")
	a.mu.Lock()
	a.turnUsage = provider.Usage{}
	a.mu.Unlock()
	// The turn's usage includes its compaction calls, whenever it returns.
	defer func() {
		a.mu.Lock()
		out.Usage.Add(a.turnUsage)
		a.turnUsage = provider.Usage{}
		a.mu.Unlock()
	}()
	var loops loopDetector
	continues, stopBlocks := 0, 0
	// cut holds the text of replies cut by max_tokens and continued: the
	// answer is all of it, not its last fragment.
	var cut strings.Builder
	for {
		if res.Turns >= a.opts.MaxTurns {
			res.Subtype = SubtypeMaxTurns
			res.IsError = true
			res.Text = fmt.Sprintf("Stopped after %d model calls, the turn budget (raise it with --max-turns or maxTurns in settings).", res.Turns)
			a.emit(Event{Kind: KindNotice, Text: res.Text})
			return res, nil
		}
		if err := a.maybeCompact(ctx); err != nil {
			return fail(err)
		}
		resp, err := a.send(ctx, &res)
		if err != nil {
			return fail(err)
		}
		msg := provider.Message{Role: provider.RoleAssistant, Content: resp.Content}
		calls := toolUses(msg)

		switch {
		case resp.StopReason == provider.StopMaxTokens:
			if stop, err := a.continueCut(msg, calls, &cut, &continues); err != nil {
				res.Text = stop
				return fail(err)
			}
			continue

		case resp.StopReason == provider.StopRefusal:
			if err := a.record(nonEmpty(msg), false); err != nil {
				return fail(err)
			}
			a.emit(Event{Kind: KindAssistant, Message: &msg})
			res.IsError = true
			res.Subtype = SubtypeDuringExecute
			res.Text = strings.TrimSpace(msg.Text())
			if res.Text == "" {
				res.Text = "The model refused to continue with this request."
			}
			return res, nil

		case len(calls) > 0 && (resp.StopReason == provider.StopToolUse || resp.StopReason == provider.StopEndTurn):
			cut.Reset()
			if done, err := a.toolRound(ctx, msg, calls, &loops, &res); err != nil {
				return fail(err)
			} else if done {
				return res, nil
			}
			continue

		case resp.StopReason == provider.StopEndTurn || resp.StopReason == provider.StopToolUse:
			// (tool_use with no call in the reply is an end of turn.)
			if err := a.record(nonEmpty(msg), false); err != nil {
				return fail(err)
			}
			a.emit(Event{Kind: KindAssistant, Message: &msg})
			if again, err := a.stopHook(ctx, &stopBlocks); err != nil {
				return fail(err)
			} else if again {
				cut.Reset()
				continue
			}
			res.Subtype = SubtypeSuccess
			res.Text = cut.String() + msg.Text()
			return res, nil

		default:
			if err := a.record(nonEmpty(msg), false); err != nil {
				return fail(err)
			}
			a.emit(Event{Kind: KindAssistant, Message: &msg})
			res.Text = strings.TrimSpace(msg.Text() + fmt.Sprintf("\n\n(The model stopped with reason %q, which ends the turn; expected end_turn, tool_use, max_tokens or refusal.)", resp.StopReason))
			res.IsError = true
			res.Subtype = SubtypeDuringExecute
			return res, nil
		}
	}
}

// openTurn fires the SessionStart (once) and UserPromptSubmit hooks and
// records the prompt with what they add (images attached, or a note when
// the model takes none). When a hook stops or blocks the prompt, stop says
// so and err ends the turn.
func (a *Agent) openTurn(ctx context.Context, prompt string, nudge bool, images []tool.Image) (stop string, err error) {
	var extra []string
	if !a.started {
		a.started = true
		if a.opts.Hooks != nil {
			source := "startup"
			if a.opts.Resumed {
				source = "resume"
			}
			out, err := a.opts.Hooks.Fire(ctx, EventSessionStart, a.hookInput(map[string]any{"source": source}))
			if err != nil {
				return "", err
			}
			extra = append(extra, out.AdditionalContext)
		}
	}
	if a.opts.Hooks != nil {
		out, err := a.opts.Hooks.Fire(ctx, EventUserPromptSubmit, a.hookInput(map[string]any{"prompt": prompt}))
		if err != nil {
			return "", err
		}
		if out.Stop {
			stop = "The prompt was stopped by a UserPromptSubmit hook: " + out.StopReason
			return stop, errors.New(stop)
		}
		if out.Block {
			stop = "The prompt was blocked by a UserPromptSubmit hook: " + out.Reason
			return stop, errors.New(stop)
		}
		extra = append(extra, out.AdditionalContext)
	}
	first := textMessage(provider.RoleUser, append(extra, prompt)...)
	if len(images) > 0 {
		if p := a.Provider(); provider.AcceptsImages(p) {
			first.Content = append(first.Content, ImageBlocks(images)...)
		} else {
			first.Content = append(first.Content, provider.Block{Type: provider.BlockText, Text: fmt.Sprintf("[%d attached image(s) were not sent: the model %s does not accept images.]", len(images), p.Name())})
			a.emit(Event{Kind: KindNotice, Text: fmt.Sprintf("the model %s does not accept images; the attached image was not sent (switch with /model to a vision model)", p.Name())})
		}
	}
	if nudge {
		return "", a.recordNudge(strings.Join(append(extra, prompt), "\n\n"))
	}
	return "", a.record(first, false)
}

// send makes one model call and counts its usage (res, the session's, the
// transcript's). A failure is the error the turn ends with; after a
// cancellation the partial reply is recorded as interrupted and is res.Text.
func (a *Agent) send(ctx context.Context, res *Result) (*provider.Response, error) {
	p := a.Provider()
	resp, err := p.Send(ctx, a.request(), func(e provider.Event) {
		switch e.Type {
		case "text_delta":
			a.emit(Event{Kind: KindTextDelta, Text: e.Text})
		case "tool_use_start":
			a.emit(Event{Kind: KindToolStart, ToolName: e.Name})
		}
	})
	res.Turns++
	if resp != nil {
		res.StopReason = resp.StopReason
		res.Usage.Add(resp.Usage)
		a.mu.Lock()
		a.usage.Add(resp.Usage)
		a.lastUsage = resp.Usage
		a.mu.Unlock()
		u := resp.Usage
		a.emit(Event{Kind: KindUsage, Usage: &u})
		if a.opts.Session != nil && resp.Usage != (provider.Usage{}) {
			if err := a.opts.Session.AppendUsage(p.Name(), resp.Usage); err != nil {
				return nil, err
			}
		}
	}
	if err == nil {
		return resp, nil
	}
	if ctx.Err() == nil {
		return nil, fmt.Errorf("model %s: %w", p.Name(), err)
	}
	if resp != nil {
		if partial := textOnly(resp.Content); len(partial.Content) > 0 {
			if rerr := a.record(partial, true); rerr != nil {
				return nil, rerr
			}
			res.Text = partial.Text()
		}
	}
	return nil, ctx.Err()
}

// continueCut handles a reply cut by the output token limit: a call cut
// mid-input cannot run, so the text is kept and the model is asked for the
// rest of the text, or for the whole call again, up to MaxContinues times
// in a row; then stop is the turn's text and err ends it.
func (a *Agent) continueCut(msg provider.Message, calls []provider.Block, cut *strings.Builder, continues *int) (stop string, err error) {
	msg = textOnly(msg.Content)
	if len(msg.Content) > 0 {
		if err := a.record(msg, false); err != nil {
			return "", err
		}
		a.emit(Event{Kind: KindAssistant, Message: &msg})
	}
	cut.WriteString(msg.Text())
	if *continues >= MaxContinues {
		stop = fmt.Sprintf("The model's reply hit the output token limit %d times in a row; stopping. Partial reply:\n%s", *continues+1, cut.String())
		return stop, errors.New("output token limit")
	}
	*continues++
	nudge := ContinueNudge
	if len(calls) > 0 {
		nudge = fmt.Sprintf(CutCallNudge, calls[len(calls)-1].Name)
		cut.Reset() // the text led up to a call; the answer comes after it
		a.emit(Event{Kind: KindNotice, Text: fmt.Sprintf("reply cut by the output token limit inside a %s call; asking the model to send it again", calls[len(calls)-1].Name)})
	} else {
		a.emit(Event{Kind: KindNotice, Text: "reply cut by the output token limit; asking the model to continue"})
	}
	return "", a.recordNudge(nudge)
}

// toolRound records a reply with tool calls, runs them and records their
// results. done says the turn ends here with res as it is (a Stop hook or
// loop detection ended it); an error ends it as a failure.
func (a *Agent) toolRound(ctx context.Context, msg provider.Message, calls []provider.Block, loops *loopDetector, res *Result) (done bool, err error) {
	if err := a.record(msg, false); err != nil {
		return false, err
	}
	a.emit(Event{Kind: KindAssistant, Message: &msg})
	results, loopMsg, err := a.runTools(ctx, calls, loops)
	res.Usage.Add(a.takePendingUsage())
	interrupted := ctx.Err() != nil
	reply := provider.Message{Role: provider.RoleUser, Content: results}
	if rerr := a.record(reply, interrupted); rerr != nil {
		return false, rerr
	}
	a.emit(Event{Kind: KindToolResults, Message: &reply})
	if interrupted {
		return false, ctx.Err()
	}
	if err != nil {
		return false, err
	}
	if a.stopped() != "" {
		res.Subtype = SubtypeSuccess
		res.Text = "Stopped by a hook: " + a.stopped()
		a.emit(Event{Kind: KindNotice, Text: res.Text})
		return true, nil
	}
	if loopMsg != "" {
		res.Text = loopMsg
		res.IsError = true
		res.Subtype = SubtypeDuringExecute
		a.emit(Event{Kind: KindNotice, Text: loopMsg})
		return true, nil
	}
	return false, nil
}

// stopHook fires the Stop hooks at the end of a turn, at most
// MaxStopBlocks times a turn. again says a hook sent the model back to
// work (its feedback is recorded as the next prompt).
func (a *Agent) stopHook(ctx context.Context, stopBlocks *int) (again bool, err error) {
	if a.opts.Hooks == nil || *stopBlocks >= MaxStopBlocks {
		return false, nil
	}
	out, err := a.opts.Hooks.Fire(ctx, EventStop, a.hookInput(map[string]any{"stop_hook_active": *stopBlocks > 0}))
	if err != nil {
		return false, err
	}
	if out.Stop {
		// continue:false: the model stops here, whatever a block says.
		a.emit(Event{Kind: KindNotice, Text: "a Stop hook ended the turn: " + out.StopReason})
		return false, nil
	}
	if !out.Block {
		return false, nil
	}
	*stopBlocks++
	a.emit(Event{Kind: KindNotice, Text: "a Stop hook sent the model back to work: " + out.Reason})
	return true, a.recordNudge("Stop hook feedback: " + out.Reason)
}

func (a *Agent) maybeCompact(ctx context.Context) error {
	if a.opts.Compactor == nil {
		return nil
	}
	a.mu.Lock()
	msgs, last := a.messages, a.lastUsage
	a.mu.Unlock()
	if !a.opts.Compactor.ShouldCompact(msgs, last) {
		return nil
	}
	return a.Compact(ctx, "auto")
}

// request assembles the next model call.
func (a *Agent) request() *provider.Request {
	specs := a.opts.Tools.Specs()
	tools := make([]provider.ToolSpec, len(specs))
	for i, s := range specs {
		tools[i] = provider.ToolSpec(s)
	}
	a.mu.Lock()
	msgs := wellFormed(a.messages)
	system := a.system
	a.mu.Unlock()
	if a.opts.PlanMode != nil && a.opts.PlanMode() {
		// Last, so the cached prefix before it survives entering plan mode.
		system += "\n\n" + strings.TrimSpace(PlanModePrompt)
	}
	return &provider.Request{
		System:      system,
		Messages:    msgs,
		Tools:       tools,
		MaxTokens:   a.opts.MaxTokens,
		CacheSystem: true,
	}
}

// wellFormed returns the conversation as the APIs accept it: no empty
// messages, roles alternating (neighbours of one role merged), and every
// tool_use answered by a tool_result in the next message (a call that never
// ran, say after a crash, is answered as interrupted).
func wellFormed(in []provider.Message) []provider.Message {
	var out []provider.Message
	for _, m := range in {
		if len(m.Content) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			merged := append(append([]provider.Block(nil), out[n-1].Content...), m.Content...)
			out[n-1] = provider.Message{Role: m.Role, Content: merged}
			continue
		}
		out = append(out, provider.Message{Role: m.Role, Content: append([]provider.Block(nil), m.Content...)})
	}
	for i := 0; i < len(out); i++ {
		if out[i].Role != provider.RoleAssistant {
			continue
		}
		calls := toolUses(out[i])
		if len(calls) == 0 {
			continue
		}
		answered := map[string]bool{}
		if i+1 < len(out) {
			for _, b := range out[i+1].Content {
				if b.Type == provider.BlockToolResult {
					answered[b.ToolUseID] = true
				}
			}
		}
		var missing []provider.Block
		for _, c := range calls {
			if !answered[c.ID] {
				missing = append(missing, provider.Block{Type: provider.BlockToolResult, ToolUseID: c.ID, Content: "Not run: the session was interrupted before this call completed.", IsError: true})
			}
		}
		if len(missing) == 0 {
			continue
		}
		if i+1 < len(out) && out[i+1].Role == provider.RoleUser {
			// Results go first in the user message.
			out[i+1].Content = append(missing, out[i+1].Content...)
		} else {
			rest := append([]provider.Message{{Role: provider.RoleUser, Content: missing}}, out[i+1:]...)
			out = append(out[:i+1], rest...)
		}
	}
	return out
}

func toolUses(m provider.Message) []provider.Block {
	var out []provider.Block
	for _, b := range m.Content {
		if b.Type == provider.BlockToolUse {
			out = append(out, b)
		}
	}
	return out
}

// textOnly keeps the non-empty text blocks of an assistant reply.
func textOnly(blocks []provider.Block) provider.Message {
	m := provider.Message{Role: provider.RoleAssistant}
	for _, b := range blocks {
		if b.Type == provider.BlockText && b.Text != "" {
			m.Content = append(m.Content, b)
		}
	}
	return m
}

// nonEmpty gives an empty reply a visible body, so the transcript shows
// that the model answered with nothing.
func nonEmpty(m provider.Message) provider.Message {
	if len(m.Content) == 0 {
		m.Content = []provider.Block{{Type: provider.BlockText, Text: "(no content)"}}
	}
	return m
}

// loopDetector remembers the last LoopWindow calls.
type loopDetector struct {
	keys []string
}

// see records a call and returns how often it occurs in the window.
func (l *loopDetector) see(name string, input json.RawMessage) int {
	key := name + " " + canonical(input)
	l.keys = append(l.keys, key)
	if len(l.keys) > LoopWindow {
		l.keys = l.keys[len(l.keys)-LoopWindow:]
	}
	n := 0
	for _, k := range l.keys {
		if k == key {
			n++
		}
	}
	return n
}

// canonical re-encodes JSON with sorted keys and no spacing.
func canonical(input json.RawMessage) string {
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return string(input)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(input)
	}
	return string(b)
}
