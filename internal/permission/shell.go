package permission

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds recursion into scripts given to sh -c and eval.
const maxDepth = 4

// command is one command a shell script may execute, as far as static
// analysis can tell.
type command struct {
	argv []string // words; dynamic words are kept as written
	// known is how many leading words are static. A command whose name is
	// not static has known == 0.
	known int
	// exactOnly marks exec wrappers and code-running flags (sh -c with a
	// dynamic script, python -c, xargs, sudo, ...): a prefix rule never
	// allows them, only an exact rule or grant.
	exactOnly bool
	why       string // what makes it exactOnly
	// problem, when set, is why no rule can allow the command (it asks).
	problem string
}

// target is a file a script writes (a redirect, tee's arguments).
type target struct {
	path    string // as written
	dynamic bool
}

// script is what analysis found in a Bash command.
type script struct {
	commands []command
	writes   []target
	// args are every static argument word, for the protected-path check.
	args []string
	// globs are argument words with unexpanded globs or braces.
	globs []string
	// problems are reasons the whole script must ask.
	problems []string
	// names are the base names of every program the script may start,
	// wrappers included (the differential test compares them with what
	// bash really runs).
	names []string
	// changesDir is set when the script runs cd, pushd or popd: relative
	// paths then cannot be placed.
	changesDir bool
}

// analyzeScript parses src as bash and collects every command it may run.
func analyzeScript(src string) *script {
	s := &script{}
	s.add(src, 0)
	return s
}

func (s *script) add(src string, depth int) {
	if depth > maxDepth {
		s.problems = append(s.problems, "commands nested too deeply to check")
		return
	}
	if strings.ContainsAny(src, "\x00\r") {
		s.problems = append(s.problems, "the command contains NUL or carriage-return bytes")
		return
	}
	f, err := parse(src)
	if err != nil {
		s.problems = append(s.problems, fmt.Sprintf("the command does not parse as bash (%v)", err))
		return
	}
	// The script that runs must be the script that was checked: printing the
	// tree and parsing it again has to give the same tree.
	printed := printNode(f)
	if f2, err := parse(printed); err != nil || printNode(f2) != printed {
		s.problems = append(s.problems, "the command does not survive a parse and print round trip")
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			s.call(n, depth)
		case *syntax.Redirect:
			s.redirect(n)
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name != nil && dangerousVar(a.Name.Value) {
					s.problems = append(s.problems, fmt.Sprintf("%s sets %s, which changes what later commands run", n.Variant.Value, a.Name.Value))
				}
				if a.Naked && a.Name == nil {
					s.problems = append(s.problems, fmt.Sprintf("%s with a computed argument", n.Variant.Value))
				}
			}
		case *syntax.FuncDecl:
			// The body is walked like any other code; calls of the
			// function by name are commands without a rule.
		case *syntax.ExtGlob:
			// Globs are arguments; nothing runs.
		}
		return true
	})
}

func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

func printNode(n syntax.Node) string {
	var b bytes.Buffer
	if err := syntax.NewPrinter().Print(&b, n); err != nil {
		return "\x00unprintable"
	}
	return b.String()
}

func (s *script) call(c *syntax.CallExpr, depth int) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			if a.Name != nil && dangerousVar(a.Name.Value) {
				s.problems = append(s.problems, fmt.Sprintf("the command sets %s, which changes what later commands run", a.Name.Value))
			}
		}
		return
	}
	cmd := command{}
	for i, w := range c.Args {
		v, ok := staticWord(w)
		if i == 0 && !plainWord(w) {
			ok = false
		}
		if ok && cmd.known == i {
			cmd.known++
		}
		if ok {
			cmd.argv = append(cmd.argv, v)
			if i > 0 {
				s.args = append(s.args, v)
				if looseGlob(w) {
					s.globs = append(s.globs, v)
				}
			}
		} else {
			if v != "" {
				cmd.argv = append(cmd.argv, v) // resolved through quotes: for deny matching
			} else {
				cmd.argv = append(cmd.argv, printNode(w))
			}
			if i > 0 {
				s.globs = append(s.globs, printNode(w))
			}
		}
	}
	if cmd.known == 0 {
		cmd.problem = fmt.Sprintf("the command name %s is computed or quoted, so it cannot be checked", printNode(c.Args[0]))
		// Deny rules still see the resolved name when quotes are the only
		// trick (r''m is rm).
		if v, ok := staticWord(c.Args[0]); ok {
			cmd.argv[0] = v
			cmd.known = 1
			for _, w := range c.Args[1:] {
				if _, ok := staticWord(w); !ok {
					break
				}
				cmd.known++
			}
		}
		s.commands = append(s.commands, cmd)
		return
	}
	for _, a := range c.Assigns {
		if a.Name != nil && dangerousVar(a.Name.Value) {
			// The environment changes what the command (and anything it
			// runs) loads: the whole line needs an exact rule.
			c := cmd
			c.exactOnly = true
			c.why = "it sets " + a.Name.Value + " for the command"
			s.commands = append(s.commands, c)
			break
		}
	}
	s.expand(cmd, depth)
}

// expand adds cmd, looking through exec wrappers to the commands they run.
func (s *script) expand(cmd command, depth int) {
	name := filepath.Base(cmd.argv[0])
	s.names = append(s.names, name)
	switch name {
	case "cd", "pushd", "popd":
		s.changesDir = true
	case "tee":
		for _, a := range cmd.argv[1:] {
			if !strings.HasPrefix(a, "-") {
				s.writes = append(s.writes, target{path: a})
			}
		}
	}
	w := unwrap(cmd, depth)
	if w.script != "" {
		if w.self.argv != nil {
			s.commands = append(s.commands, w.self)
		}
		s.add(w.script, depth+1)
		return
	}
	if w.self.argv != nil {
		s.commands = append(s.commands, w.self)
	}
	for _, in := range w.inner {
		if len(in.argv) == 0 {
			continue
		}
		s.expand(in, depth+1)
	}
}

func (s *script) redirect(r *syntax.Redirect) {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob, syntax.AppClob,
		syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
	case syntax.DplOut:
		// >&2 and >&- duplicate descriptors; >&file writes a file.
		if v, ok := staticWord(r.Word); ok && (v == "-" || isDigits(v)) {
			return
		}
	default:
		return
	}
	v, ok := staticWord(r.Word)
	if ok && looseGlob(r.Word) {
		ok = false
	}
	s.writes = append(s.writes, target{path: v, dynamic: !ok})
}

// staticWord returns the value of w after quote removal when it contains no
// expansion. Unquoted tildes, globs and braces count as static here (their
// text is known); callers that care use plainWord or looseGlob.
func staticWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		if !staticPart(&b, p, false) {
			return b.String(), false
		}
	}
	return b.String(), true
}

func staticPart(b *strings.Builder, p syntax.WordPart, quoted bool) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		if quoted {
			// Inside double quotes only \$ \` \" \\ and \newline are escapes.
			v := p.Value
			for i := 0; i < len(v); i++ {
				if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\\n", v[i+1]) >= 0 {
					i++
					if v[i] == '\n' {
						continue
					}
				}
				b.WriteByte(v[i])
			}
			return true
		}
		v := p.Value
		for i := 0; i < len(v); i++ {
			if v[i] == '\\' && i+1 < len(v) {
				i++
				if v[i] == '\n' {
					continue
				}
			}
			b.WriteByte(v[i])
		}
		return true
	case *syntax.SglQuoted:
		if p.Dollar {
			return false // $'\x72m': ANSI-C escapes are not decoded here
		}
		b.WriteString(p.Value)
		return true
	case *syntax.DblQuoted:
		if p.Dollar {
			return false
		}
		for _, q := range p.Parts {
			if !staticPart(b, q, true) {
				return false
			}
		}
		return true
	}
	return false
}

// plainWord reports whether w is a bare literal with nothing bash would
// transform: no quotes, escapes, expansions, globs, braces or tilde. Only a
// plain word may name a command an allow rule covers.
func plainWord(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	return l.Value != "" && !strings.ContainsAny(l.Value, "\\*?[]{}~$`'\"=") && isPrintableASCII(l.Value)
}

// looseGlob reports whether an unquoted part of w holds glob or brace
// characters bash would expand.
func looseGlob(w *syntax.Word) bool {
	for i, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		if strings.ContainsAny(l.Value, "*?[{") || (i == 0 && strings.HasPrefix(l.Value, "~")) {
			return true
		}
	}
	return false
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// dangerousVar reports whether setting the variable changes which program
// runs or what it loads (PATH, LD_PRELOAD, GIT_*, PAGER, ...).
func dangerousVar(name string) bool {
	switch name {
	case "PATH", "IFS", "ENV", "BASH_ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "HOME", "ZDOTDIR",
		"EDITOR", "VISUAL", "BROWSER", "NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
		"LESSOPEN", "LESSCLOSE", "CC", "CXX", "LD", "AR", "GOFLAGS", "GOTOOLCHAIN", "MAKEFLAGS", "RUBYOPT",
		"RUBYLIB", "PERL5OPT", "PERL5LIB", "PERLLIB", "SHELL", "CDPATH", "GLOBIGNORE", "BASH_XTRACEFD":
		return true
	}
	for _, p := range []string{"LD_", "DYLD_", "GIT_", "PYTHON", "XDG_", "NPM_CONFIG_", "npm_config_", "BASH_FUNC_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return strings.Contains(name, "PAGER")
}
