package edit

import (
	"context"
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/span"
)

// Verdict codes. Accepted replies have CodeOK; every other code is a rejection
// whose Reason is written to be passed back to the model.
const (
	CodeOK          = "ok"
	CodeEmpty       = "empty"       // nothing in the reply
	CodeProse       = "prose"       // prose instead of code
	CodeElision     = "elision"     // "# ... existing code ...", "rest unchanged", a bare "..."
	CodeTruncated   = "truncated"   // stopped by max_tokens, unbalanced, ends mid-statement
	CodeDefinitions = "definitions" // more or fewer than one definition, or code outside it
	CodeName        = "name"        // the definition's name changed
	CodeSignature   = "signature"   // its parameters or return type changed
	CodeIdentical   = "identical"   // same code as the original
	CodeShorter     = "shorter"     // far shorter than the original, with no reason given
	CodeParse       = "parse"       // the spliced file has syntax errors
	CodeAnchor      = "anchor"      // NEW FUNCTION after a name that is not a definition next to the one rewritten
	CodeCollision   = "collision"   // NEW FUNCTION with a name already taken
	CodeImports     = "imports"     // an IMPORTS block with something other than import lines
)

// Original is the definition a reply is meant to replace.
type Original struct {
	Path  string     // repository-relative; the parser picks the language from it
	Lang  string     // "python", "go", "javascript", ...
	Name  string     // the definition's name ("get", not "Session.get")
	File  []byte     // the whole file, exactly as indexed
	Range span.Range // the definition's bytes in File (decorators included)
}

// Source is the definition's bytes.
func (o Original) Source() []byte { return o.File[o.Range.Start:o.Range.End] }

// Outline is what a parser reports about one file: its syntax errors and its
// top-level definitions.
type Outline struct {
	Errors int          // tree-sitter ERROR and MISSING nodes
	Defs   []OutlineDef // top-level definitions only (no parent)
}

// OutlineDef is one top-level definition in an Outline.
type OutlineDef struct {
	Name       string
	Kind       string // "function", "method", "class", "variable"
	Start, End int
}

// ParseFunc parses src as the file at path. app wires it to the tree-sitter
// parser; edit itself imports no parser.
type ParseFunc func(ctx context.Context, path string, src []byte) (Outline, error)

// CheckOptions tune Check.
type CheckOptions struct {
	StopReason           string    // the provider's stop reason; "max_tokens" means cut off
	AllowSignatureChange bool      // the task asks for a different signature
	AllowShorter         bool      // the task asks to remove code
	Parse                ParseFunc // nil: lexical checks only (brackets, strings, indentation)
	// Extras accepts NEW FUNCTION and IMPORTS blocks besides the rewritten
	// definition (see ExtraFunction); each is checked on its own and becomes
	// one more op in Verdict.Ops. Without it a reply with such blocks is
	// rejected (CodeDefinitions): callers that write Verdict.Source alone
	// must not set it.
	Extras bool
	// Neighbors are the definitions in the same scope as the original: what
	// a NEW FUNCTION may follow and may not be named. nil: the file's
	// top-level definitions found lexically, when the original is at top level.
	Neighbors []Neighbor
}

// Verdict is the monitor's decision on one reply.
type Verdict struct {
	Accept  bool     `json:"accept"`
	Code    string   `json:"code"`
	Reason  string   `json:"reason"`
	Repairs []string `json:"repairs,omitempty"`
	// Extras are the accepted extra blocks (CheckOptions.Extras), in order.
	Extras []Extra `json:"extras,omitempty"`
	// Source is the repaired definition, ready to replace Original.Range;
	// Ops are every op of the edit, that replacement first, to apply together
	// (ApplyFile); File is Original.File with all of them applied. All three
	// are set when Accept.
	Source []byte `json:"-"`
	Ops    []Op   `json:"-"`
	File   []byte `json:"-"`
}

func reject(code, format string, args ...any) Verdict {
	return Verdict{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// Check decides whether reply is an acceptable whole-definition rewrite of
// orig, repairing what is safe to repair (markdown fences and prose around the
// code, indentation to the original column and style, the file's line
// endings, dropped decorators). It never writes anything.
func Check(ctx context.Context, orig Original, reply string, opts CheckOptions) Verdict {
	body, extras := splitExtras(reply)
	if len(extras) > 0 && !opts.Extras {
		return reject(CodeDefinitions, "The reply has %s blocks; this edit takes only the rewritten %s. Return %s alone in one code block.", extraHeaders(extras), orig.Name, orig.Name)
	}
	if len(extras) == 0 {
		body = reply
	}
	v := check(ctx, orig, body, opts, len(extras) > 0)
	if v.Accept && len(extras) > 0 {
		v = applyExtras(ctx, orig, v, extras, opts)
	}
	if !v.Accept {
		v.Source, v.Ops, v.File, v.Extras = nil, nil, nil, nil
	}
	return v
}

func extraHeaders(extras []Extra) string {
	seen := map[string]bool{}
	var out []string
	for _, e := range extras {
		h := "IMPORTS"
		if e.Kind == ExtraFunction {
			h = "NEW FUNCTION"
		}
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return strings.Join(out, " and ")
}

// check checks the rewritten definition. withExtras: the reply also has
// extra blocks, so the definition may come back unchanged (the fix is a new
// function or an import next to it).
//
// long: one ordered list of checks, each rejecting with its own message,
// then the repairs; the order is the policy, so it reads best in one place.
func check(ctx context.Context, orig Original, reply string, opts CheckOptions, withExtras bool) Verdict {
	lang := orig.Lang
	if strings.TrimSpace(reply) == "" {
		return reject(CodeEmpty, "The reply was empty. Return the whole rewritten %s in one code block.", orig.Name)
	}
	if opts.StopReason == "max_tokens" {
		return reject(CodeTruncated, "The reply was cut off (the token limit was reached). Return the whole %s again, complete, with nothing else.", orig.Name)
	}
	ex := extract(strings.ReplaceAll(reply, "\r\n", "\n"), lang, orig.Name)
	ex.crlf = strings.Contains(reply, "\r\n")
	if ex.ambiguous > 1 {
		return reject(CodeDefinitions, "The reply has %d code blocks with code for %s. Return exactly one code block with the whole rewritten %s.", ex.ambiguous, orig.Name, orig.Name)
	}
	if strings.TrimSpace(ex.code) == "" {
		if ex.codeLike {
			return reject(CodeDefinitions, "The reply has no definition of %s. Return the whole function, including its def/func line, not only the body.", orig.Name)
		}
		return reject(CodeProse, "The reply is prose, not code. Return the whole rewritten %s in one code block.", orig.Name)
	}
	var repairs []string
	if ex.fenced {
		repairs = append(repairs, "stripped markdown fence")
	}
	if ex.prose != "" {
		repairs = append(repairs, "stripped prose around the code")
	}
	code := strings.TrimRight(string(Dedent([]byte(ex.code))), " \t\n")
	// The original's first line sits at its column in the file: dedent it
	// with that column, so a method's body keeps its relative indentation.
	origSrc := strings.ReplaceAll(string(orig.Source()), "\r\n", "\n")
	origCode := string(Dedent([]byte(lineIndent(orig.File, orig.Range.Start) + origSrc)))

	if line, ok := findElision(code, origCode); ok {
		return reject(CodeElision, "The reply leaves code out (%q). Write out the whole %s: every line, with no placeholders.", strings.TrimSpace(line), orig.Name)
	}
	sc := scanCode(code, lang)
	if sc.openString || sc.unclosed > 0 {
		return reject(CodeTruncated, "The reply is incomplete: it ends inside an open %s. Return the whole %s, complete.", openWhat(sc), orig.Name)
	}
	if sc.stray {
		return reject(CodeParse, "The reply has unbalanced brackets (a closing bracket with no matching opener). Return %s with valid syntax.", orig.Name)
	}
	if last := lastCodeLine(code, lang); endsMidStatement(last, lang) {
		return reject(CodeTruncated, "The reply ends mid-statement (%q). Return the whole %s, complete.", strings.TrimSpace(last), orig.Name)
	}
	if lang == "python" {
		if n := pythonIndentError(code); n > 0 {
			return reject(CodeParse, "The reply's indentation is inconsistent at line %d (%q). Return %s with consistent indentation.", n, strings.TrimSpace(strings.Split(code, "\n")[n-1]), orig.Name)
		}
	}
	segs := segments(code, lang)
	origSegs := segments(origCode, lang)
	defs, others := 0, []string{}
	var def segment
	for _, s := range segs {
		if s.def {
			defs++
			if defs == 1 {
				def = s
			}
		} else {
			others = append(others, s.first)
		}
	}
	if opts.Parse != nil {
		if out, err := opts.Parse(ctx, orig.Path, []byte(code)); err == nil && len(out.Defs) > 0 && len(out.Defs) != defs && out.Errors == 0 {
			defs = len(out.Defs)
		}
	}
	switch {
	case defs == 0:
		return reject(CodeDefinitions, "The reply has no definition of %s. Return the whole function, including its def/func line.", orig.Name)
	case defs > 1:
		var names []string
		for _, s := range segs {
			if s.def {
				names = append(names, s.name)
			}
		}
		if opts.Extras {
			return reject(CodeDefinitions, "The reply has %d definitions (%s) in one block; return only %s there. A new helper goes in its own block headed `NEW FUNCTION after %s`.", defs, strings.Join(names, ", "), orig.Name, orig.Name)
		}
		return reject(CodeDefinitions, "The reply has %d definitions (%s); return only %s.", defs, strings.Join(names, ", "), orig.Name)
	case len(others) > 0:
		if opts.Extras {
			return reject(CodeDefinitions, "The reply has code outside %s (%q). Return only the function in its block; new imports go in a block headed `IMPORTS`.", orig.Name, strings.TrimSpace(others[0]))
		}
		return reject(CodeDefinitions, "The reply has code outside %s (%q). Return only the function.", orig.Name, strings.TrimSpace(others[0]))
	}
	var origDef segment
	for _, s := range origSegs {
		if s.def {
			origDef = s
			break
		}
	}
	if def.name != orig.Name {
		return reject(CodeName, "The reply renamed %s to %s. Keep the name %s.", orig.Name, def.name, orig.Name)
	}
	if !opts.AllowSignatureChange && origDef.header != "" && normSig(def.header) != normSig(origDef.header) {
		return reject(CodeSignature, "The reply changed the signature of %s from %q to %q. Keep the signature exactly; callers depend on it.", orig.Name, oneLine(origDef.header), oneLine(def.header))
	}
	// Decorators the model dropped are put back: they are not its to remove.
	if len(origDef.decorators) > 0 && len(def.decorators) == 0 {
		code = strings.Join(origDef.decorators, "\n") + "\n" + code
		repairs = append(repairs, "restored decorators")
	}
	// A comment above the header is a doc comment the file already has above
	// the definition's range: keep the file's, do not stack a second one.
	if !isComment(strings.TrimSpace(firstNonBlank(strings.Split(origCode, "\n")))) {
		lines := strings.Split(code, "\n")
		k := 0
		for k < len(lines) && (isComment(strings.TrimSpace(lines[k])) || strings.TrimSpace(lines[k]) == "") {
			k++
		}
		if k > 0 && k < len(lines) {
			code = strings.Join(lines[k:], "\n")
			repairs = append(repairs, "dropped the comment above the definition (the file keeps its own)")
		}
	}
	if normBody(code) == normBody(origCode) && !withExtras {
		return reject(CodeIdentical, "The reply is identical to the original %s: nothing was changed. Make the change the task asks for.", orig.Name)
	}
	on, nn := nonBlank(origCode), nonBlank(code)
	if !opts.AllowShorter && on >= 6 && nn*2 < on && !reasonShorter().MatchString(ex.prose) {
		return reject(CodeShorter, "The reply is far shorter than the original %s (%d lines instead of %d) with no reason given. Return the whole function; if code really should go, say why.", orig.Name, nn, on)
	}

	// Repairs: indentation style, column, line endings.
	if want, ok := detectIndent(origCode); ok {
		if got, ok := detectIndent(code); ok && got != want && !(want.Tabs == got.Tabs && (want.Width == 0 || got.Width == 0)) {
			code = convertIndent(code, got, want)
			if want.Tabs {
				repairs = append(repairs, "converted indentation to tabs")
			} else {
				repairs = append(repairs, fmt.Sprintf("converted indentation to %d spaces", want.Width))
			}
		}
	}
	indent := lineIndent(orig.File, orig.Range.Start)
	out := Reindent([]byte(code), indent)
	out = []byte(strings.TrimPrefix(string(out), indent)) // the splice starts at the column
	if indent != "" && leading(ex.firstLine) != indent {
		repairs = append(repairs, fmt.Sprintf("re-indented to column %d", len(indent)))
	}
	eol := lineEnding(orig.File)
	if strings.Contains(string(orig.Source()), "\r\n") || (eol == "\r\n" && !strings.Contains(string(orig.Source()), "\n")) {
		out = ConvertEOL(out, "\r\n")
		if !ex.crlf {
			repairs = append(repairs, "converted line endings to CRLF")
		}
	}
	if src := orig.Source(); len(src) > 0 && src[len(src)-1] == '\n' {
		out = append(out, []byte(eolOf(src))...)
	}
	file, err := Apply(orig.File, Op{Kind: OpReplace, Range: orig.Range, Text: out})
	if err != nil {
		return reject(CodeParse, "The rewritten %s could not be placed: %v", orig.Name, err)
	}
	if opts.Parse != nil {
		before, err1 := opts.Parse(ctx, orig.Path, orig.File)
		after, err2 := opts.Parse(ctx, orig.Path, file)
		if err1 == nil && err2 == nil && after.Errors > before.Errors {
			return reject(CodeParse, "The rewritten %s does not parse in its file (%d syntax error(s)). Return it with valid syntax and the right indentation.", orig.Name, after.Errors-before.Errors)
		}
	}
	return Verdict{Accept: true, Code: CodeOK, Reason: "accepted", Repairs: repairs, Source: out, File: file,
		Ops: []Op{{Kind: OpReplace, Range: orig.Range, Text: out}}}
}

func eolOf(src []byte) string {
	if strings.HasSuffix(string(src), "\r\n") {
		return "\r\n"
	}
	return "\n"
}

func openWhat(sc scanResult) string {
	if sc.openString {
		return "string or comment"
	}
	return "bracket"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func nonBlank(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// normBody is code with trailing spaces and blank lines dropped, for the
// identity check.
func normBody(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.ReplaceAll(s, "\t", "    "), "\n") {
		l = strings.TrimRight(l, " ")
		if l != "" {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// normSig removes whitespace and trailing commas, so layout changes to a
// signature do not count as changes.
func normSig(s string) string {
	s = strings.Join(strings.Fields(s), "")
	// An arrow function's signature ends at "=>" (a brace-less body may
	// follow), and "n =>" is "(n) =>".
	if i := strings.Index(s, "=>"); i >= 0 {
		s = strings.NewReplacer("(", "", ")", "").Replace(s[:i+2])
	}
	s = strings.ReplaceAll(s, ",)", ")")
	return strings.ReplaceAll(s, ",]", "]")
}

var reasonShorter = lazyRegexp(`(?i)(remov|delet|simplif|redundant|dead code|unused|duplicat|unnecessary|no longer need|shorter|collaps|consolidat|replac)`)

var (
	elisionComment = lazyRegexp(`(?i)^\s*(#|//|/\*|\*|--)\s*(\.\.\.|…)|(\.\.\.|…)\s*(\*/)?\s*$|existing code|rest of (the )?(code|function|method|body|implementation|file|logic)|\bunchanged\b|remains? the same|same as (before|above|original|the original)|\bas before\b|\bomitted\b|code (goes )?here|previous (code|implementation)|original (code|implementation)|other (code|methods|cases) (here|unchanged|as)`)
	elisionProse   = lazyRegexp(`(?i)^\s*(\.\.\.|…)\s*$|^\s*(\.\.\.|…)?\s*\(?(rest|remainder) of .*(unchanged|same|as before|omitted)`)
)

// findElision returns a line that stands for code left out.
func findElision(code, orig string) (string, bool) {
	origLines := map[string]bool{}
	for _, l := range strings.Split(orig, "\n") {
		origLines[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(code, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || origLines[t] {
			continue
		}
		if elisionProse().MatchString(t) {
			return l, true
		}
		if isComment(t) && elisionComment().MatchString(t) {
			return l, true
		}
		// A trailing comment: `x = 1  # ... rest unchanged`.
		if i := strings.Index(t, " # "); i >= 0 && elisionComment().MatchString(t[i+1:]) && !strings.ContainsAny(t[:i], `"'`) {
			return l, true
		}
		if i := strings.Index(t, " // "); i >= 0 && elisionComment().MatchString(t[i+1:]) && !strings.ContainsAny(t[:i], "\"'`") {
			return l, true
		}
	}
	return "", false
}

func isComment(t string) bool {
	for _, p := range []string{"#", "//", "/*", "* ", "--"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == "*" || t == "*/"
}

// lastCodeLine is the last non-blank line that is not a comment.
func lastCodeLine(code, lang string) string {
	lines := strings.Split(code, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" || isComment(t) {
			continue
		}
		return lines[i]
	}
	return ""
}

// endsMidStatement reports whether line cannot be the last line of a definition.
func endsMidStatement(line, lang string) bool {
	t := strings.TrimSpace(line)
	if isPythonLike(lang) {
		if i := strings.Index(t, " #"); i >= 0 && !strings.ContainsAny(t[:i], `"'`) {
			t = strings.TrimSpace(t[:i])
		}
	}
	for _, ok := range []string{"--", "++", "*/", "...", "…"} {
		if strings.HasSuffix(t, ok) {
			return false
		}
	}
	for _, suf := range []string{",", "(", "[", "{", `\`, "+", "-", "*", "/", "=", ".", "&&", "||", " and", " or", " not", "->", ":=", "%"} {
		if strings.HasSuffix(t, suf) {
			return true
		}
	}
	return isPythonLike(lang) && strings.HasSuffix(t, ":") // a block opener with no body
}
