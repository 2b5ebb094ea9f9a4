package oracle

import (
	"bytes"
	"strings"
)

// Equivalent reports whether a and b differ at most in whitespace and
// comments: each is reduced to its lines with comments dropped and every
// whitespace character removed, blank lines left out (as diff -w -B, after
// removing comments), and the reductions compared.
func Equivalent(lang string, a, b []byte) bool {
	return bytes.Equal(a, b) || normalize(lang, a) == normalize(lang, b)
}

func normalize(lang string, src []byte) string {
	code := stripComments(lang, strings.ReplaceAll(string(src), "\r\n", "\n"))
	var out []string
	for _, l := range strings.Split(code, "\n") {
		l = strings.Join(strings.Fields(l), "")
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// stripComments removes line and block comments from code, leaving string
// literals alone: '#' comments for Python and Ruby, '//' and '/* */' for the
// C family, Go, Rust, Java and JavaScript. Newlines inside block comments are
// kept so lines stay lines.
func stripComments(lang, code string) string {
	hash := lang == "python" || lang == "ruby"
	var b strings.Builder
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case hash && c == '#':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case !hash && c == '/' && i+1 < len(code) && code[i+1] == '/':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case !hash && c == '/' && i+1 < len(code) && code[i+1] == '*':
			end := strings.Index(code[i+2:], "*/")
			if end < 0 {
				end = len(code) - i - 2
			}
			b.WriteString(strings.Repeat("\n", strings.Count(code[i:i+2+end], "\n")))
			i += 2 + end + 2
		case c == '"' || c == '`' || (c == '\'' && quoteIsString(lang, code, i)):
			j := stringEnd(lang, code, i)
			b.WriteString(code[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// quoteIsString tells a Rust lifetime ('a) from a character literal.
func quoteIsString(lang, code string, i int) bool {
	if lang != "rust" {
		return true
	}
	return i+2 < len(code) && (code[i+2] == '\'' || code[i+1] == '\\')
}

// stringEnd is the offset just past the string literal starting at i.
func stringEnd(lang, code string, i int) int {
	q := code[i : i+1]
	if lang == "python" && strings.HasPrefix(code[i:], strings.Repeat(q, 3)) {
		q = strings.Repeat(q, 3)
	}
	j := i + len(q)
	for j < len(code) {
		switch {
		case code[j] == '\\':
			j += 2
			continue
		case strings.HasPrefix(code[j:], q):
			return j + len(q)
		case code[j] == '\n' && len(q) == 1 && q != "`":
			return j // an unterminated one-line string ends with its line
		}
		j++
	}
	return len(code)
}
