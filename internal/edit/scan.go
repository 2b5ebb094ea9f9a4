package edit

import "strings"

// lineState is the lexical state at the start of one line of code.
type lineState struct {
	depth    int  // open brackets of any kind
	inString bool // inside a multi-line string or comment
}

// scanResult is what a light lexical scan of code finds: enough to tell a
// truncated or unbalanced reply without a parser.
type scanResult struct {
	lines      []lineState
	unclosed   int  // brackets still open at the end
	stray      bool // a closing bracket with no opener, or the wrong kind
	openString bool // a string or block comment still open at the end
	badLine    int  // 1-based line of a single-line string left open; 0 if none
}

// isPythonLike reports whether lang comments with # and has triple-quoted strings.
func isPythonLike(lang string) bool { return lang == "python" || lang == "ruby" }

// scanCode tracks brackets outside strings and comments, line by line.
func scanCode(code, lang string) scanResult {
	var res scanResult
	var stack []byte
	py := isPythonLike(lang)
	// state: 0 code, or the closing delimiter we are inside.
	closeDelim := ""
	blockComment := false
	lines := strings.Split(code, "\n")
	for n, line := range lines {
		res.lines = append(res.lines, lineState{depth: len(stack), inString: closeDelim != "" || blockComment})
		for i := 0; i < len(line); i++ {
			c := line[i]
			if blockComment {
				if strings.HasPrefix(line[i:], "*/") {
					blockComment = false
					i++
				}
				continue
			}
			if closeDelim != "" {
				if c == '\\' && closeDelim != "`" {
					i++
					continue
				}
				if strings.HasPrefix(line[i:], closeDelim) {
					i += len(closeDelim) - 1
					closeDelim = ""
				}
				continue
			}
			switch {
			case py && c == '#':
				i = len(line)
			case !py && strings.HasPrefix(line[i:], "//"):
				i = len(line)
			case !py && strings.HasPrefix(line[i:], "/*"):
				blockComment = true
				i++
			case py && (strings.HasPrefix(line[i:], `"""`) || strings.HasPrefix(line[i:], `'''`)):
				closeDelim = line[i : i+3]
				i += 2
			case c == '"':
				closeDelim = `"`
			case c == '`' && !py:
				closeDelim = "`"
			case c == '\'':
				if py || lang == "javascript" || lang == "typescript" || lang == "tsx" {
					closeDelim = "'"
				} else if i+2 < len(line) && (line[i+2] == '\'' || line[i+1] == '\\') {
					closeDelim = "'" // a char literal; a lone ' is a Rust lifetime
				}
			case c == '(' || c == '[' || c == '{':
				stack = append(stack, c)
			case c == ')' || c == ']' || c == '}':
				want := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
				if len(stack) == 0 || stack[len(stack)-1] != want {
					res.stray = true
					if len(stack) > 0 {
						stack = stack[:len(stack)-1]
					}
					continue
				}
				stack = stack[:len(stack)-1]
			}
		}
		// Single-line strings end with their line (Go, Python, JS "" and '').
		if closeDelim == `"` || closeDelim == "'" {
			if !(closeDelim == `"` && lang == "rust") {
				if !strings.HasSuffix(line, `\`) {
					res.badLine = n + 1
					closeDelim = ""
				}
			}
		}
	}
	res.unclosed = len(stack)
	if closeDelim != "" || blockComment {
		res.openString = true
	}
	return res
}

// pythonIndentError returns the 1-based line of the first indentation error
// in dedented Python code (an unexpected indent, a dedent to no enclosing
// level, a block opener with no indented body), or 0.
func pythonIndentError(code string) int {
	lines := strings.Split(code, "\n")
	sc := scanCode(code, "python")
	stack := []int{0}
	opener, cont := false, false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		st := sc.lines[i]
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if st.depth > 0 || st.inString || cont {
			// A continuation line: it may close a multi-line block header.
			if i+1 < len(sc.lines) && sc.lines[i+1].depth == 0 && !sc.lines[i+1].inString {
				opener = strings.HasSuffix(t, ":")
			}
			cont = strings.HasSuffix(t, `\`)
			continue
		}
		ind := len(strings.ReplaceAll(leading(l), "\t", "        "))
		top := stack[len(stack)-1]
		switch {
		case ind > top && opener:
			stack = append(stack, ind)
		case ind > top:
			return i + 1
		case opener:
			return i + 1
		case ind < top:
			for len(stack) > 1 && stack[len(stack)-1] > ind {
				stack = stack[:len(stack)-1]
			}
			if stack[len(stack)-1] != ind {
				return i + 1
			}
		}
		code := t
		if j := strings.Index(code, " #"); j >= 0 && !strings.ContainsAny(code[:j], `"'`) {
			code = strings.TrimSpace(code[:j])
		}
		opener = strings.HasSuffix(code, ":") && (i+1 >= len(sc.lines) || sc.lines[i+1].depth == 0)
		cont = strings.HasSuffix(t, `\`)
	}
	return 0
}
