package search

import (
	"regexp"
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

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

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
	for _, id := range identRE.FindAllString(text, -1) {
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
	for _, id := range identRE.FindAllString(text, -1) {
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
// marks it as code.
type Ident struct {
	Name   string  `json:"name"`   // as written: "resolve_redirects", "Session.resolve_redirects"
	Weight float64 `json:"weight"` // 1 in code (backticks, blocks, calls, dotted, code-shaped); ProseWeight in plain prose
}

// ProseWeight is how much a plain prose word counts as a possible identifier:
// "simplify" in "simplify fails" may be the function, but prose is noisy.
const ProseWeight = 0.35

var (
	fenceRE    = regexp.MustCompile("(?s)```.*?```")
	backtickRE = regexp.MustCompile("`([^`\n]{1,200})`")
	dottedRE   = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)
	callRE     = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.]*)\s*\(`)
	pathRE     = regexp.MustCompile(`(?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+\.[A-Za-z]{1,5}\b|\b[A-Za-z0-9_-]+\.(?:py|go|js|ts|rs|java|rb|c|h|cpp)\b`)
	promptRE   = regexp.MustCompile(`(?m)^\s*(?:>>>|\.\.\.|In \[\d+\]:|\$)\s`)
)

// Extracted is what ExtractIdents finds in task text.
type Extracted struct {
	Idents []Ident  // distinct identifiers, strongest weight kept, in first-seen order
	Dotted []string // dotted names ("Session.resolve_redirects", "sympy.core.mul")
	Paths  []string // file paths written in the text
	Tokens []string // all lexical terms (Tokenize of the whole text), repeated as they occur
}

// ExtractIdents finds identifiers in issue prose: code blocks, inline code,
// dotted names, calls, paths and code-shaped words (snake_case, camelCase,
// dunder) count fully; other words count with ProseWeight.
func ExtractIdents(text string) Extracted {
	var ex Extracted
	seen := map[string]int{}
	add := func(name string, w float64) {
		name = strings.Trim(name, "._")
		if name == "" || len(name) > 120 {
			return
		}
		// keep dunder names whole
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
	addDunderAware := func(raw string, w float64) {
		for _, id := range identRE.FindAllString(raw, -1) {
			if isStop(strings.ToLower(id)) && !strings.Contains(id, "_") {
				continue
			}
			if strings.HasPrefix(id, "__") && strings.HasSuffix(id, "__") && len(id) > 4 {
				add(id, w) // "__init__" stays whole
				continue
			}
			add(id, w)
		}
	}
	// Code: fenced blocks and inline backticks.
	var code []string
	for _, m := range fenceRE.FindAllString(text, -1) {
		code = append(code, m)
	}
	for _, m := range backtickRE.FindAllStringSubmatch(fenceRE.ReplaceAllString(text, " "), -1) {
		code = append(code, m[1])
	}
	// Interactive sessions and traceback lines outside fences are code too.
	for _, line := range strings.Split(text, "\n") {
		if promptRE.MatchString(line) {
			code = append(code, line)
		}
	}
	seenDotted := map[string]bool{}
	for _, m := range dottedRE.FindAllString(text, -1) {
		if looksLikeSentenceEnd(m) {
			continue
		}
		if !seenDotted[m] {
			seenDotted[m] = true
			ex.Dotted = append(ex.Dotted, m)
		}
	}
	seenPath := map[string]bool{}
	for _, m := range pathRE.FindAllString(text, -1) {
		if !seenPath[m] {
			seenPath[m] = true
			ex.Paths = append(ex.Paths, m)
		}
	}
	for _, c := range code {
		addDunderAware(c, 1)
	}
	for _, d := range ex.Dotted {
		for _, part := range strings.Split(d, ".") {
			add(part, 1)
		}
	}
	for _, m := range callRE.FindAllStringSubmatch(text, -1) {
		parts := strings.Split(m[1], ".")
		add(parts[len(parts)-1], 1)
	}
	for _, id := range identRE.FindAllString(text, -1) {
		if codeShaped(id) {
			add(id, 1)
		} else {
			add(id, ProseWeight)
		}
	}
	ex.Tokens = Tokenize(text)
	return ex
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
