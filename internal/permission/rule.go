package permission

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Tool kinds, by Claude Code's tool names (and Grit's own).
var (
	readTools = map[string]bool{"Read": true, "Grep": true, "Glob": true, "Locate": true, "LS": true}
	editTools = map[string]bool{"Edit": true, "Write": true, "EditFunction": true, "MultiEdit": true, "NotebookEdit": true}
	// pathTools take a path specifier in rules.
	pathTools = map[string]bool{"Read": true, "Grep": true, "Glob": true, "Locate": true, "LS": true,
		"Edit": true, "Write": true, "EditFunction": true, "MultiEdit": true, "NotebookEdit": true}
)

var toolName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// Rule is one parsed permission rule, such as "Bash(npm run test:*)",
// "Edit(src/**)", "Read(~/.ssh/**)", "WebFetch(domain:example.com)" or a bare
// tool name.
type Rule struct {
	Raw  string
	Tool string
	// Any is set for a bare tool name (or "Tool(*)"): every call matches.
	Any bool

	// Bash: the command's words; Prefix for "cmd:*" and "cmd *".
	Words  []string
	Prefix bool

	// Path tools: an absolute, cleaned pattern whose segments are path.Match
	// globs, "**" matching any number of segments.
	Pattern string

	// WebFetch: a host name; "*.example.com" matches subdomains.
	Domain string
}

// ParseRule parses one rule. Relative path patterns are anchored at root,
// "~/" at home, and "//" starts an absolute path (Claude Code's syntax).
// Anything it does not understand is an error naming the rule.
func ParseRule(raw, root, home string) (Rule, error) {
	s := strings.TrimSpace(raw)
	r := Rule{Raw: raw}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if !toolName.MatchString(s) {
			return r, fmt.Errorf("permission rule %q: want a tool name or Tool(specifier), e.g. Bash(npm test:*), Edit(src/**)", raw)
		}
		r.Tool, r.Any = s, true
		return r, nil
	}
	if !strings.HasSuffix(s, ")") {
		return r, fmt.Errorf("permission rule %q: missing closing parenthesis", raw)
	}
	r.Tool = s[:open]
	spec := s[open+1 : len(s)-1]
	if !toolName.MatchString(r.Tool) {
		return r, fmt.Errorf("permission rule %q: bad tool name %q", raw, r.Tool)
	}
	if spec == "" || spec == "*" {
		r.Any = true
		return r, nil
	}
	switch {
	case r.Tool == "Bash":
		return parseBashRule(r, spec)
	case pathTools[r.Tool]:
		p, err := parsePathPattern(spec, root, home)
		if err != nil {
			return r, fmt.Errorf("permission rule %q: %w", raw, err)
		}
		r.Pattern = p
		return r, nil
	case r.Tool == "WebFetch":
		d, ok := strings.CutPrefix(spec, "domain:")
		if !ok || d == "" || strings.ContainsAny(d, "/ :?#") || strings.Contains(d[1:], "*") {
			return r, fmt.Errorf("permission rule %q: WebFetch takes domain:HOST (e.g. WebFetch(domain:go.dev), *.example.com)", raw)
		}
		r.Domain = strings.ToLower(d)
		return r, nil
	}
	return r, fmt.Errorf("permission rule %q: %s takes no specifier (specifiers exist for Bash, WebFetch and the file tools Read, Edit, Write, ...)", raw, r.Tool)
}

func parseBashRule(r Rule, spec string) (Rule, error) {
	switch {
	case strings.HasSuffix(spec, ":*"):
		spec, r.Prefix = strings.TrimSuffix(spec, ":*"), true
	case strings.HasSuffix(spec, " *"):
		spec, r.Prefix = strings.TrimSuffix(spec, " *"), true
	}
	if strings.ContainsAny(spec, "*?[") {
		return r, fmt.Errorf("permission rule %q: Bash rules are an exact command or a prefix ending in :* (wildcards elsewhere are not supported)", r.Raw)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(spec), "")
	if err != nil {
		return r, fmt.Errorf("permission rule %q: %w", r.Raw, err)
	}
	if len(f.Stmts) != 1 {
		return r, fmt.Errorf("permission rule %q: a Bash rule names one simple command, not a compound", r.Raw)
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Background || st.Negated || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return r, fmt.Errorf("permission rule %q: a Bash rule names one simple command without redirects or assignments", r.Raw)
	}
	for _, w := range call.Args {
		v, ok := staticWord(w)
		if !ok {
			return r, fmt.Errorf("permission rule %q: word %q is not a literal", r.Raw, printNode(w))
		}
		r.Words = append(r.Words, v)
	}
	return r, nil
}

func parsePathPattern(spec, root, home string) (string, error) {
	var p string
	switch {
	case strings.HasPrefix(spec, "//"):
		p = spec[1:]
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		p = filepath.Join(home, strings.TrimPrefix(spec[1:], "/"))
	case strings.HasPrefix(spec, "/"):
		p = filepath.Join(root, spec)
	case strings.HasPrefix(spec, "./"):
		p = filepath.Join(root, spec[2:])
	case !strings.Contains(strings.TrimSuffix(spec, "/"), "/"):
		// A bare name matches at any depth, as in .gitignore.
		p = "/**/" + spec
	default:
		p = filepath.Join(root, spec)
	}
	if strings.HasSuffix(spec, "/") {
		p = strings.TrimSuffix(p, "/") + "/**"
	}
	p = filepath.ToSlash(path.Clean(p))
	for _, seg := range strings.Split(p, "/") {
		if seg == "**" {
			continue
		}
		if strings.Contains(seg, "**") {
			return "", fmt.Errorf("** must be a whole path segment (src/**/x.go), not part of %q", seg)
		}
		if _, err := path.Match(seg, ""); err != nil {
			return "", fmt.Errorf("bad glob %q: %w", seg, err)
		}
	}
	return p, nil
}

// matchPath reports whether the clean absolute path p matches the pattern.
func matchPath(pattern, p string) bool {
	return matchSegs(strings.Split(strings.Trim(pattern, "/"), "/"), strings.Split(strings.Trim(filepath.ToSlash(p), "/"), "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// matchArgv reports whether a command's argv is covered by a Bash rule.
// known is how many leading words of argv are static (the rest came from
// expansions the engine cannot see); exactOnly commands (exec wrappers) are
// never matched by a prefix rule.
func (r Rule) matchArgv(argv []string, known int, exactOnly bool) bool {
	if r.Any {
		return !exactOnly
	}
	if r.Prefix {
		if exactOnly || len(argv) < len(r.Words) || known < len(r.Words) {
			return false
		}
	} else if len(argv) != len(r.Words) || known < len(argv) {
		return false
	}
	for i, w := range r.Words {
		if argv[i] != w {
			return false
		}
	}
	return true
}

// denyArgv is the looser match used for deny and ask rules: a prefix rule
// matches on the known words, and the command name also matches by its
// basename (/usr/bin/rm is rm).
func (r Rule) denyArgv(argv []string, known int) bool {
	if r.Any {
		return true
	}
	if len(argv) == 0 {
		return false
	}
	try := func(a []string) bool {
		if r.Prefix {
			if len(a) < len(r.Words) || known < len(r.Words) {
				return false
			}
		} else if len(a) != len(r.Words) {
			return false
		}
		for i, w := range r.Words {
			if a[i] != w {
				return false
			}
		}
		return true
	}
	if try(argv) {
		return true
	}
	if base := filepath.Base(argv[0]); base != argv[0] {
		return try(append([]string{base}, argv[1:]...))
	}
	return false
}

// matchDomain reports whether host is covered by the rule's domain.
func (r Rule) matchDomain(host string) bool {
	host = strings.ToLower(host)
	if r.Any {
		return true
	}
	if d, ok := strings.CutPrefix(r.Domain, "*."); ok {
		return host == d || strings.HasSuffix(host, "."+d)
	}
	return host == r.Domain
}
