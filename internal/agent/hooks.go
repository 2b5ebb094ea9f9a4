package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/grit-dev/grit/internal/config"
)

// Hook events, as Claude Code names them.
const (
	EventPreToolUse       = "PreToolUse"
	EventPostToolUse      = "PostToolUse"
	EventUserPromptSubmit = "UserPromptSubmit"
	EventNotification     = "Notification"
	EventStop             = "Stop"
	EventSubagentStop     = "SubagentStop"
	EventPreCompact       = "PreCompact"
	EventSessionStart     = "SessionStart"
	EventSessionEnd       = "SessionEnd"
)

// HookEvents are the events Claude Code documents, in its order. A settings
// file naming another event still loads: that event is warned about once
// and ignored (Claude Code adds events; a newer settings file must not stop
// Grit from starting).
var HookEvents = []string{EventPreToolUse, EventPostToolUse, EventUserPromptSubmit, EventNotification,
	EventStop, EventSubagentStop, EventPreCompact, EventSessionStart, EventSessionEnd}

// KnownHookEvent reports whether event is one of HookEvents.
func KnownHookEvent(event string) bool {
	for _, e := range HookEvents {
		if e == event {
			return true
		}
	}
	return false
}

// DefaultHookTimeout bounds a hook command without its own timeout.
const DefaultHookTimeout = 60 * time.Second

// HookLayer is one settings file's hooks.
type HookLayer struct {
	Name  string // "managed", "user", "project"
	Hooks map[string][]config.Hook
	// Trusted must be set for a repository's own layer; an untrusted layer
	// never runs.
	Trusted bool
}

// HookOptions configure CommandHooks.
type HookOptions struct {
	Layers []HookLayer
	// Dir is the project directory: the hooks' working directory and
	// CLAUDE_PROJECT_DIR / GRIT_PROJECT_DIR.
	Dir            string
	SessionID      string
	TranscriptPath string
	// Logf receives a line for every hook that failed (and notices about
	// ignored layers and events); nil discards them.
	Logf func(format string, args ...any)
}

type compiledHook struct {
	layer   string
	event   string
	matcher *regexp.Regexp // nil matches everything
	cmd     config.HookCommand
}

// CommandHooks runs settings hooks as commands, the way Claude Code does:
// the event as JSON on stdin; exit 0 is success (stdout JSON may still say
// {"decision":"block","reason":...} or {"continue":false}); exit 2 blocks
// with stderr as the reason for the model; any other failure (another exit
// code, a timeout, a crash, stdout that is not valid JSON) is shown to the
// user through Logf and does not block. Safe for concurrent use.
type CommandHooks struct {
	opts  HookOptions
	hooks []compiledHook
}

// NewHooks compiles the layers' hooks. An untrusted layer is dropped (and
// logged); an unknown event or a hook type other than "command" is logged
// once and ignored; a matcher that is not a valid regular expression is an
// error naming it.
func NewHooks(opts HookOptions) (*CommandHooks, error) {
	h := &CommandHooks{opts: opts}
	warned := map[string]bool{}
	for _, l := range opts.Layers {
		if !l.Trusted {
			if len(l.Hooks) > 0 {
				h.logf("hooks from %s settings ignored: the repository is not trusted", l.Name)
			}
			continue
		}
		events := make([]string, 0, len(l.Hooks))
		for event := range l.Hooks {
			events = append(events, event)
		}
		sort.Strings(events) // settings order within a layer is by event; keep runs deterministic
		for _, event := range events {
			list := l.Hooks[event]
			if !KnownHookEvent(event) {
				if !warned[event] {
					warned[event] = true
					h.logf("hook event %q (%s settings) is not one Grit knows; its hooks are ignored (known: %s)", event, l.Name, strings.Join(HookEvents, ", "))
				}
				continue
			}
			for _, m := range list {
				var re *regexp.Regexp
				if m.Matcher != "" && m.Matcher != "*" {
					var err error
					if re, err = regexp.Compile("^(?:" + m.Matcher + ")$"); err != nil {
						return nil, fmt.Errorf("%s settings: hook matcher %q: %w", l.Name, m.Matcher, err)
					}
				}
				for _, c := range m.Hooks {
					if c.Type != "command" && c.Type != "" {
						if !warned["type "+c.Type] {
							warned["type "+c.Type] = true
							h.logf("hook type %q (%s settings, %s) is not one Grit runs; those hooks are ignored (Grit runs type \"command\")", c.Type, l.Name, event)
						}
						continue
					}
					if strings.TrimSpace(c.Command) == "" {
						return nil, fmt.Errorf("%s settings: %s hook with an empty command", l.Name, event)
					}
					h.hooks = append(h.hooks, compiledHook{layer: l.Name, event: event, matcher: re, cmd: c})
				}
			}
		}
	}
	return h, nil
}

func (h *CommandHooks) logf(format string, args ...any) {
	if h.opts.Logf != nil {
		h.opts.Logf(format, args...)
	}
}

// matchKey is what an event's matcher is compared with.
func matchKey(event string, input map[string]any) string {
	key := map[string]string{EventPreToolUse: "tool_name", EventPostToolUse: "tool_name", EventSessionStart: "source",
		EventPreCompact: "trigger", EventSessionEnd: "reason", EventNotification: "message"}[event]
	s, _ := input[key].(string)
	return s
}

// Fire runs every hook registered for event whose matcher matches, in
// settings order, and combines their outcomes: any block blocks, any
// continue:false stops, reasons and additional context are joined. The
// error is only for a canceled context.
func (h *CommandHooks) Fire(ctx context.Context, event string, input map[string]any) (HookOutcome, error) {
	var out HookOutcome
	var reasons, extra []string
	payload := map[string]any{}
	for k, v := range input {
		payload[k] = v
	}
	payload["hook_event_name"] = event
	setDefault(payload, "session_id", h.opts.SessionID)
	setDefault(payload, "transcript_path", h.opts.TranscriptPath)
	setDefault(payload, "cwd", h.opts.Dir)
	stdin, err := json.Marshal(payload)
	if err != nil {
		return out, fmt.Errorf("hook %s: encode input: %w", event, err)
	}
	key := matchKey(event, input)
	for _, hk := range h.hooks {
		if hk.event != event || (hk.matcher != nil && !hk.matcher.MatchString(key)) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("hook %s: %w", event, err)
		}
		o := h.run(ctx, hk, stdin)
		if o.Block {
			out.Block = true
			reasons = append(reasons, o.Reason)
		}
		if o.Stop {
			out.Stop = true
			if o.StopReason != "" {
				out.StopReason = strings.TrimSpace(out.StopReason + "\n" + o.StopReason)
			}
		}
		if o.AdditionalContext != "" {
			extra = append(extra, o.AdditionalContext)
		}
	}
	out.Reason = strings.Join(reasons, "\n")
	out.AdditionalContext = strings.Join(extra, "\n")
	if err := ctx.Err(); err != nil {
		return out, fmt.Errorf("hook %s: %w", event, err)
	}
	return out, nil
}

func setDefault(m map[string]any, k, v string) {
	if _, ok := m[k]; !ok && v != "" {
		m[k] = v
	}
}

// hookReply is the JSON a hook may print on stdout.
type hookReply struct {
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	Continue           *bool  `json:"continue"`
	StopReason         string `json:"stopReason"`
	HookSpecificOutput struct {
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// run executes one hook command and interprets its result.
func (h *CommandHooks) run(ctx context.Context, hk compiledHook, stdin []byte) HookOutcome {
	timeout := DefaultHookTimeout
	if hk.cmd.Timeout > 0 {
		timeout = time.Duration(hk.cmd.Timeout) * time.Second
	}
	name := fmt.Sprintf("%s hook %q (%s settings)", hk.event, hk.cmd.Command, hk.layer)
	// A failing hook is shown and does not block (Claude Code: only exit
	// code 2 blocks).
	fail := func(format string, args ...any) HookOutcome {
		h.logf("%s failed (not blocking): %s", name, fmt.Sprintf(format, args...))
		return HookOutcome{}
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-c", hk.cmd.Command)
	cmd.Dir = h.opts.Dir
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+h.opts.Dir, "GRIT_PROJECT_DIR="+h.opts.Dir)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &stdout, max: 1 << 20}
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 1 << 20}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fail("cannot start: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var werr error
	select {
	case werr = <-done:
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	case <-timer.C:
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return fail("timed out after %s", timeout)
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return fail("canceled: %v", ctx.Err())
	}
	errText := strings.TrimSpace(stderr.String())
	var exitErr *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &exitErr):
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fail("killed by %v", ws.Signal())
		}
		if exitErr.ExitCode() == 2 {
			if errText == "" {
				errText = name + " blocked this without a reason"
			}
			return HookOutcome{Block: true, Reason: errText}
		}
		return fail("exit status %d: %s", exitErr.ExitCode(), errText)
	default:
		return fail("%v", werr)
	}

	text := strings.TrimSpace(stdout.String())
	if !strings.HasPrefix(text, "{") {
		if hk.event == EventUserPromptSubmit || hk.event == EventSessionStart {
			return HookOutcome{AdditionalContext: text}
		}
		return HookOutcome{}
	}
	var r hookReply
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		return fail("stdout is not valid JSON: %v", err)
	}
	o := HookOutcome{AdditionalContext: r.HookSpecificOutput.AdditionalContext}
	switch {
	case r.Decision == "block":
		o.Block, o.Reason = true, r.Reason
	case r.HookSpecificOutput.PermissionDecision == "deny":
		o.Block, o.Reason = true, r.HookSpecificOutput.PermissionDecisionReason
	}
	// continue:false stops the agent (it wins over a block, as in Claude
	// Code); stopReason is for the user, not the model.
	if r.Continue != nil && !*r.Continue {
		o.Stop, o.StopReason = true, r.StopReason
		if o.StopReason == "" {
			o.StopReason = name + " stopped the turn"
		}
	}
	if o.Block && o.Reason == "" {
		o.Reason = name + " blocked this without a reason"
	}
	return o
}

// limitedBuffer keeps at most max bytes and discards the rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
