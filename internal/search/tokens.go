package search

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopWords are English and programming filler words that say nothing about
// where code lives. They are dropped from every token stream.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then else when while of to in on at by for with
		from as is are was were be been being it its this that these those there here i me my we our you your
		he she they them their his her not no nor so too very can could should would will shall may might must
		do does did done doing have has had having what which who whom whose why how all any both each few more
		most other some such only own same than just also into over under again further once about above below
		up down out off because until between through during before after am get got like use used using one
		two new way need want make makes made see seems seem think know work works working way e.g i.e etc
		however instead still now even way thing things something anything way since already example following
		problem issue bug error expected actual result results return returns self cls def none true false
		import class pass print`) {
		m[w] = true
	}
	return m
}()

// isStop reports whether a lower-cased token is a stop word.
func isStop(tok string) bool { return stopWords[tok] }

var identRE = lazyRegexp(`[A-Za-z_][A-Za-z0-9_]*`)

// SplitIdent splits an identifier on underscores, dots, digits-to-letter
// boundaries and camelCase ("HTTPAdapter" → HTTP, Adapter;
// "resolve_redirects" → resolve, redirects). Parts keep their case.
func SplitIdent(s string) []string {
	var parts []string
	for _, chunk := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		parts = append(parts, splitCamel(chunk)...)
	}
	return parts
}

func splitCamel(s string) []string {
	var out []string
	runes := []rune(s)
	start := 0
	for i := 1; i < len(runes); i++ {
		prev, cur := runes[i-1], runes[i]
		boundary := false
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(cur):
			boundary = true
		case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			boundary = true // "HTTPAdapter": split before the A
		case unicode.IsDigit(prev) != unicode.IsDigit(cur):
			boundary = true
		}
		if boundary {
			out = append(out, string(runes[start:i]))
			start = i
		}
	}
	return append(out, string(runes[start:]))
}

// keepToken reports whether a lower-cased token carries meaning: at least two
// characters, not a number, not a stop word.
func keepToken(t string) bool {
	if len(t) < 2 || isStop(t) {
		return false
	}
	for _, r := range t {
		if !unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// Tokenize turns text into lower-cased index terms: each identifier whole and
// its snake/camel parts, dropping 1-character tokens, numbers and stop words.
// It is the tokenizer of the lexical (BM25) signal and of the BM25 baseline.
func Tokenize(text string) []string {
	return appendTokens(nil, text)
}

// plainStopWords are the few English stop words of the plain BM25 baseline.
var plainStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with from as is are was were be been it its this that these those not no do does did have has had can will would should i we you he she they`) {
		m[w] = true
	}
	return m
}()

// PlainTokenize is Tokenize with only a few English stop words dropped: the
// tokenizer of the published-recipe BM25 baseline.
func PlainTokenize(text string) []string {
	var out []string
	for _, id := range identRE().FindAllString(text, -1) {
		whole := strings.ToLower(id)
		keep := func(t string) bool { return len(t) >= 2 && !isNumber(t) && !plainStopWords[t] }
		parts := SplitIdent(id)
		if len(parts) != 1 || strings.ToLower(parts[0]) != whole {
			if keep(whole) {
				out = append(out, whole)
			}
		}
		for _, p := range parts {
			if p = strings.ToLower(p); keep(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func appendTokens(out []string, text string) []string {
	for _, id := range identRE().FindAllString(text, -1) {
		out = appendIdentTokens(out, id)
	}
	return out
}

// appendIdentTokens appends the terms of one identifier (a match of identRE).
func appendIdentTokens(out []string, id string) []string {
	whole := strings.ToLower(id)
	parts := SplitIdent(id)
	if len(parts) != 1 || strings.ToLower(parts[0]) != whole {
		if keepToken(whole) {
			out = append(out, whole)
		}
	}
	for _, p := range parts {
		p = strings.ToLower(p)
		if keepToken(p) {
			out = append(out, p)
		}
	}
	return out
}

// nameTokens is the set of lower-cased parts of a definition name or path
// (without stop-word filtering beyond length: "get" and "add" matter there).
func nameTokens(s string) []string {
	var out []string
	for _, p := range SplitIdent(s) {
		p = strings.ToLower(p)
		if len(p) >= 2 && !isNumber(p) {
			out = append(out, p)
		}
	}
	return out
}

func isNumber(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// Ident is an identifier found in task text, with how strongly its context
// marks it as a name the task is about.
type Ident struct {
	Name   string  `json:"name"`   // as written: "resolve_redirects", "Session.resolve_redirects"
	Weight float64 `json:"weight"` // 1 named in prose as code or in an error message; SnippetWeight in example code; ProseWeight in plain prose
}

// commonNames are Python builtins and the standard library calls that
// reproduction snippets use all the time.
var commonNames = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`abs all any ascii bin bool bytearray bytes callable chr classmethod compile complex
		delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex
		id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow
		print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
		mkdir makedirs chdir getcwd listdir remove unlink rmdir rmtree exists isfile isdir join split basename dirname
		abspath realpath walk environ system popen run call check_output check_call copy deepcopy dump dumps load loads
		read write close append extend update keys values items get pop insert sort time sleep main setup teardown
		warn warning info debug error exception getLogger basicConfig`) {
		m[w] = true
	}
	return m
}()

// IsCommonName reports whether name looks like a builtin or everyday
// standard-library call (see CommonNameDiscount).
func IsCommonName(name string) bool { return commonNames[name] }

var (
	fenceRE    = lazyRegexp("(?s)```.*?```")
	backtickRE = lazyRegexp("`([^`\n]{1,200})`")
	dottedRE   = lazyRegexp(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)
	callRE     = lazyRegexp(`([A-Za-z_][A-Za-z0-9_.]*)\s*\(`)
	// chainRE is a method called on a fresh instance of a class (Python
	// classes are capitalised): `Point(2, (0)).distance(`. One level of
	// nested parentheses is read inside the constructor's arguments.
	chainRE  = lazyRegexp(`\b([A-Z][A-Za-z0-9_]*)\((?:[^()\n]|\([^()\n]*\))*\)\.([A-Za-z_][A-Za-z0-9_]*)\s*\(?`)
	pathRE   = lazyRegexp(`(?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+\.[A-Za-z]{1,5}\b|\b[A-Za-z0-9_-]+\.(?:py|go|js|ts|rs|java|rb|c|h|cpp)\b`)
	promptRE = lazyRegexp(`(?m)^\s*(?:>>>|\.\.\.|In \[\d+\]:|\$)\s`)
	importRE = lazyRegexp(`^\s*(?:>>>\s*|\.\.\.\s*)?(?:from\s+\S+\s+)?import\s`)
	// errorLineRE is the last line of a Python traceback or a quoted error:
	// "ValueError: Invalid comparison of non-real I", "TypeError: ...".
	errorLineRE = lazyRegexp(`(?m)^\s*(?:[A-Za-z_][\w.]*\.)?([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt))\s*:\s*(\S.{3,400})$`)
	// optionRE is a command-line option written with its dashes or a value:
	// "--collect-only", "import-mode=importlib" (not "==": a pinned version).
	optionRE = lazyRegexp(`(?:^|[^\w-])(--)?([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(=[^=]|\b)`)
	// literalRE is a hyphenated name, two or more words joined by
	// hyphens, with any leading dashes (hyphenLiterals checks its ends).
	literalRE = lazyRegexp(`-*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+`)
	// indentedCodeRE: a line indented four spaces or a tab, outside fences (Markdown code).
	indentedCodeRE = lazyRegexp(`^(?: {4}|\t)\S`)
)

// Extracted is what ExtractIdents finds in task text.
type Extracted struct {
	Idents   []Ident  // distinct identifiers, strongest weight kept, in first-seen order
	Dotted   []string // dotted names ("Session.resolve_redirects", "sympy.core.mul")
	Paths    []string // file paths written in the text
	Tokens   []string // all lexical terms (Tokenize of the whole text), repeated as they occur
	Errors   []string // messages of the error lines quoted ("Invalid comparison of non-real I")
	CodeToks []string // lexical terms of the identifiers written as code (prose code spans, snippets, errors)
	// Chained are "Class.method" pairs read from a method called on a
	// fresh instance, `Point(2, 0).distance(p)`: the method is Class's.
	Chained []string
	// Options are the names a command-line option in the text is
	// written as in code, its words joined (`--import-mode` gives
	// import_mode and importmode): code names an option's value in any
	// case, an ImportMode enum as much as an import_mode variable.
	Options []string
	// Calls are the names the text calls, `Permutation([[0, 1]])` or
	// `ccode(x)`, with the weight of where the call is written (1 in
	// prose and error messages, SnippetWeight in example code).
	Calls []Ident
	// Literals are hyphenated names written in prose
	// (`used-before-assignment`, zh-cn, content-type): code cannot name
	// anything so, so it writes them as strings, a message id, a locale,
	// a header where they are defined or checked.
	Literals []string
}

// ExtractIdents finds identifiers in issue text. In prose, inline code,
// dotted names, calls and code-shaped words (snake_case, camelCase, dunder)
// count 1 and other words ProseWeight; in example code (fenced or indented
// blocks, interactive sessions) names count SnippetWeight, import lines
// ProseWeight, and a comment's words ProseWeight (its code-shaped ones
// SnippetWeight); the identifiers of quoted error messages count 1.
// long: one pass over the task's parts (prose, code, errors, paths) that
// share the add helpers and their seen sets.
func ExtractIdents(text string) Extracted {
	var ex Extracted
	seen := map[string]int{}
	add := func(name string, w float64) {
		name = strings.Trim(name, ".")
		if name == "" || len(name) > 120 || strings.Trim(name, "_") == "" {
			return
		}
		if i, ok := seen[name]; ok {
			if w > ex.Idents[i].Weight {
				ex.Idents[i].Weight = w
			}
			return
		}
		lower := strings.ToLower(name)
		if len(name) < 2 || isNumber(name) || (w < 1 && isStop(lower)) {
			return
		}
		seen[name] = len(ex.Idents)
		ex.Idents = append(ex.Idents, Ident{Name: name, Weight: w})
	}
	addAll := func(raw string, w float64) {
		for _, id := range identRE().FindAllString(raw, -1) {
			if isStop(strings.ToLower(id)) && !strings.Contains(id, "_") {
				continue
			}
			add(id, w)
		}
	}
	// Split the text into prose and code: fenced blocks, indented blocks and
	// interactive-session lines are code.
	var code []string
	prose := fenceRE().ReplaceAllStringFunc(text, func(m string) string {
		code = append(code, m)
		return "\n"
	})
	var proseLines []string
	for _, line := range strings.Split(prose, "\n") {
		if m := goTestRE().FindStringIndex(line); m != nil {
			// a go test failure line: its message is an error message
			ex.Errors = append(ex.Errors, strings.TrimSpace(line[m[1]:]))
			continue
		}
		if promptRE().MatchString(line) || indentedCodeRE().MatchString(line) {
			code = append(code, line)
			continue
		}
		proseLines = append(proseLines, line)
	}
	prose = strings.Join(proseLines, "\n")

	seenDotted := map[string]bool{}
	for _, m := range dottedRE().FindAllString(text, -1) {
		if looksLikeSentenceEnd(m) {
			continue
		}
		if !seenDotted[m] {
			seenDotted[m] = true
			ex.Dotted = append(ex.Dotted, m)
		}
	}
	seenPath := map[string]bool{}
	for _, m := range pathRE().FindAllString(text, -1) {
		if !seenPath[m] {
			seenPath[m] = true
			ex.Paths = append(ex.Paths, m)
		}
	}
	seenChain := map[string]bool{}
	for _, m := range chainRE().FindAllStringSubmatch(text, -1) {
		if pair := m[1] + "." + m[2]; !seenChain[pair] {
			seenChain[pair] = true
			ex.Chained = append(ex.Chained, pair)
		}
	}
	callW := map[string]int{}
	addCall := func(name string, w float64) {
		parts := strings.Split(strings.Trim(name, "."), ".")
		name = parts[len(parts)-1]
		if len(name) < 2 || isStop(strings.ToLower(name)) {
			return
		}
		if i, ok := callW[name]; ok {
			ex.Calls[i].Weight = max(ex.Calls[i].Weight, w)
			return
		}
		callW[name] = len(ex.Calls)
		ex.Calls = append(ex.Calls, Ident{Name: name, Weight: w})
	}
	var codeText strings.Builder
	// Error messages: the strongest words of a report.
	for _, m := range errorLineRE().FindAllStringSubmatch(text, -1) {
		ex.Errors = append(ex.Errors, strings.TrimSpace(m[2]))
	}
	for _, msg := range ex.Errors {
		addAll(msg, 1)
		for _, m := range callRE().FindAllStringSubmatch(msg, -1) {
			parts := strings.Split(m[1], ".")
			add(parts[len(parts)-1], 1)
			addCall(m[1], 1)
		}
		codeText.WriteString(msg + "\n")
	}
	// Command-line options: `--import-mode`, `import-mode=importlib`. The
	// code names an option's value with its words joined (import_mode,
	// importmode), so both count as identifiers written in the task.
	for _, m := range optionRE().FindAllStringSubmatch(text, -1) {
		if m[1] == "" && m[3] == "" {
			continue // a hyphenated word, not an option
		}
		parts := strings.Split(m[2], "-")
		for _, name := range []string{strings.Join(parts, "_"), strings.Join(parts, "")} {
			add(name, 1)
			if !slices.Contains(ex.Options, name) {
				ex.Options = append(ex.Options, name)
			}
		}
		codeText.WriteString(strings.Join(parts, "_") + "\n")
	}
	// Literals: hyphenated names the reporter writes (not pasted output,
	// whose attribute and package names name the printer).
	ex.Literals = hyphenLiterals(prose)
	// Prose: inline code, dotted names, calls and code-shaped words count fully.
	for _, m := range backtickRE().FindAllStringSubmatch(prose, -1) {
		addAll(m[1], 1)
		codeText.WriteString(m[1] + "\n")
	}
	for _, m := range dottedRE().FindAllString(prose, -1) {
		if looksLikeSentenceEnd(m) {
			continue
		}
		for _, part := range strings.Split(m, ".") {
			add(part, 1)
		}
		codeText.WriteString(m + "\n")
	}
	for _, m := range callRE().FindAllStringSubmatch(prose, -1) {
		parts := strings.Split(m[1], ".")
		add(parts[len(parts)-1], 1)
		addCall(m[1], 1)
		codeText.WriteString(m[1] + "\n")
	}
	// Code: names in example code count SnippetWeight, imports ProseWeight.
	for _, c := range code {
		for _, line := range strings.Split(c, "\n") {
			if importRE().MatchString(line) {
				addAll(line, ProseWeight)
				continue
			}
			// A comment is the reporter's prose ("# so far so good"):
			// its words are not names the code uses.
			line, comment := splitComment(line)
			for _, id := range identRE().FindAllString(comment, -1) {
				if codeShaped(id) {
					add(id, SnippetWeight)
					codeText.WriteString(id + "\n")
				} else {
					add(id, ProseWeight)
				}
			}
			addAll(line, SnippetWeight)
			for _, m := range callRE().FindAllStringSubmatch(line, -1) {
				addCall(m[1], SnippetWeight)
			}
			codeText.WriteString(line + "\n")
		}
	}
	for _, id := range identRE().FindAllString(prose, -1) {
		if codeShaped(id) {
			add(id, 1)
			codeText.WriteString(id + "\n")
		} else {
			add(id, ProseWeight)
		}
	}
	ex.Tokens = Tokenize(text)
	ex.CodeToks = Tokenize(codeText.String())
	return ex
}

// splitComment splits a line of example code at its comment: a # outside
// string quotes that starts the line or follows a space. It returns the
// code and the comment's text (without the #).
func splitComment(line string) (code, comment string) {
	var quote byte
	for i := 0; i < len(line); i++ {
		switch b := line[i]; {
		case quote != 0:
			if b == '\\' {
				i++
			} else if b == quote {
				quote = 0
			}
		case b == '\'' || b == '"':
			quote = b
		case b == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i], line[i+1:]
		}
	}
	return line, ""
}

// looksLikeSentenceEnd filters "e.g" or "end.The" style accidents: a dotted
// name whose parts are all plain lower-case English words joined without
// code shape, with a capitalised tail that looks like a new sentence.
func looksLikeSentenceEnd(m string) bool {
	parts := strings.Split(m, ".")
	if len(parts) == 2 && len(parts[0]) <= 2 && len(parts[1]) <= 2 {
		return true // e.g, i.e
	}
	return false
}

// codeShaped reports whether a word looks like code rather than prose:
// snake_case, camelCase, a dunder, or letters mixed with digits.
func codeShaped(id string) bool {
	if strings.Contains(strings.Trim(id, "_"), "_") || strings.HasPrefix(id, "_") {
		return true
	}
	r, size := utf8.DecodeRuneInString(id)
	rest := id[size:]
	hasUpperInside := strings.IndexFunc(rest, unicode.IsUpper) >= 0
	hasLower := strings.IndexFunc(id, unicode.IsLower) >= 0
	if hasUpperInside && hasLower {
		return true // camelCase or PascalCase with an inner capital
	}
	_ = r
	hasDigit := strings.IndexFunc(id, unicode.IsDigit) >= 0
	return hasDigit && hasLower
}

// hyphenLiterals returns the hyphenated names of prose, at most
// maxLiterals, each once: not an option (--name, name=value), which names
// code through Options, and not part of a path, a dotted name or a longer
// word.
func hyphenLiterals(prose string) []string {
	var out []string
	for _, m := range literalRE().FindAllStringIndex(prose, -1) {
		lit := prose[m[0]:m[1]]
		if strings.HasPrefix(lit, "-") || len(lit) < minLiteralLen || slices.Contains(out, lit) {
			continue
		}
		if m[0] > 0 && strings.ContainsRune("_/.", rune(prose[m[0]-1])) {
			continue
		}
		if m[1] < len(prose) && strings.ContainsRune("_/=", rune(prose[m[1]])) {
			continue
		}
		if out = append(out, lit); len(out) == maxLiterals {
			break
		}
	}
	return out
}
