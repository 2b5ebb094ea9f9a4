package edit

import (
	"regexp"
	"strings"
)

// extracted is the code found in a model's reply.
type extracted struct {
	code      string // the definition's code, LF line endings
	prose     string // text around it that was dropped
	firstLine string // the code's first line as the model wrote it (for indentation)
	fenced    bool   // it came from a markdown fence
	ambiguous int    // >1: that many fenced blocks define the name
	codeLike  bool   // no definition found, but the reply looks like code (a bare body)
	crlf      bool   // the reply used CRLF line endings
}

// fence is one markdown code block.
type fence struct {
	lines  []string
	closed bool
}

// extract pulls one definition out of reply: the fenced block that defines
// name (or the only one), else the lines from the first definition header to
// where its body ends.
func extract(reply, lang, name string) extracted {
	lines := strings.Split(reply, "\n")
	var fences []fence
	var prose []string
	var cur *fence
	for _, l := range lines {
		t := strings.TrimSpace(l)
		isFence := strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
		switch {
		case cur == nil && isFence:
			fences = append(fences, fence{})
			cur = &fences[len(fences)-1]
		case cur != nil && isFence && strings.Trim(t, "`~") == "":
			cur.closed = true
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		default:
			prose = append(prose, l)
		}
	}
	if len(fences) > 0 {
		pick := -1
		named, withDef := 0, 0
		for i, f := range fences {
			body := strings.Join(f.lines, "\n")
			segs := segments(string(Dedent([]byte(body))), lang)
			hasName, hasDef := false, false
			for _, s := range segs {
				if s.def {
					hasDef = true
					hasName = hasName || s.name == name
				}
			}
			if hasName {
				named++
				pick = i
			}
			if hasDef {
				withDef++
				if named == 0 {
					pick = i
				}
			}
		}
		if named > 1 {
			return extracted{ambiguous: named, fenced: true}
		}
		if pick < 0 {
			// No fence defines anything: take the longest, the checks say why it fails.
			for i, f := range fences {
				if pick < 0 || len(f.lines) > len(fences[pick].lines) {
					pick = i
				}
			}
		}
		ex := extracted{code: strings.Join(fences[pick].lines, "\n"), fenced: true}
		for i, f := range fences {
			if i != pick {
				prose = append(prose, f.lines...)
			}
		}
		ex.prose = strings.TrimSpace(strings.Join(prose, "\n"))
		ex.firstLine = firstNonBlank(fences[pick].lines)
		if segsHaveDef(ex.code, lang) {
			return ex
		}
		ex.codeLike = looksLikeCode(ex.code)
		ex.code = ""
		return ex
	}
	return extractBare(lines, lang, name)
}

func segsHaveDef(code, lang string) bool {
	for _, s := range segments(string(Dedent([]byte(code))), lang) {
		if s.def {
			return true
		}
	}
	return false
}

func firstNonBlank(lines []string) string {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// extractBare finds a definition in a reply without fences.
func extractBare(lines []string, lang, name string) extracted {
	start := -1
	for i, l := range lines {
		if isDefStart(strings.TrimSpace(l), lang) || (cppTmpl().MatchString(strings.TrimSpace(l)) && cppPrefix(lines, i, lang) > 0) {
			start = i
			break
		}
	}
	if start < 0 {
		return extracted{codeLike: looksLikeCode(strings.Join(lines, "\n")), prose: strings.Join(lines, "\n")}
	}
	// Decorators directly above belong to the definition.
	for start > 0 && strings.HasPrefix(strings.TrimSpace(lines[start-1]), "@") {
		start--
	}
	end := defEnd(lines, start, lang)
	// Further definitions right after it are part of the reply's code (and
	// will be counted), not prose.
	for {
		next := end
		for next < len(lines) && strings.TrimSpace(lines[next]) == "" {
			next++
		}
		if next >= len(lines) {
			break
		}
		t := strings.TrimSpace(lines[next])
		if !isDefStart(t, lang) && !strings.HasPrefix(t, "@") {
			break
		}
		h := next
		for h < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[h]), "@") {
			h++
		}
		if h >= len(lines) {
			break
		}
		end = defEnd(lines, h, lang)
	}
	prose := append(append([]string{}, lines[:start]...), lines[end:]...)
	return extracted{
		code:      strings.Join(lines[start:end], "\n"),
		prose:     strings.TrimSpace(strings.Join(prose, "\n")),
		firstLine: lines[start],
	}
}

// defEnd returns the index after the last line of the definition whose header
// (or first decorator) is at lines[start].
func defEnd(lines []string, start int, lang string) int {
	rest := strings.Join(lines[start:], "\n")
	sc := scanCode(rest, lang)
	if lang == "python" {
		ind := len(leading(lines[start]))
		h := start
		for h < len(lines)-1 && strings.HasPrefix(strings.TrimSpace(lines[h]), "@") {
			h++
		}
		end := h + 1
		for i := h + 1; i < len(lines); i++ {
			l := lines[i]
			if strings.TrimSpace(l) == "" {
				continue
			}
			if st := sc.lines[i-start]; st.depth > 0 || st.inString || len(leading(l)) > ind {
				end = i + 1
				continue
			}
			break
		}
		return end
	}
	opened := false
	for i := start; i < len(lines); i++ {
		if strings.Contains(lines[i], "{") {
			opened = true
		}
		if i+1-start < len(sc.lines) {
			if opened && sc.lines[i+1-start].depth == 0 && !sc.lines[i+1-start].inString {
				return i + 1
			}
		}
		if lang == "ruby" && i > start && strings.TrimSpace(lines[i]) == "end" && len(leading(lines[i])) == len(leading(lines[start])) {
			return i + 1
		}
	}
	return len(lines)
}

// looksLikeCode reports whether most non-blank lines of s look like code.
func looksLikeCode(s string) bool {
	code, all := 0, 0
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		all++
		if codeLine().MatchString(t) {
			code++
		}
	}
	return all > 0 && code*2 >= all
}

var codeLine = lazyRegexp(`[:{};)\]]$|^(return|if|for|while|raise|try|else|elif|except|import|from|var|let|const|switch|case)\b|^\w[\w.\[\]]*\s*(=|:=|\+=|-=)\s*\S`)

// segment is one top-level piece of code: a definition or a statement.
type segment struct {
	def        bool
	name       string   // the definition's name
	header     string   // its header up to the body ("def f(a, b):", "func f(a int) error {")
	first      string   // the first line
	decorators []string // decorator lines above a definition
}

// segments splits dedented code into its top-level definitions and statements.
func segments(code, lang string) []segment {
	lines := strings.Split(code, "\n")
	sc := scanCode(code, lang)
	braces := !isPythonLike(lang)
	var out []segment
	var decorators []string
	headerEnd := -1 // last line of the current definition's header (its body's "{" on a line of its own included)
	for i, l := range lines {
		t := strings.TrimSpace(l)
		st := sc.lines[i]
		if t == "" || st.depth > 0 || st.inString || i <= headerEnd {
			continue
		}
		if !braces && leading(l) != "" {
			continue
		}
		if isComment(t) {
			continue
		}
		// A C++ template header (over one line or several) and a return
		// type on a line of its own belong to the definition under them, as
		// a decorator does: the index's range starts at them.
		if n := cppPrefix(lines, i, lang); n > 0 {
			for _, l := range lines[i : i+n] {
				decorators = append(decorators, strings.TrimSpace(l))
			}
			headerEnd = i + n - 1
			continue
		}
		if strings.HasPrefix(t, "@") && !isDefStart(t, lang) {
			decorators = append(decorators, t)
			continue
		}
		if lang == "ruby" && t == "end" {
			continue
		}
		if isDefStart(t, lang) {
			h := header(lines[i:], lang)
			out = append(out, segment{def: true, name: nameOf(t, lang), header: h, first: l, decorators: decorators})
			decorators = nil
			if braces {
				// A header over several lines at depth 0 ("throws X" on its own
				// line, Allman style's "{" below the signature) is the definition's.
				headerEnd = i + strings.Count(h, "\n")
			}
			continue
		}
		if braces && (t == "}" || t == "};" || strings.HasPrefix(t, "}")) {
			continue
		}
		out = append(out, segment{first: l})
		decorators = nil
	}
	return out
}

// header is a definition's header: its lines up to the start of the body.
func header(lines []string, lang string) string {
	var b strings.Builder
	depth := 0
	py := isPythonLike(lang)
	for _, l := range lines {
		for i := 0; i < len(l); i++ {
			c := l[i]
			switch {
			case c == '(' || c == '[':
				depth++
			case c == ')' || c == ']':
				depth--
			case c == '{' && !py && depth == 0:
				return b.String()
			case c == '{':
				depth++
			case c == '}':
				depth--
			case c == ':' && py && depth == 0:
				b.WriteByte(c)
				return b.String()
			case c == '#' && py:
				i = len(l)
				continue
			}
			b.WriteByte(c)
		}
		if lang == "ruby" && depth == 0 {
			return b.String()
		}
		b.WriteByte('\n')
	}
	return b.String()
}

var (
	goFunc  = lazyRegexp(`^func\s*(\([^)]*\)\s*)?([A-Za-z_]\w*)`)
	pyDef   = lazyRegexp(`^(?:async\s+)?def\s+(\w+)|^class\s+(\w+)`)
	rustFn  = lazyRegexp(`^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)`)
	rubyDef = lazyRegexp(`^def\s+(?:self\.)?([\w?!=]+)`)
	jsFunc  = lazyRegexp(`^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)`)
	jsClass = lazyRegexp(`^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)`)
	// The keyword is optional: the index's range of a function bound to a
	// variable starts at the name ("dayjs = function (date) {"), and that is
	// how the definition is shown and may come back.
	jsVar = lazyRegexp(`^(?:export\s+)?(?:(?:const|let|var)\s+)?([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function|\(|[\w$]+\s*=>)`)
	// A function bound to a member ("proto.format = function (s) {") or
	// to an object literal's key ("ordinal: n => ..."): the index names it
	// by its last part, and its range starts at the member or the key.
	jsMember = lazyRegexp(`^(?:[\w$]+\.)+([\w$]+)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)`)
	jsProp   = lazyRegexp(`^['"]?([\w$]+)['"]?\s*:\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)`)
	cppTmpl  = lazyRegexp(`^template\s*<`)
	// A return type alone on its line, above the definition's name.
	cppReturnType = lazyRegexp(`^[\w:<>,\s*&]*[\w>*&]$`)
	// A Java method with no body: abstract, or in an interface.
	javaDecl = lazyRegexp(`^(?:[\w<>\[\]?,.]+\s+)+([A-Za-z_]\w*)\s*\([^=]*\)\s*(?:throws\s+[\w.,\s]+)?;$`)
	// Annotations on a definition's own line ("@Override public int f() {").
	annotations = lazyRegexp(`^(?:@[\w.]+(?:\([^)]*\))?\s+)+`)
	jsMethod    = lazyRegexp(`^(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*\*?\s*([\w$]+)\s*(?:<[^>]*>)?\s*\(`)
	cLikeFunc   = lazyRegexp(`^[\w<>\[\]\s*&:,]*?([A-Za-z_]\w*)\s*\([^;]*$`)
	keywords    = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true, "else": true, "new": true, "throw": true, "typeof": true, "await": true, "do": true, "try": true, "sizeof": true, "elif": true, "print": true, "super": true, "this": true}
)

// nameOf returns the name a definition header line declares, or "".
func nameOf(t, lang string) string {
	pick := func(m []string) string {
		for _, g := range m[1:] {
			if g != "" {
				return g
			}
		}
		return ""
	}
	if lang != "python" {
		t = annotations().ReplaceAllString(t, "")
	}
	switch lang {
	case "go":
		if m := goFunc().FindStringSubmatch(t); m != nil {
			return m[2]
		}
		return ""
	case "python":
		if m := pyDef().FindStringSubmatch(t); m != nil {
			return pick(m)
		}
		return ""
	case "rust":
		if m := rustFn().FindStringSubmatch(t); m != nil {
			return m[1]
		}
		return ""
	case "ruby":
		if m := rubyDef().FindStringSubmatch(t); m != nil {
			return m[1]
		}
		return ""
	case "javascript", "typescript", "tsx", "jsx":
		for _, re := range []*regexp.Regexp{jsFunc(), jsClass(), jsVar(), jsMember(), jsProp(), jsMethod()} {
			if m := re.FindStringSubmatch(t); m != nil && !keywords[m[1]] {
				return m[1]
			}
		}
		return ""
	}
	if lang == "java" {
		if m := javaDecl().FindStringSubmatch(t); m != nil && !keywords[m[1]] && !keywords[strings.Fields(t)[0]] {
			return m[1]
		}
	}
	if strings.HasSuffix(t, ";") {
		return ""
	}
	if m := cLikeFunc().FindStringSubmatch(t); m != nil && !keywords[m[1]] {
		return m[1]
	}
	return ""
}

// cppPrefix is how many lines from line i make a prefix of the C++
// definition below them: a template header, whole once its angle brackets
// close, or a return type alone on its line; 0 if none.
func cppPrefix(lines []string, i int, lang string) int {
	if lang != "cpp" && lang != "c" {
		return 0
	}
	t := strings.TrimSpace(lines[i])
	if cppTmpl().MatchString(t) {
		depth := 0
		for j := i; j < len(lines); j++ {
			l := strings.TrimSpace(lines[j])
			depth += strings.Count(l, "<") - strings.Count(l, ">")
			if depth <= 0 {
				if strings.HasSuffix(l, ";") || strings.ContainsAny(l[strings.LastIndex(l, ">")+1:], "({") {
					return 0 // a declaration, or the definition's own line
				}
				return j - i + 1
			}
		}
		return 0
	}
	if !cppReturnType().MatchString(t) || len(strings.Fields(t)) > 3 {
		return 0
	}
	for j := i + 1; j < len(lines); j++ {
		if n := strings.TrimSpace(lines[j]); n != "" {
			if isDefStart(n, lang) {
				return 1
			}
			return 0
		}
	}
	return 0
}

// isDefStart reports whether the trimmed line t starts a definition.
func isDefStart(t, lang string) bool { return nameOf(t, lang) != "" }
