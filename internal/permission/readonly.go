package permission

import "strings"

// Read-only commands: what plan mode lets Bash run, as Claude Code does.
// A command is read-only when its name is here and none of its arguments
// turns it into a writer (find -delete, sort -o, git branch NAME).
var (
	// readOnlyPlain are commands that only read, whatever their arguments.
	readOnlyPlain = set("ls", "cat", "head", "tail", "wc", "pwd", "echo", "printf", "true", "false", "test", "[",
		"which", "type", "file", "stat", "du", "df", "tree", "rg", "grep", "egrep", "fgrep", "diff", "cmp",
		"basename", "dirname", "realpath", "readlink", "uname", "whoami", "id", "date", "nl", "cut", "tr",
		"column", "jq", "od", "hexdump", "sha256sum", "sha1sum", "md5sum", "cd")
	// readOnlyGit are git subcommands that only read.
	readOnlyGit = set("log", "status", "diff", "show", "blame", "ls-files", "ls-tree", "rev-parse", "grep",
		"describe", "shortlog", "cat-file", "merge-base", "name-rev", "rev-list")
	// findWriters are find's actions that write, delete or run commands.
	findWriters = set("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls")
)

// readOnlyCommand reports whether c only reads: every word known, no
// wrapper that runs other code, and a read-only name and arguments.
func readOnlyCommand(c command) bool {
	if c.problem != "" || c.exactOnly || c.known < len(c.argv) || len(c.argv) == 0 {
		return false
	}
	name, args := c.argv[0], c.argv[1:]
	switch {
	case readOnlyPlain[name]:
		return true
	case name == "find":
		for _, a := range args {
			if findWriters[a] {
				return false
			}
		}
		return true
	case name == "sort":
		for _, a := range args {
			if a == "-o" || strings.HasPrefix(a, "--output") || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "o")) {
				return false
			}
		}
		return true
	case name == "git":
		return readOnlyGitArgs(args)
	}
	return false
}

// readOnlyGitArgs decides git's arguments: a read-only subcommand, or
// branch, tag and remote with listing flags only.
func readOnlyGitArgs(args []string) bool {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "--no-pager", "-P":
			args = args[1:]
		case "-C":
			if len(args) < 2 {
				return false
			}
			args = args[2:]
		default:
			return false // -c key=value and the like can change what runs
		}
	}
	if len(args) == 0 {
		return false
	}
	sub, rest := args[0], args[1:]
	if readOnlyGit[sub] {
		for _, a := range rest {
			if a == "--output" || strings.HasPrefix(a, "--output=") || a == "--ext-diff" {
				return false
			}
		}
		return true
	}
	switch sub {
	case "branch", "tag", "remote", "stash":
		// Listing forms only: flags, no names (a name creates or deletes).
		if sub == "stash" {
			return len(rest) > 0 && (rest[0] == "list" || rest[0] == "show")
		}
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") || a == "-d" || a == "-D" || a == "-m" || a == "-M" || a == "--delete" {
				return false
			}
		}
		return true
	}
	return false
}
