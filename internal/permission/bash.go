package permission

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// inert commands run nothing else and change no files by themselves (their
// redirects and arguments are still checked), so they need no rule.
var inert = set("cd", "pushd", "popd", "true", "false", ":", "pwd", "echo", "printf", "test", "[",
	"exit", "return", "shift", "break", "continue", "wait", "set")

// harmlessTargets are redirect targets that are not files.
var harmlessTargets = set("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty")

// checkBash decides a Bash command: every command it may run must be
// allowed, any deny wins, and protected paths ask in every mode.
func (e *Engine) checkBash(src, mode string) Decision {
	if strings.TrimSpace(src) == "" {
		return Decision{Behavior: Deny, Reason: "empty command"}
	}
	sc := analyzeScript(src)

	// Deny first, on everything that could be seen.
	for _, c := range sc.commands {
		if len(c.argv) == 0 {
			continue
		}
		if r, l, ok := e.find(Deny, func(r Rule) bool { return r.Tool == "Bash" && r.denyArgv(c.argv, c.known) }); ok {
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("`%s` is denied by %s", quoteArgv(c.argv), ruleReason(Deny, r, l))}
		}
	}
	for _, t := range sc.writes {
		if t.dynamic || harmlessTargets[t.path] {
			continue
		}
		abs := absPath(t.path, e.dir(), e.home)
		if r, l, ok := e.find(Deny, pathRuleFor("Edit", abs)); ok {
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("writing %s is denied by %s", t.path, ruleReason(Deny, r, l))}
		}
	}
	if mode == ModePlan {
		// As in Claude Code: read-only commands run, anything else waits
		// for the plan's approval.
		for _, t := range sc.writes {
			if t.dynamic || !harmlessTargets[t.path] && !strings.HasPrefix(t.path, "/dev/fd/") {
				return Decision{Behavior: Deny, Reason: fmt.Sprintf("plan mode: the command writes %s; only read-only commands run until the plan is approved", t.path)}
			}
		}
		for _, c := range sc.commands {
			if len(c.argv) > 0 && !readOnlyCommand(c) {
				return Decision{Behavior: Deny, Reason: fmt.Sprintf("plan mode: `%s` is not a read-only command; only read-only commands (ls, cat, rg, git log, ...) run until the plan is approved (ExitPlanMode)", quoteArgv(c.argv))}
			}
		}
	}

	var asks []string
	var protected bool // an ask no rule or mode lifts
	ask := func(format string, a ...any) { asks = append(asks, fmt.Sprintf(format, a...)) }
	asks = append(asks, sc.problems...)

	// Protected paths, named as arguments or written by redirects.
	for _, a := range sc.args {
		if strings.HasPrefix(a, "-") {
			_, v, ok := strings.Cut(a, "=")
			if !ok {
				continue
			}
			a = v
		}
		if a == "" {
			continue
		}
		if name, ok := protectedPath(absPath(a, e.dir(), e.home), e.home); ok {
			ask("the command names the protected path %s (%s)", a, name)
			protected = true
		}
	}
	for _, g := range sc.globs {
		if globMayMatchProtected(g) {
			ask("the pattern %s may expand to a protected path", g)
			protected = true
		}
	}
	for _, t := range sc.writes {
		switch {
		case t.dynamic:
			ask("the command writes to a computed path %s", t.path)
		case harmlessTargets[t.path] || strings.HasPrefix(t.path, "/dev/fd/"):
		case sc.changesDir && !filepath.IsAbs(t.path) && !strings.HasPrefix(t.path, "~") && mode != ModeBypass:
			ask("the command changes directory, then writes %s", t.path)
		default:
			if d := e.checkEdit("Edit", t.path, mode); d.Behavior != Allow {
				ask("the command writes %s: %s", t.path, d.Reason)
				protected = protected || d.Protected
			}
		}
	}

	for _, c := range sc.commands {
		if d := e.commandDecision(c, mode); d.Behavior != Allow {
			asks = append(asks, d.Reason)
		}
	}
	if len(asks) > 0 {
		return Decision{Behavior: Ask, Reason: joinReasons(asks), Protected: protected}
	}
	if mode == ModeBypass {
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode"}
	}
	return Decision{Behavior: Allow, Reason: "every command is allowed by a rule"}
}

// commandDecision decides one command of a script (deny was checked).
func (e *Engine) commandDecision(c command, mode string) Decision {
	shown := quoteArgv(c.argv)
	if c.problem != "" {
		if mode == ModeBypass && !e.hasBashDny {
			return Decision{Behavior: Allow, Reason: "bypassPermissions mode"}
		}
		return Decision{Behavior: Ask, Reason: c.problem}
	}
	if r, l, ok := e.find(Ask, func(r Rule) bool { return r.Tool == "Bash" && r.denyArgv(c.argv, c.known) }); ok {
		return Decision{Behavior: Ask, Reason: fmt.Sprintf("`%s`: %s", shown, ruleReason(Ask, r, l))}
	}
	// Expansions might complete the command into a denied one.
	if c.known < len(c.argv) {
		if r, l, ok := e.find(Deny, func(r Rule) bool { return r.Tool == "Bash" && mayComplete(r, c) }); ok {
			return Decision{Behavior: Ask, Reason: fmt.Sprintf("`%s` has computed arguments and might match %s", shown, ruleReason(Deny, r, l))}
		}
	}
	if !c.exactOnly && c.known == len(c.argv) && inert[c.argv[0]] {
		return Decision{Behavior: Allow, Reason: "inert builtin"}
	}
	if mode == ModePlan && readOnlyCommand(c) {
		return Decision{Behavior: Allow, Reason: "plan mode: read-only command"}
	}
	if r, l, ok := e.find(Allow, func(r Rule) bool { return r.Tool == "Bash" && r.matchArgv(c.argv, c.known, c.exactOnly) }); ok {
		return Decision{Behavior: Allow, Reason: ruleReason(Allow, r, l)}
	}
	if mode == ModeBypass {
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode"}
	}
	if c.exactOnly {
		why := c.why
		if why == "" {
			why = "it runs other code"
		}
		return Decision{Behavior: Ask, Reason: fmt.Sprintf("`%s`: %s; only an exact rule allows it", shown, why)}
	}
	return Decision{Behavior: Ask, Reason: fmt.Sprintf("no rule allows `%s`", shown)}
}

// mayComplete reports whether a prefix or exact deny rule could match once
// c's computed words are known.
func mayComplete(r Rule, c command) bool {
	if r.Any || len(r.Words) <= c.known {
		return false
	}
	for i := 0; i < c.known; i++ {
		if c.argv[i] != r.Words[i] && !(i == 0 && filepath.Base(c.argv[0]) == r.Words[0]) {
			return false
		}
	}
	return true
}

func joinReasons(rs []string) string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return strings.Join(out, "; ")
}

// quoteArgv renders argv as a bash command line.
func quoteArgv(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = fmt.Sprintf("%q", a)
		}
		out[i] = q
	}
	return strings.Join(out, " ")
}
