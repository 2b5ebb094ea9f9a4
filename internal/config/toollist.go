package config

import "strings"

// SplitToolList splits Claude Code style tool lists (--allowedTools,
// a command's allowed-tools): entries separated by
// commas or spaces, except inside parentheses ("Bash(git log:*) Read").
func SplitToolList(values []string) []string {
	var out []string
	for _, v := range values {
		depth, start := 0, 0
		flush := func(end int) {
			if s := strings.TrimSpace(v[start:end]); s != "" {
				out = append(out, s)
			}
		}
		for i, r := range v {
			switch {
			case r == '(':
				depth++
			case r == ')' && depth > 0:
				depth--
			case (r == ',' || r == ' ' || r == '\t') && depth == 0:
				flush(i)
				start = i + 1
			}
		}
		flush(len(v))
	}
	return out
}
