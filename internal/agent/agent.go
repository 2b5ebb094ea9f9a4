// Package agent is the model-driven loop: it assembles each request (system
// prompt, tool specs, the conversation), sends it, and acts on the stop
// reason. tool_use: every call of the reply is checked by the Gate (and the
// Asker when the Gate says ask), run, and answered with a tool_result of the
// same id, in order, before the model is called again. end_turn: the reply
// is the result (a Stop hook may send the model back to work, a bounded
// number of times). max_tokens: the model is asked to continue, a bounded
// number of times. refusal, and any other reason: the turn stops and says
// why. The same call repeated more than LoopRepeats times in the last
// LoopWindow calls ends the turn with an explanation, and MaxTurns bounds
// the model calls of one turn.
//
// The principal type is Agent, one conversation. Every message is recorded
// in the session (when one is set) before the next step; on Ctrl-C the
// partial reply is kept and recorded as interrupted. Plug points are
// interfaces: Gate (permissions), Asker (a TTY prompt), Hooks (settings
// hooks, see hooks.go), Compactor (context compaction). An Agent runs one
// turn at a time: Run must not be called concurrently.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// Call is one tool call as the Gate and the Asker see it.
type Call struct {
	Tool  string
	Input json.RawMessage
	// Paths are the absolute paths the call reads or writes, as the tool
	// itself resolves them (EditFunction's come from the index); nil when
	// the call names none. Permission checks judge these, never a path
	// field of the input the tool does not use.
	Paths []string
}

// Gate decides whether a tool call may run.
type Gate interface {
	Check(ctx context.Context, c Call) Decision
}

// Decision is a Gate's verdict.
type Decision struct {
	Behavior string // "allow", "ask" or "deny"
	Reason   string
	// Protected: an ask no rule or mode lifts (a protected path); only a
	// person can approve the call.
	Protected bool
	// RulesFile is the settings file where an allow rule would count; ""
	// means .grit/settings.json (the repository is trusted).
	RulesFile string
}

// Decision behaviors.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// Asker asks the user about a call the Gate could not decide (a TTY prompt).
// Without one (headless), ask becomes deny, and the tool result tells the
// model how the user can allow it.
type Asker interface {
	Ask(ctx context.Context, c Call, reason string) (bool, error)
}

// Hooks fires settings hooks; see CommandHooks.
type Hooks interface {
	Fire(ctx context.Context, event string, input map[string]any) (HookOutcome, error)
}

// HookOutcome is what the hooks of one event decided. Block refuses the
// action (for Stop: sends the model back to work) with Reason for the
// model; Stop ends the turn (continue:false) with StopReason for the user.
type HookOutcome struct {
	Block             bool
	Reason            string
	Stop              bool
	StopReason        string
	AdditionalContext string
}

// Compactor shortens a conversation that nears the model's window.
type Compactor interface {
	// ShouldCompact reports whether messages, whose last model call used
	// last, should be compacted before the next call.
	ShouldCompact(messages []provider.Message, last provider.Usage) bool
	// Compact returns a shorter conversation that carries the task on. An
	// error with messages means they replace the conversation and the turn
	// still stops (the compacted conversation is still too large).
	Compact(ctx context.Context, messages []provider.Message) ([]provider.Message, error)
	// Spent is the usage of every summary call so far: the agent counts
	// it in the conversation's usage and the turn's.
	Spent() provider.Usage
}

// Defaults and bounds.
const (
	DefaultMaxTurns  = 100  // model calls per turn
	DefaultMaxTokens = 8192 // output tokens per call
	MaxContinues     = 3    // "continue" nudges after max_tokens, per turn
	MaxStopBlocks    = 5    // Stop-hook continuations per turn
	LoopWindow       = 10   // tool calls looked at by loop detection
	LoopRepeats      = 5    // more repeats than this in the window is a loop
)

// ContinueNudge is the user message sent after a reply was cut by max_tokens.
const ContinueNudge = "Your reply was cut off by the output token limit. Continue exactly where you stopped; do not repeat what you already wrote."

// CutCallNudge is the user message sent after a reply was cut by max_tokens
// in the middle of a tool call (%s: the tool's name). A cut call cannot
// run, and continuing it mid-JSON is impossible: it is asked for again.
const CutCallNudge = "Your reply was cut off by the output token limit in the middle of a %s call, so that call was not run. Send the whole call again in your next reply; if its input is long (a large Write, say), split the work into smaller calls."

// Result subtypes, as in Claude Code's result message.
const (
	SubtypeSuccess       = "success"
	SubtypeMaxTurns      = "error_max_turns"
	SubtypeDuringExecute = "error_during_execution"
)

// Options configure an Agent.
type Options struct {
	Provider provider.Provider
	Tools    *tool.Registry
	Env      *tool.Env
	// Gate checks every tool call; nil allows every call (tests only: the
	// app always wires the permission engine).
	Gate      Gate
	Asker     Asker
	Hooks     Hooks
	Compactor Compactor
	// Session records the conversation; nil records nothing.
	Session *session.Session
	// History is a resumed conversation.
	History []provider.Message
	// Resumed says the session continues an earlier one (SessionStart's source).
	Resumed bool
	// System is the whole system prompt; "" renders SystemPrompt for Env's root.
	System string
	// MaxTurns bounds the model calls of one turn; 0 means DefaultMaxTurns.
	MaxTurns int
	// MaxTokens bounds one reply; 0 means DefaultMaxTokens.
	MaxTokens int
	// OnEvent receives the turn's events as they happen; nil drops them.
	OnEvent func(Event)
	// PlanMode reports whether plan mode is on; while it is, the system
	// prompt ends with PlanModePrompt. Nil means never.
	PlanMode func() bool
}

// Agent is one conversation with a model.
type Agent struct {
	opts Options

	// mu guards the fields below against readers (Messages, Usage) while a
	// turn runs; Run itself is not reentrant.
	mu        sync.Mutex
	system    string
	provider  provider.Provider
	messages  []provider.Message
	usage     provider.Usage // the whole conversation
	lastUsage provider.Usage // the last model call
	turnUsage provider.Usage // compaction calls of the running turn
	started   bool           // SessionStart fired
	ended     bool           // SessionEnd fired
	// hookStop is set by a PreToolUse or PostToolUse hook's continue:false
	// during a turn (its stopReason); the turn ends after the reply's calls.
	hookStop string
	// pendingUsage is subagents' usage not yet in the running turn's Result.
	pendingUsage provider.Usage

	askMu  sync.Mutex // one permission question at a time (parallel reads)
	emitMu sync.Mutex // events reach OnEvent one at a time
}

// New builds an Agent.
func New(opts Options) (*Agent, error) {
	if opts.Provider == nil {
		return nil, errors.New("agent: no provider")
	}
	if opts.Tools == nil {
		opts.Tools = tool.NewRegistry()
	}
	if opts.MaxTurns <= 0 {
		opts.MaxTurns = DefaultMaxTurns
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	a := &Agent{opts: opts, provider: opts.Provider, messages: append([]provider.Message(nil), opts.History...)}
	a.system = opts.System
	if a.system == "" {
		root := ""
		if opts.Env != nil {
			root = opts.Env.Root
		}
		a.system = SystemPrompt(DetectPromptEnv(root))
	}
	return a, nil
}

// System is the system prompt sent with every request.
func (a *Agent) System() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.system
}

// SetSystem replaces the system prompt from the next request on (the
// context layer rebuilds it after a compaction reloads the context files).
func (a *Agent) SetSystem(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.system = s
}

// SetCompactor sets the Compactor. Call it before Run, never during one.
func (a *Agent) SetCompactor(c Compactor) { a.opts.Compactor = c }

// SessionID is the recording session's ID, or "".
func (a *Agent) SessionID() string {
	if a.opts.Session == nil {
		return ""
	}
	return a.opts.Session.ID
}

// TranscriptPath is the recording session's file, or "".
func (a *Agent) TranscriptPath() string {
	if a.opts.Session == nil {
		return ""
	}
	return a.opts.Session.Path
}

// Tools is the tool registry.
func (a *Agent) Tools() *tool.Registry { return a.opts.Tools }

// Provider is the model in use.
func (a *Agent) Provider() provider.Provider {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.provider
}

// SetProvider switches the model for the next calls (/model).
func (a *Agent) SetProvider(p provider.Provider) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.provider = p
}

// Messages returns a copy of the conversation.
func (a *Agent) Messages() []provider.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]provider.Message(nil), a.messages...)
}

// Usage is the token usage of the whole conversation, and of the last call.
func (a *Agent) Usage() (total, last provider.Usage) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.usage, a.lastUsage
}

// Clear forgets the conversation (/clear). The transcript keeps it; a
// compact record with no messages marks the reset for a later resume.
func (a *Agent) Clear() error {
	a.mu.Lock()
	a.messages = nil
	a.mu.Unlock()
	if a.opts.Session != nil {
		return a.opts.Session.Append(session.Record{Type: session.TypeCompact, Trigger: "clear"})
	}
	return nil
}

// Compact runs the Compactor now (trigger "manual" for /compact, "auto"
// near the window).
func (a *Agent) Compact(ctx context.Context, trigger string) error {
	if a.opts.Compactor == nil {
		return errors.New("compact: no compactor is configured")
	}
	if a.opts.Hooks != nil {
		if _, err := a.opts.Hooks.Fire(ctx, EventPreCompact, a.hookInput(map[string]any{"trigger": trigger, "custom_instructions": ""})); err != nil {
			return fmt.Errorf("compact: %w", err)
		}
	}
	before := a.opts.Compactor.Spent()
	msgs, cerr := a.opts.Compactor.Compact(ctx, a.Messages())
	spent := a.opts.Compactor.Spent()
	spent.InputTokens -= before.InputTokens
	spent.OutputTokens -= before.OutputTokens
	spent.CacheReadTokens -= before.CacheReadTokens
	spent.CacheWriteTokens -= before.CacheWriteTokens
	a.mu.Lock()
	a.usage.Add(spent)
	a.turnUsage.Add(spent)
	a.mu.Unlock()
	if cerr != nil && msgs == nil {
		return fmt.Errorf("compact: %w", cerr)
	}
	a.mu.Lock()
	a.messages = append([]provider.Message(nil), msgs...)
	a.mu.Unlock()
	if a.opts.Session != nil {
		if err := a.opts.Session.Append(session.Record{Type: session.TypeCompact, Trigger: trigger, Messages: msgs}); err != nil {
			return err
		}
	}
	a.emit(Event{Kind: KindNotice, Text: fmt.Sprintf("conversation compacted (%s): %d messages", trigger, len(msgs))})
	if cerr != nil {
		return fmt.Errorf("compact: %w", cerr)
	}
	return nil
}

// End fires SessionEnd once, if the session started (a turn ran). reason
// is Claude Code's: "clear", "logout", "prompt_input_exit" or "other".
func (a *Agent) End(ctx context.Context, reason string) error {
	if !a.started || a.ended || a.opts.Hooks == nil {
		return nil
	}
	a.ended = true
	_, err := a.opts.Hooks.Fire(ctx, EventSessionEnd, a.hookInput(map[string]any{"reason": reason}))
	return err
}

// hookInput adds the fields every hook event carries.
func (a *Agent) hookInput(m map[string]any) map[string]any {
	m["session_id"] = a.SessionID()
	m["transcript_path"] = a.TranscriptPath()
	if a.opts.Env != nil {
		m["cwd"] = a.opts.Env.Root
	}
	return m
}

func (a *Agent) emit(e Event) {
	if a.opts.OnEvent != nil {
		a.emitMu.Lock()
		defer a.emitMu.Unlock()
		a.opts.OnEvent(e)
	}
}

// record appends m to the conversation and the transcript.
func (a *Agent) record(m provider.Message, interrupted bool) error {
	a.mu.Lock()
	a.messages = append(a.messages, m)
	a.mu.Unlock()
	if a.opts.Session != nil {
		if err := a.opts.Session.AppendMessage(m, interrupted); err != nil {
			return err
		}
	}
	return nil
}

// recordNudge appends a user-role message the harness wrote (a continue
// nudge, hook feedback): the transcript marks it, so it never counts as a
// prompt of the user's.
func (a *Agent) recordNudge(text string) error {
	m := textMessage(provider.RoleUser, text)
	a.mu.Lock()
	a.messages = append(a.messages, m)
	a.mu.Unlock()
	if a.opts.Session != nil {
		return a.opts.Session.AppendMeta(m)
	}
	return nil
}

func textMessage(role provider.Role, texts ...string) provider.Message {
	m := provider.Message{Role: role}
	for _, t := range texts {
		if strings.TrimSpace(t) != "" {
			m.Content = append(m.Content, provider.Block{Type: provider.BlockText, Text: t})
		}
	}
	return m
}

// setStopped records a hook's continue:false (its stopReason); parallel
// calls may set it at once.
func (a *Agent) setStopped(reason string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.hookStop = reason
}

// stopped is the stopReason a hook ended the turn with, or "".
func (a *Agent) stopped() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.hookStop
}
