package permission

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// unwrapped is what a command turns into once exec wrappers are seen
// through.
type unwrapped struct {
	// self is the command itself when it must be allowed on its own (a
	// plain command, or a wrapper that cannot be seen through). Its argv is
	// nil when only the inner commands matter (timeout 5 rm x is rm x).
	self command
	// inner are the commands the wrapper runs, for recursion.
	inner []command
	// script is a static script the command runs (sh -c S, eval S).
	script string
}

// optSpec describes a prefix wrapper's options: which take a value, which
// are flags; anything else makes the wrapper opaque.
type optSpec struct {
	withValue  map[string]bool
	flags      map[string]bool
	positional int // leading operands before the command (timeout's DURATION)
	assigns    bool
}

func set(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}

// prefixWrappers run their operand as a command, unchanged.
var prefixWrappers = map[string]optSpec{
	"env":     {withValue: set("-u", "--unset", "-C", "--chdir"), flags: set("-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"), assigns: true},
	"timeout": {withValue: set("-s", "--signal", "-k", "--kill-after"), flags: set("--preserve-status", "--foreground", "-v", "--verbose"), positional: 1},
	"nice":    {withValue: set("-n", "--adjustment")},
	"nohup":   {},
	"stdbuf":  {withValue: set("-i", "-o", "-e", "--input", "--output", "--error")},
	"ionice":  {withValue: set("-c", "--class", "-n", "--classdata"), flags: set("-t", "--ignore")},
	"setsid":  {flags: set("-f", "--fork", "-w", "--wait", "-c", "--ctty")},
	"command": {flags: set("-p")},
	"builtin": {},
	"exec":    {withValue: set("-a"), flags: set("-c", "-l")},
	"time":    {flags: set("-p", "-v", "--verbose", "-q", "--quiet"), withValue: set("-f", "--format", "-o", "--output")},
	"doas":    {withValue: set("-u", "-C"), flags: set("-n", "-s")},
	"sudo":    {withValue: set("-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-h", "--host", "-p", "--prompt", "-r", "--role", "-t", "--type", "-T", "--command-timeout"), flags: set("-A", "-b", "-E", "-H", "-k", "-K", "-n", "-P", "-S", "--preserve-env", "--non-interactive", "--stdin", "--")},
}

// escalating wrappers are seen through for deny rules but never allowed.
var escalating = set("sudo", "doas", "su", "runuser", "pkexec")

// opaqueWrappers run code or other commands in ways a prefix cannot bound;
// their inner argv (if any) is found by innerAfter for deny checks.
var opaqueWrappers = set(
	"eval", "source", ".", "trap", "enable", "xargs", "parallel", "watch", "strace", "ltrace", "gdb", "valgrind",
	"chroot", "unshare", "nsenter", "script", "flock", "taskset", "chrt", "busybox", "su", "runuser", "pkexec",
	"bwrap", "firejail", "make", "gmake", "npx", "bunx", "pnpx", "expect", "at", "batch", "crontab", "osascript",
	"fakeroot", "proot", "systemd-run", "dbus-run-session", "xdg-open", "open",
)

// shells take -c SCRIPT.
var shells = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "rbash")

// interpreters run inline code with these flags.
var interpreters = map[string]map[string]bool{
	"python": set("-c"), "perl": set("-e", "-E", "-n", "-p", "-i"), "ruby": set("-e"), "node": set("-e", "--eval", "-p", "--print", "-r", "--require", "--import"),
	"nodejs": set("-e", "--eval", "-p", "--print"), "deno": set("eval"), "bun": set("-e", "--eval", "-p", "--print", "x"), "php": set("-r"),
	"lua": set("-e"), "Rscript": set("-e"), "tclsh": set(), "pwsh": set("-c", "-Command", "-EncodedCommand"), "powershell": set("-c", "-Command"),
	"awk": nil, "gawk": nil, "mawk": nil, "nawk": nil, "jq": set(), "sed": nil, "gsed": nil,
}

var pythonName = regexp.MustCompile(`^python[0-9.]*$`)

// unwrap looks through one exec wrapper layer of cmd.
func unwrap(cmd command, depth int) unwrapped {
	name := filepath.Base(cmd.argv[0])
	if pythonName.MatchString(name) {
		name = "python"
	}
	args := cmd.argv[1:]
	// opaque: the command itself needs an exact rule; what it runs (when
	// visible) is checked too. why documents the case.
	opaque := func(why string) unwrapped {
		c := cmd
		c.exactOnly = true
		c.why = why
		return unwrapped{self: c, inner: innerAfter(name, args)}
	}

	if spec, ok := prefixWrappers[name]; ok {
		inner, ok := skipOptions(spec, args, cmd.known-1)
		if name == "command" && len(args) > 0 && (args[0] == "-v" || args[0] == "-V") {
			return unwrapped{self: cmd} // a lookup, runs nothing
		}
		if !ok {
			return opaque(name + " with options that cannot be seen through")
		}
		if len(inner.argv) == 0 {
			return unwrapped{self: cmd} // env, nice, exec alone run nothing else
		}
		if escalating[name] {
			c := cmd
			c.exactOnly = true
			c.problem = fmt.Sprintf("%s runs a command with other privileges", name)
			return unwrapped{self: c, inner: []command{inner}}
		}
		return unwrapped{inner: []command{inner}}
	}
	if shells[name] {
		return unwrapShell(cmd, args, depth, opaque)
	}
	if name == "eval" {
		if cmd.known == len(cmd.argv) && len(args) > 0 && depth < maxDepth {
			return unwrapped{script: strings.Join(args, " ")}
		}
		return opaque("dynamic eval")
	}
	if flags, ok := interpreters[name]; ok {
		switch name {
		case "awk", "gawk", "mawk", "nawk":
			if awkRuns(args) {
				return opaque("awk program runs commands")
			}
			return unwrapped{self: cmd}
		case "sed", "gsed":
			if sedRuns(args) {
				return opaque("sed script runs commands or writes files")
			}
			return unwrapped{self: cmd}
		}
		for _, a := range args {
			f, _, _ := strings.Cut(a, "=")
			if flags[f] || (len(a) > 2 && a[0] == '-' && a[1] != '-' && flags[a[:2]]) {
				return opaque("inline code")
			}
		}
		if len(args) == 0 || args[0] == "-" {
			return opaque("reads code from stdin")
		}
		return unwrapped{self: cmd}
	}
	switch name {
	case "find":
		return unwrapFind(cmd)
	case "git":
		for _, a := range args {
			f, _, _ := strings.Cut(a, "=")
			switch f {
			case "-c", "--config-env", "--exec-path", "--upload-pack", "--receive-pack", "--exec", "-u":
				return opaque("git option that runs commands")
			}
		}
		return unwrapped{self: cmd}
	case "npm", "pnpm", "yarn":
		if len(args) > 0 && (args[0] == "exec" || args[0] == "dlx" || args[0] == "x") {
			return opaque("runs a package binary")
		}
	}
	if opaqueWrappers[name] {
		return opaque(name + " runs other commands")
	}
	return unwrapped{self: cmd}
}

// unwrapShell looks through a shell: only plain -c SCRIPT with harmless
// flags is seen through (the script is checked); anything else needs an
// exact rule for the shell (opaque).
func unwrapShell(cmd command, args []string, depth int, opaque func(why string) unwrapped) unwrapped {
	// Only plain -c with harmless flags is seen through: -l and -i
	// read profile files, which run code of their own.
	profile := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-o" || a == "+o" {
			i++
			continue
		}
		if a == "--noprofile" || a == "--norc" {
			continue
		}
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			break
		}
		if strings.Trim(a[1:], "ceuxvf") != "" {
			profile = true
		}
		if strings.Contains(a, "c") {
			if i+1 < len(args) && cmd.known > i+2 && depth < maxDepth {
				if profile {
					// Profile files run first: the shell needs an exact
					// rule, and the script is still checked.
					u := opaque("the shell reads profile files, which run code")
					u.script = args[i+1]
					return u
				}
				// The script runs; the shell itself is just its carrier.
				return unwrapped{script: args[i+1]}
			}
			return opaque("the shell runs a computed script")
		}
	}
	return opaque("a shell runs a file, stdin, or reads profile files")
}

// skipOptions returns the command a prefix wrapper runs. known is how many
// of args are static; a dynamic word before the command makes it opaque.
func skipOptions(spec optSpec, args []string, known int) (command, bool) {
	i := 0
	pos := 0
	for i < len(args) {
		if i >= known {
			return command{}, false
		}
		a := args[i]
		switch {
		case a == "--":
			i++
			goto operands
		case spec.assigns && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
			name, _, _ := strings.Cut(a, "=")
			if dangerousVar(name) {
				return command{}, false
			}
			i++
		case strings.HasPrefix(a, "-") && a != "-":
			f, _, hasValue := strings.Cut(a, "=")
			switch {
			case spec.flags[a]:
				i++
			case spec.withValue[f] && hasValue:
				i++
			case spec.withValue[a]:
				i += 2
			case len(a) > 2 && a[1] != '-' && spec.withValue[a[:2]]:
				i++ // -n10, -oL
			case isDigits(a[1:]) && spec.withValue["-n"]:
				i++ // nice -5
			default:
				return command{}, false
			}
		default:
			goto operands
		}
	}
operands:
	for pos < spec.positional && i < len(args) {
		i++
		pos++
	}
	if i > known {
		return command{}, false
	}
	if i >= len(args) {
		return command{}, true
	}
	inner := command{argv: args[i:], known: known - i}
	if inner.known <= 0 {
		return command{}, false
	}
	return inner, true
}

// innerAfter guesses the command an opaque wrapper runs, for deny rules:
// xargs rm → rm, sudo -u x rm → rm.
func innerAfter(name string, args []string) []command {
	switch name {
	case "xargs", "parallel", "watch", "strace", "ltrace", "nsenter", "unshare", "flock", "taskset", "chrt", "doas", "sudo", "su", "runuser", "pkexec", "fakeroot", "systemd-run":
		for i, a := range args {
			if !strings.HasPrefix(a, "-") && !isDigits(a) {
				return []command{{argv: args[i:], known: len(args) - i}}
			}
		}
	}
	return nil
}

// unwrapFind separates find's own argv from the commands its -exec family
// runs.
func unwrapFind(cmd command) unwrapped {
	var self []string
	var inner []command
	args := cmd.argv
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			if j > i+1 {
				known := j - (i + 1)
				if cmd.known < j {
					known = max(0, cmd.known-(i+1))
				}
				inner = append(inner, command{argv: args[i+1 : j], known: known})
			}
			i = j
			continue
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			c := cmd
			c.exactOnly, c.why = true, "find writes files named by "+a
			return unwrapped{self: c}
		}
		self = append(self, a)
	}
	if len(inner) == 0 {
		return unwrapped{self: cmd}
	}
	return unwrapped{self: command{argv: self, known: min(cmd.known, len(self))}, inner: inner}
}

// awkRuns reports whether an awk invocation may run commands or write files:
// system(), pipes, output redirection, getline from a command, or a program
// read from a file.
func awkRuns(args []string) bool {
	for _, a := range args {
		if a == "-f" || strings.HasPrefix(a, "--file") || strings.HasPrefix(a, "-f") && len(a) > 2 {
			return true
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return strings.Contains(a, "system") || strings.ContainsAny(a, "|>") || strings.Contains(a, "getline")
	}
	return false
}

// sedRuns reports whether a sed invocation may run commands or write files
// other than its operands: the e command or s///e flag, w/W commands or
// s///w, or a script read from a file. It is deliberately conservative: a
// script is judged by what is left after removing regexes and replacement
// texts, and any e, w or W left over counts.
func sedRuns(args []string) bool {
	scriptSeen := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || strings.HasPrefix(a, "--file"):
			return true
		case a == "-e" || a == "--expression":
			if i+1 < len(args) && sedScriptRuns(args[i+1]) {
				return true
			}
			scriptSeen = true
			i++
		case strings.HasPrefix(a, "--expression="):
			if sedScriptRuns(strings.TrimPrefix(a, "--expression=")) {
				return true
			}
			scriptSeen = true
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.Contains(strings.TrimLeft(a, "-"), "f") && !strings.HasPrefix(a, "--") {
				return true
			}
		default:
			if !scriptSeen {
				if sedScriptRuns(a) {
					return true
				}
				scriptSeen = true
			}
		}
	}
	return false
}

func sedScriptRuns(s string) bool {
	var rest strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
		case c == '/':
			// an address regex
			i = skipDelimited(s, i+1, '/')
		case (c == 's' || c == 'y') && i+1 < len(s) && s[i+1] != '\n' && s[i+1] != ';' && s[i+1] != ' ':
			d := s[i+1]
			i = skipDelimited(s, i+2, d)
			i = skipDelimited(s, i+1, d)
			rest.WriteByte(c)
		default:
			rest.WriteByte(c)
		}
	}
	return strings.ContainsAny(rest.String(), "ewW")
}

// skipDelimited returns the index of the next unescaped d at or after i.
func skipDelimited(s string, i int, d byte) int {
	for ; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == d {
			return i
		}
	}
	return len(s)
}
