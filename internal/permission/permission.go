// Package permission decides whether a tool call may run: allow, ask the
// user, or deny. The principal type is Engine, built by New from the mode and
// three layers of Claude Code shaped rules (managed, user, project); Check
// returns a Decision for one call. Trust records which repositories' own
// settings, hooks and skills the user has accepted, bound to a content hash.
//
// Invariants:
//   - deny rules are checked before ask rules before allow rules, and within
//     each, managed before user before project. A project layer from a
//     repository that is not trusted is ignored (Notices says so).
//   - protected paths (.git, .grit, .env*, shell rc files, ~/.ssh, ...) ask in
//     every mode, bypassPermissions included, existing or not; names are
//     compared after case and Unicode folding.
//   - a Bash command is parsed with mvdan.cc/sh; every command it may run
//     (compounds, substitutions, subshells, functions, wrapper operands) must
//     be allowed, and any one matching a deny rule denies the whole call.
//     Exec wrappers are never allowed by a prefix rule; computed command
//     names and scripts that do not survive a print round trip ask.
//
// An Engine is safe for concurrent use; SetMode and GrantSession take effect
// for the next Check.
package permission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/config"
)

// Modes.
const (
	ModeDefault     = "default"
	ModeAcceptEdits = "acceptEdits"
	ModePlan        = "plan"
	ModeBypass      = "bypassPermissions"
)

// ExitPlanMode is the tool that presents a plan for approval: it always
// asks in plan mode.
const ExitPlanMode = "ExitPlanMode"

// Behaviors of a Decision.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// Decision is the verdict on one tool call. Reason is a sentence for the
// user (and, on deny, for the model).
type Decision struct {
	Behavior string `json:"behavior"`
	Reason   string `json:"reason"`
	// Protected is set on an ask for a protected path: no rule and no mode
	// allows the call, only a person approving it.
	Protected bool `json:"protected,omitempty"`
}

// Options configure an Engine.
type Options struct {
	// Mode is the starting mode; "" takes the layers' defaultMode (managed,
	// then user, then a trusted project), else "default".
	Mode string
	// Root is the workspace (absolute); relative rule patterns anchor here.
	Root string
	// Layers of rules, strongest first.
	Managed, User, Project config.Permissions
	// ProjectTrusted says the user trusts the repository; without it the
	// Project layer is ignored.
	ProjectTrusted bool
	// Home is the user's home directory; "" uses os.UserHomeDir.
	Home string
	// ReadOnlyTools are extra tool names with no side effects (allowed in
	// every mode unless a rule says otherwise).
	ReadOnlyTools []string
	// Cwd is the directory relative paths in a call start from (Bash's
	// working directory); nil means Root. Rules stay anchored at Root.
	Cwd func() string
	// AdditionalDirs widen the workspace (permissions.additionalDirectories):
	// reads there are allowed and acceptEdits edits there as inside Root.
	AdditionalDirs []string
}

// ErrUnknownMode is returned for a mode name that is not one of the four.
var ErrUnknownMode = errors.New("unknown permission mode")

// layer is one source of rules.
type layer struct {
	name             string
	deny, ask, allow []Rule
}

// Engine decides tool calls.
type Engine struct {
	root, home string
	cwd        func() string
	extra      []string // additional directories, absolute and clean
	layers     []layer
	readOnly   map[string]bool
	notices    []string
	hasBashDny bool
	trusted    bool // the project layer counts

	mu     sync.Mutex
	mode   string
	grants []Rule // session grants, most recent last
	turn   []Rule // a custom command's allowed-tools, for its turn only
}

// AllowForTurn allows what rules name until the returned function is
// called (a custom command's allowed-tools, for the turn it runs). Deny and
// ask rules still win, as they do over every allow rule.
func (e *Engine) AllowForTurn(rules []string) (func(), error) {
	var parsed []Rule
	for _, raw := range rules {
		r, err := ParseRule(raw, e.root, e.home)
		if err != nil {
			return nil, fmt.Errorf("allowed-tools: %w", err)
		}
		parsed = append(parsed, r)
	}
	e.mu.Lock()
	e.turn = parsed
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		e.turn = nil
		e.mu.Unlock()
	}, nil
}

// New builds an Engine. A rule that does not parse is an error naming it and
// its layer; an unknown mode is an error naming the valid ones.
func New(opts Options) (*Engine, error) {
	e := &Engine{root: filepath.Clean(opts.Root), home: opts.Home, cwd: opts.Cwd, readOnly: map[string]bool{"Skill": true, "TodoWrite": true}}
	if opts.Root == "" {
		e.root = ""
	}
	if e.home == "" {
		e.home, _ = os.UserHomeDir()
	}
	for _, t := range opts.ReadOnlyTools {
		e.readOnly[t] = true
	}
	for _, d := range opts.AdditionalDirs {
		e.extra = append(e.extra, realPath(absPath(d, e.root, e.home)))
	}
	type src struct {
		name string
		p    config.Permissions
	}
	srcs := []src{{"managed", opts.Managed}, {"user", opts.User}}
	e.trusted = opts.ProjectTrusted
	if opts.ProjectTrusted {
		srcs = append(srcs, src{"project", opts.Project})
	} else if len(opts.Project.Allow)+len(opts.Project.Ask)+len(opts.Project.Deny) > 0 || opts.Project.DefaultMode != "" {
		e.notices = append(e.notices, "project permission settings (.grit/ and .claude/ settings files) ignored: the repository is not trusted (run `grit trust` to accept them)")
	}
	mode := opts.Mode
	for _, s := range srcs {
		l := layer{name: s.name}
		var err error
		if l.deny, err = e.parseAll(s.p.Deny); err != nil {
			return nil, fmt.Errorf("%s settings: %w", s.name, err)
		}
		if l.ask, err = e.parseAll(s.p.Ask); err != nil {
			return nil, fmt.Errorf("%s settings: %w", s.name, err)
		}
		if l.allow, err = e.parseAll(s.p.Allow); err != nil {
			return nil, fmt.Errorf("%s settings: %w", s.name, err)
		}
		for _, r := range l.deny {
			if r.Tool == "Bash" {
				e.hasBashDny = true
			}
		}
		e.layers = append(e.layers, l)
		if mode == "" && s.p.DefaultMode != "" {
			mode = s.p.DefaultMode
		}
	}
	if mode == "" {
		mode = ModeDefault
	}
	if err := validMode(mode); err != nil {
		return nil, err
	}
	e.mode = mode
	return e, nil
}

func (e *Engine) parseAll(raw []string) ([]Rule, error) {
	var out []Rule
	for _, s := range raw {
		r, err := ParseRule(s, e.root, e.home)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func validMode(m string) error {
	switch m {
	case ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass:
		return nil
	}
	return fmt.Errorf("%w %q (expected: default, acceptEdits, plan, bypassPermissions)", ErrUnknownMode, m)
}

// Notices are warnings about the configuration for the user (an ignored
// untrusted project layer).
func (e *Engine) Notices() []string { return append([]string(nil), e.notices...) }

// Mode returns the current mode.
func (e *Engine) Mode() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mode
}

// SetMode switches the mode. Switching to plan drops the session's grants.
func (e *Engine) SetMode(m string) error {
	if err := validMode(m); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mode = m
	if m == ModePlan {
		e.grants = nil
	}
	return nil
}

// GrantSession allows, for the rest of the session, what the rule names. A
// grant is an exact command ("Bash(go test ./...)"), an explicit prefix
// ("Bash(go test:*)") or a path ("Edit(src/**)"), never a whole tool that
// runs commands or writes files.
func (e *Engine) GrantSession(rule string) error {
	r, err := ParseRule(rule, e.root, e.home)
	if err != nil {
		return err
	}
	if r.Any && (r.Tool == "Bash" || editTools[r.Tool]) {
		return fmt.Errorf("session grant %q: grant an exact command or a prefix (Bash(npm test), Bash(npm run:*)) or a path (Edit(src/**)), not the whole tool", rule)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.grants = append(e.grants, r)
	return nil
}

// GrantsFor returns the exact session-grant rules that would allow this call
// as it stands: one Bash rule per command that is not yet allowed, or the
// file path for an edit. The UI offers them as "allow for this session".
func (e *Engine) GrantsFor(toolName string, input json.RawMessage, paths ...string) []string {
	switch {
	case toolName == "Bash":
		var in struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(input, &in) != nil {
			return nil
		}
		sc := analyzeScript(in.Command)
		if len(sc.problems) > 0 {
			return nil
		}
		var out []string
		seen := map[string]bool{}
		for _, c := range sc.commands {
			if c.problem != "" || c.known < len(c.argv) {
				return nil
			}
			if d := e.commandDecision(c, e.Mode()); d.Behavior == Allow {
				continue
			}
			r := "Bash(" + quoteArgv(c.argv) + ")"
			if _, err := ParseRule(r, e.root, e.home); err != nil {
				return nil
			}
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
		return out
	case editTools[toolName]:
		if len(paths) == 0 {
			if p := inputPath(input); p != "" {
				paths = []string{p}
			}
		}
		var out []string
		for _, p := range paths {
			out = append(out, "Edit(//"+strings.TrimPrefix(absPath(p, e.dir(), e.home), "/")+")")
		}
		return out
	}
	return nil
}

// ProjectTrusted reports whether the repository's own rules count.
func (e *Engine) ProjectTrusted() bool { return e.trusted }

// Check decides one tool call, taking a file tool's path from its input.
func (e *Engine) Check(ctx context.Context, toolName string, input json.RawMessage) Decision {
	return e.CheckPaths(ctx, toolName, input, nil)
}

// CheckPaths decides one tool call. paths, when given, are the absolute
// paths the call actually reads or writes (as the tool resolves them); a
// file tool is then judged on every one of them, the strictest verdict
// winning, and a path field of its input is not looked at.
func (e *Engine) CheckPaths(ctx context.Context, toolName string, input json.RawMessage, paths []string) Decision {
	if len(paths) > 0 && (editTools[toolName] || readTools[toolName]) {
		var worst Decision
		for i, p := range paths {
			var d Decision
			if editTools[toolName] {
				d = e.checkEdit(toolName, p, e.Mode())
			} else {
				d = e.checkRead(toolName, p, e.Mode())
			}
			if i == 0 || severity[d.Behavior] > severity[worst.Behavior] {
				worst = d
			}
		}
		return worst
	}
	mode := e.Mode()
	switch {
	case toolName == "Bash":
		var in struct {
			Command string `json:"command"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("Bash input is not valid: %v", err)}
		}
		return e.checkBash(in.Command, mode)
	case editTools[toolName]:
		p := inputPath(input)
		if p == "" {
			return Decision{Behavior: Deny, Reason: toolName + " needs a file_path"}
		}
		return e.checkEdit(toolName, p, mode)
	case readTools[toolName]:
		return e.checkRead(toolName, inputPath(input), mode)
	case toolName == ExitPlanMode:
		// Leaving plan mode is the user's decision, always: no rule and
		// no mode allows it (outside plan mode the tool says so itself).
		if mode == ModePlan {
			return Decision{Behavior: Ask, Reason: "the plan needs your approval before any change is made"}
		}
		return Decision{Behavior: Allow, Reason: "not in plan mode"}
	case toolName == "WebFetch":
		var in struct {
			URL string `json:"url"`
		}
		json.Unmarshal(input, &in)
		host := ""
		if u, err := url.Parse(in.URL); err == nil {
			host = u.Hostname()
		}
		return e.checkOther(toolName, mode, func(r Rule) bool { return r.Any || (r.Domain != "" && r.matchDomain(host)) })
	}
	return e.checkOther(toolName, mode, func(r Rule) bool { return r.Any })
}

// dir is where a call's relative paths start.
func (e *Engine) dir() string {
	if e.cwd != nil {
		if d := e.cwd(); d != "" {
			return d
		}
	}
	return e.root
}

// inWorkspace reports whether the clean absolute path p is in the
// workspace root or one of the additional directories.
func (e *Engine) inWorkspace(p string) bool {
	if inside(p, e.root) {
		return true
	}
	for _, d := range e.extra {
		if inside(p, d) {
			return true
		}
	}
	return false
}

// severity orders behaviors from most to least permissive.
var severity = map[string]int{Allow: 0, Ask: 1, Deny: 2}

// inputPath finds the path field of a file tool's input.
func inputPath(input json.RawMessage) string {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Path         string `json:"path"`
	}
	json.Unmarshal(input, &in)
	switch {
	case in.FilePath != "":
		return in.FilePath
	case in.NotebookPath != "":
		return in.NotebookPath
	}
	return in.Path
}

// find returns the first rule of kind ("deny", "ask", "allow") over the
// layers, strongest first, for which match holds.
func (e *Engine) find(kind string, match func(Rule) bool) (Rule, string, bool) {
	for _, l := range e.layers {
		var rules []Rule
		switch kind {
		case Deny:
			rules = l.deny
		case Ask:
			rules = l.ask
		case Allow:
			rules = l.allow
		}
		for _, r := range rules {
			if match(r) {
				return r, l.name, true
			}
		}
	}
	if kind == Allow {
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, r := range e.grants {
			if match(r) {
				return r, "session", true
			}
		}
		for _, r := range e.turn {
			if match(r) {
				return r, "command allowed-tools", true
			}
		}
	}
	return Rule{}, "", false
}

func ruleReason(kind string, r Rule, layer string) string {
	return fmt.Sprintf("%s rule %s (%s settings)", kind, r.Raw, layer)
}

// pathRuleFor matches path rules that apply to tool: a rule for the tool
// itself, Edit rules for every edit tool, Read rules for every read tool.
func pathRuleFor(tool, p string) func(Rule) bool {
	return func(r Rule) bool {
		applies := r.Tool == tool || (r.Tool == "Edit" && editTools[tool]) || (r.Tool == "Read" && readTools[tool])
		if !applies {
			return false
		}
		return r.Any || (r.Pattern != "" && matchPath(r.Pattern, p))
	}
}

func (e *Engine) checkEdit(tool, p, mode string) Decision {
	abs := absPath(p, e.dir(), e.home)
	real := realPath(abs)
	match := func(r Rule) bool { return pathRuleFor(tool, abs)(r) || pathRuleFor(tool, real)(r) }
	if r, l, ok := e.find(Deny, match); ok {
		return Decision{Behavior: Deny, Reason: "denied by " + ruleReason(Deny, r, l)}
	}
	if mode == ModePlan {
		return Decision{Behavior: Deny, Reason: "plan mode: no edits (switch mode to make changes)"}
	}
	for _, q := range []string{abs, real} {
		if name, ok := protectedPath(q, e.home); ok {
			return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s is a protected path (%s): edits always ask", p, name), Protected: true}
		}
	}
	if r, l, ok := e.find(Ask, match); ok {
		return Decision{Behavior: Ask, Reason: ruleReason(Ask, r, l)}
	}
	if r, l, ok := e.find(Allow, match); ok {
		return Decision{Behavior: Allow, Reason: ruleReason(Allow, r, l)}
	}
	in := e.inWorkspace(real) && e.inWorkspace(abs)
	switch mode {
	case ModeBypass:
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode"}
	case ModeAcceptEdits:
		if in {
			return Decision{Behavior: Allow, Reason: "acceptEdits mode: edit inside the workspace"}
		}
		return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s is outside the workspace", p)}
	}
	return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s %s: edits ask in default mode", tool, p)}
}

func (e *Engine) checkRead(tool, p, mode string) Decision {
	abs := e.root
	if p != "" {
		abs = absPath(p, e.dir(), e.home)
	}
	real := realPath(abs)
	match := func(r Rule) bool { return pathRuleFor(tool, abs)(r) || pathRuleFor(tool, real)(r) }
	if r, l, ok := e.find(Deny, match); ok {
		return Decision{Behavior: Deny, Reason: "denied by " + ruleReason(Deny, r, l)}
	}
	if r, l, ok := e.find(Ask, match); ok {
		return Decision{Behavior: Ask, Reason: ruleReason(Ask, r, l)}
	}
	for _, q := range []string{abs, real} {
		if name, ok := secretRead(q, e.home); ok {
			return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s may hold secrets (%s): reads ask", p, name)}
		}
	}
	if r, l, ok := e.find(Allow, match); ok {
		return Decision{Behavior: Allow, Reason: ruleReason(Allow, r, l)}
	}
	if mode == ModeBypass || (e.inWorkspace(abs) && e.inWorkspace(real)) {
		return Decision{Behavior: Allow, Reason: "read-only tool"}
	}
	return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s is outside the workspace", p)}
}

func (e *Engine) checkOther(tool, mode string, match func(Rule) bool) Decision {
	m := func(r Rule) bool { return (r.Tool == tool || mcpServerRule(r.Tool, tool)) && match(r) }
	if r, l, ok := e.find(Deny, m); ok {
		return Decision{Behavior: Deny, Reason: "denied by " + ruleReason(Deny, r, l)}
	}
	if r, l, ok := e.find(Ask, m); ok {
		return Decision{Behavior: Ask, Reason: ruleReason(Ask, r, l)}
	}
	if e.readOnly[tool] {
		return Decision{Behavior: Allow, Reason: "read-only tool"}
	}
	if mode == ModePlan {
		return Decision{Behavior: Deny, Reason: fmt.Sprintf("plan mode: %s may have side effects", tool)}
	}
	if r, l, ok := e.find(Allow, m); ok {
		return Decision{Behavior: Allow, Reason: ruleReason(Allow, r, l)}
	}
	if mode == ModeBypass {
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode"}
	}
	return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s asks in %s mode", tool, mode)}
}

// mcpServerRule reports whether a rule's tool name names the MCP server of
// tool: "mcp__github" covers every mcp__github__<tool> (Claude Code's rule).
func mcpServerRule(ruleTool, tool string) bool {
	server, ok := strings.CutPrefix(ruleTool, "mcp__")
	return ok && server != "" && !strings.Contains(server, "__") && strings.HasPrefix(tool, ruleTool+"__")
}
