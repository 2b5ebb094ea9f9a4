package treesitter

import "bytes"

// C and C++ code is full of annotation macros the parser cannot expand
// (FMT_CONSTEXPR auto f() FMT_NOEXCEPT { ... }, FMT_BEGIN_NAMESPACE,
// CATCH_INTERNAL_START_WARNINGS_SUPPRESSION): each leaves a syntax error
// that can swallow the class around it, and its methods lose their scope.
// blankMacros hides them from the parser, and only from it: they are
// replaced by spaces of the same length, so every offset stays the
// source's, and names, signatures and docs are read from the source.

// blankMacros returns src with every annotation macro blanked, or src itself
// when it has none. An annotation macro is an upper-case identifier with an
// underscore (FMT_API, not NULL or FILE), outside comments, strings and
// preprocessor lines, followed by another word or a brace (or, after a
// declarator's ")", by ":", "->" or "="): where a value or a call would
// never stand (a macro called, FOO(x), or used as a value, return FOO_MAX;
// or case FOO_MAX:, is kept).
func blankMacros(src []byte) []byte {
	out := src
	lineStart := true // only blanks and nothing else since the line began
	var prev byte     // the last character of the previous token
	scope := false    // the previous token is "::"
	for i := 0; i < len(src); {
		next, newline := skipBlank(src, i)
		lineStart = lineStart || newline
		if i = next; i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '#' && lineStart:
			i = skipPreprocessor(src, i)
			continue
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
			lineStart, prev = false, c
			continue
		}
		lineStart = false
		if !isIdentByte(c) {
			scope = c == ':' && prev == ':' && i > 0 && src[i-1] == ':'
			prev = c
			i++
			continue
		}
		j := i
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		if !isMacroName(src[i:j]) || scope || i > 0 && isIdentByte(src[i-1]) {
			i, prev, scope = j, 'a', false
			continue
		}
		if end := macroCallEnd(src, j); end > j && wordFollows(src, end) {
			// An annotation called with arguments before a declaration,
			// FMT_SUPPRESS_MSC_WARNING(26495): the call goes too.
			j = end
		} else if !annotationFollows(src, j, prev == ')') {
			i, prev, scope = j, 'a', false
			continue
		}
		if &out[0] == &src[0] {
			out = append([]byte(nil), src...)
		}
		for k := i; k < j; k++ {
			if out[k] != '\n' { // lines stay where they are
				out[k] = ' '
			}
		}
		i, prev, scope = j, 'a', false
	}
	return out
}

// maxMacroArgs bounds how far a macro call's arguments are scanned for
// their closing parenthesis: annotations take a few words.
const maxMacroArgs = 256

// macroCallEnd returns the index after the parenthesised arguments that
// follow i (blanks allowed before "("), or i when there are none within
// maxMacroArgs bytes on balanced parentheses outside strings.
func macroCallEnd(src []byte, i int) int {
	k := i
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if k >= len(src) || src[k] != '(' {
		return i
	}
	depth := 0
	for p := k; p < len(src) && p < k+maxMacroArgs; p++ {
		switch src[p] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return p + 1
			}
		case '"', '\'':
			p = skipQuoted(src, p) - 1
		case ';', '{', '}':
			return i
		}
	}
	return i
}

// wordFollows reports whether the next token after i (blanks and line
// breaks between allowed) starts a word: a declaration, not an operator,
// a ";" or a brace.
func wordFollows(src []byte, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
		i++
	}
	return i < len(src) && (src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z')
}

// isMacroName: upper-case letters, digits and underscores, with an
// underscore and a letter, not starting with a digit or an underscore.
func isMacroName(w []byte) bool {
	if len(w) < 3 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	under := false
	for _, c := range w {
		switch {
		case c == '_':
			under = true
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return under
}

// annotationFollows reports whether the next token after i starts a word
// or a brace (a comment or a line break in between allowed); after a
// declarator's ")" also a constructor's ":", a "->" or an "=" (= default).
func annotationFollows(src []byte, i int, afterParen bool) bool {
	if i, _ = skipBlank(src, i); i >= len(src) {
		return false
	}
	c := src[i]
	if afterParen {
		next := byte(0)
		if i+1 < len(src) {
			next = src[i+1]
		}
		if c == ':' && next != ':' || c == '-' && next == '>' || c == '=' && next != '=' {
			return true
		}
	}
	return c == '{' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// skipPreprocessor returns the end of the directive starting at i (its
// backslash-continued lines included).
func skipPreprocessor(src []byte, i int) int {
	for i < len(src) {
		if src[i] == '\n' && (i == 0 || src[i-1] != '\\') && !(i >= 2 && src[i-1] == '\r' && src[i-2] == '\\') {
			return i
		}
		i++
	}
	return i
}

// skipBlank returns the index of the first byte at or after i that is not
// white space or a comment, and whether a line ended before it.
func skipBlank(src []byte, i int) (next int, newline bool) {
	for i < len(src) {
		switch c := src[i]; {
		case c == '\n':
			newline = true
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = indexFrom(src, i+2, "*/") + 2
		default:
			return i, newline
		}
	}
	return i, newline
}

// skipQuoted returns the index after the string or character literal
// starting at i (an unterminated one ends at its line's end).
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			return i
		}
	}
	return i
}

func indexFrom(src []byte, i int, sep string) int {
	for ; i+len(sep) <= len(src); i++ {
		if string(src[i:i+len(sep)]) == sep {
			return i
		}
	}
	return len(src)
}

// cppMarkers are text only C++ has; one in a .h file makes it C++.
var cppMarkers = [][]byte{
	[]byte("template <"), []byte("template<"), []byte("namespace "), []byte("std::"),
	[]byte("public:"), []byte("private:"), []byte("protected:"),
}

// looksCpp reports whether a header holds C++ rather than C.
func looksCpp(src []byte) bool {
	for _, m := range cppMarkers {
		if bytes.Contains(src, m) {
			return true
		}
	}
	return false
}
