package edit

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/grit-dev/grit/internal/span"
)

// Extra block kinds: what a reply may carry besides the rewritten definition
// when CheckOptions.Extras is set. Each is announced by a header line of its
// own, followed by one fenced code block:
//
//	NEW FUNCTION after <name>
//	```python
//	def helper(...): ...
//	```
//	IMPORTS
//	```python
//	import unicodedata
//	```
const (
	ExtraFunction = "new_function" // one new definition, inserted after a named one
	ExtraImports  = "imports"      // import lines, placed with the file's imports
)

// Extra is one checked extra block: the step it adds to the edit.
type Extra struct {
	Kind  string   `json:"kind"`
	Name  string   `json:"name,omitempty"`  // ExtraFunction: the new definition's name
	After string   `json:"after,omitempty"` // ExtraFunction: the definition it follows
	Lines []string `json:"lines,omitempty"` // ExtraImports: the import lines added
	code  string
}

// Neighbor is a definition in the same scope as the one being rewritten (the
// same class, or the top level): a NEW FUNCTION may follow it and may not take
// its name.
type Neighbor struct {
	Name  string
	Range span.Range // its bytes in Original.File; an empty range cannot be an anchor
}

// extraHeader matches a header line, allowing markdown decoration
// ("### NEW FUNCTION after `total`:", "**IMPORTS**").
var extraHeader = lazyRegexp("^[#*>\\s]*(NEW FUNCTION|IMPORTS)(?:\\s+after\\s+`?([\\w.$:]+?)(?:\\(\\))?`?)?\\s*:?[*\\s]*:?\\s*$")

// splitExtras cuts the extra blocks out of reply: each header line outside
// a fence and the fenced block that follows it (or, with no fence, the lines
// up to the next header). main is the rest, where the rewritten definition is.
func splitExtras(reply string) (main string, extras []Extra) {
	lines := strings.Split(reply, "\n")
	var keep []string
	inFence := false
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		isFence := strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
		if inFence {
			keep = append(keep, lines[i])
			if isFence && strings.Trim(t, "`~") == "" {
				inFence = false
			}
			continue
		}
		m := extraHeader().FindStringSubmatch(lines[i])
		if m == nil {
			if isFence {
				inFence = true
			}
			keep = append(keep, lines[i])
			continue
		}
		ex := Extra{Kind: ExtraImports}
		if m[1] == "NEW FUNCTION" {
			ex.Kind, ex.After = ExtraFunction, m[2]
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		var body []string
		if j < len(lines) && (strings.HasPrefix(strings.TrimSpace(lines[j]), "```") || strings.HasPrefix(strings.TrimSpace(lines[j]), "~~~")) {
			for j++; j < len(lines); j++ {
				if t := strings.TrimSpace(lines[j]); (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) && strings.Trim(t, "`~") == "" {
					j++
					break
				}
				body = append(body, lines[j])
			}
		} else {
			for ; j < len(lines) && !extraHeader().MatchString(lines[j]); j++ {
				body = append(body, lines[j])
			}
		}
		ex.code = strings.Join(body, "\n")
		extras = append(extras, ex)
		i = j - 1
	}
	return strings.Join(keep, "\n"), extras
}

// checkExtras checks each extra block on its own and turns it into an op on
// orig.File. main is the verdict of the rewritten definition (accepted). It
// returns the extras as recorded, the ops, repairs, and a rejection if any.
func checkExtras(orig Original, extras []Extra, opts CheckOptions) ([]Extra, []Op, []string, *Verdict) {
	var ops []Op
	var repairs []string
	var out []Extra
	taken := map[string]bool{orig.Name: true}
	anchors := map[string]span.Range{orig.Name: orig.Range}
	neighbors := opts.Neighbors
	if neighbors == nil && lineIndent(orig.File, orig.Range.Start) == "" {
		neighbors = topLevelDefs(orig.File, orig.Lang)
	}
	var names []string
	for _, n := range neighbors {
		taken[n.Name] = true
		if n.Range.Len() > 0 && n.Range.Valid(len(orig.File)) {
			if _, ok := anchors[n.Name]; !ok {
				anchors[n.Name] = n.Range
				names = append(names, n.Name)
			}
		}
	}
	for _, ex := range extras {
		switch ex.Kind {
		case ExtraFunction:
			ex2, op, v := checkNewFunction(orig, ex, taken, anchors, names)
			if v != nil {
				return nil, nil, nil, v
			}
			taken[ex2.Name] = true
			ops = append(ops, op)
			out = append(out, ex2)
		case ExtraImports:
			ex2, op, dropped, v := checkImports(orig, ex)
			if v != nil {
				return nil, nil, nil, v
			}
			if dropped > 0 {
				repairs = append(repairs, fmt.Sprintf("dropped %d import line(s) the file already has", dropped))
			}
			if len(ex2.Lines) == 0 {
				continue
			}
			ops = append(ops, op)
			out = append(out, ex2)
		}
	}
	return out, ops, repairs, nil
}

func checkNewFunction(orig Original, ex Extra, taken map[string]bool, anchors map[string]span.Range, names []string) (Extra, Op, *Verdict) {
	lang := orig.Lang
	after := ex.After
	if i := strings.LastIndexAny(after, ".:"); i >= 0 {
		after = after[i+1:] // "Session.get" → "get"
	}
	fail := func(code, format string, args ...any) (Extra, Op, *Verdict) {
		v := reject(code, "NEW FUNCTION block: "+format, args...)
		return ex, Op{}, &v
	}
	code := strings.TrimRight(string(Dedent([]byte(strings.ReplaceAll(ex.code, "\r\n", "\n")))), " \t\n")
	code = strings.TrimLeft(code, "\n")
	if strings.TrimSpace(code) == "" {
		return fail(CodeDefinitions, "it is empty. Put the whole new function in a code block right after the header line.")
	}
	// A comment the file already has (moved into the helper) is not a
	// placeholder.
	if line, ok := findElision(code, string(orig.File)); ok {
		return fail(CodeElision, "it leaves code out (%q). Write out the whole new function.", strings.TrimSpace(line))
	}
	sc := scanCode(code, lang)
	if sc.openString || sc.unclosed > 0 {
		return fail(CodeTruncated, "it ends inside an open %s. Return the new function complete.", openWhat(sc))
	}
	if sc.stray {
		return fail(CodeParse, "it has unbalanced brackets. Return the new function with valid syntax.")
	}
	if last := lastCodeLine(code, lang); endsMidStatement(last, lang) {
		return fail(CodeTruncated, "it ends mid-statement (%q). Return the new function complete.", strings.TrimSpace(last))
	}
	if lang == "python" {
		if n := pythonIndentError(code); n > 0 {
			return fail(CodeParse, "its indentation is inconsistent at line %d. Return it with consistent indentation.", n)
		}
	}
	var defs []segment
	var others []string
	for _, s := range segments(code, lang) {
		if s.def {
			defs = append(defs, s)
		} else {
			others = append(others, s.first)
		}
	}
	switch {
	case len(defs) != 1:
		return fail(CodeDefinitions, "it has %d definitions; it must hold exactly one new function (one block per new function).", len(defs))
	case len(others) > 0:
		return fail(CodeDefinitions, "it has code outside the function (%q). Imports go in an IMPORTS block; nothing else may change.", strings.TrimSpace(others[0]))
	}
	ex.Name = defs[0].name
	// Where overloads are the language's own, a taken name is one more
	// overload, unless the file has this very definition already.
	// The index labels a C++ header named .h "c": its C++ shows in the file.
	cpp := overloads[lang] || (lang == "c" && cppSyntax().Match(orig.File))
	overload := cpp && !strings.Contains(string(Dedent(orig.File)), code)
	if taken[ex.Name] && !overload {
		return fail(CodeCollision, "%s already exists in %s. Give the new function a name that is not taken, or use the existing %s as it is.", ex.Name, orig.Path, ex.Name)
	}
	r, ok := anchors[after]
	if !ok || after == "" {
		valid := append([]string{orig.Name}, names...)
		return fail(CodeAnchor, "there is no definition %q next to %s to put it after. Write the header as `NEW FUNCTION after NAME` with NAME one of: %s.", ex.After, orig.Name, strings.Join(valid, ", "))
	}
	ex.After = after
	// The new function takes the style of the file around it.
	origCode := string(Dedent([]byte(lineIndent(orig.File, orig.Range.Start) + strings.ReplaceAll(string(orig.Source()), "\r\n", "\n"))))
	if want, ok := detectIndent(origCode); ok {
		if got, ok := detectIndent(code); ok && got != want && !(want.Tabs == got.Tabs && (want.Width == 0 || got.Width == 0)) {
			code = convertIndent(code, got, want)
		}
	}
	ex.code = code
	return ex, Op{Kind: OpInsertAfter, Range: r, Text: []byte(code)}, nil
}

var (
	pyImport   = lazyRegexp(`^(import\s+[\w.]+(\s+as\s+\w+)?(\s*,\s*[\w.]+(\s+as\s+\w+)?)*|from\s+\.*[\w.]*\s+import\s+(\(?\s*[\w*]+(\s+as\s+\w+)?(\s*,\s*\w+(\s+as\s+\w+)?)*\s*,?\s*\)?))\s*(#.*)?$`)
	goImport   = lazyRegexp("^(import\\s+)?((?:[\\w.]+\\s+)?(\"[^\"]+\"|`[^`]+`))\\s*(//.*)?$")
	jsImport   = lazyRegexp(`^(import\s+(.+\s+from\s+)?['"][^'"]+['"]|(const|let|var)\s+.+=\s*require\(\s*['"][^'"]+['"]\s*\))\s*;?\s*(//.*)?$`)
	rustImport = lazyRegexp(`^(pub\s+)?use\s+[^;]+;\s*(//.*)?$`)
	javaImport = lazyRegexp(`^import\s+(static\s+)?[\w.]+(\.\*)?\s*;\s*(//.*)?$`)
	cInclude   = lazyRegexp(`^#\s*include\s*(<[^>]+>|"[^"]+")\s*(//.*|/\*.*\*/)?$`)
)

// overloads are the languages where one name may hold several functions.
var overloads = map[string]bool{"cpp": true, "java": true, "csharp": true, "kotlin": true, "swift": true, "scala": true}

// cppSyntax is what only C++ writes: templates, namespaces, scope operators.
var cppSyntax = lazyRegexp(`(?m)^\s*(template\s*<|namespace\s+\w+|class\s+\w+\s*[:{])|\w::\w`)

// importLanguages names the languages IMPORTS blocks work for.
const importLanguages = "python, go, javascript, typescript, rust, java, c, c++"

// checkImports keeps an IMPORTS block's lines if every one is an import
// statement of the file's language, drops those the file already has, and
// places the rest with the file's imports.
func checkImports(orig Original, ex Extra) (Extra, Op, int, *Verdict) {
	fail := func(code, format string, args ...any) (Extra, Op, int, *Verdict) {
		v := reject(code, "IMPORTS block: "+format, args...)
		return ex, Op{}, 0, &v
	}
	var re *regexp.Regexp
	switch orig.Lang {
	case "python":
		re = pyImport()
	case "go":
		re = goImport()
	case "javascript", "typescript", "tsx", "jsx":
		re = jsImport()
	case "rust":
		re = rustImport()
	case "java":
		re = javaImport()
	case "c", "cpp":
		re = cInclude()
	default:
		return fail(CodeImports, "adding imports is not supported for %s (only %s). Rewrite %s without a new import.", orig.Lang, importLanguages, orig.Name)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(strings.ReplaceAll(string(orig.File), "\r\n", "\n"), "\n") {
		have[normImport(orig.Lang, l)] = true
	}
	var lines []string
	dropped := 0
	for _, l := range strings.Split(strings.ReplaceAll(ex.code, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || (orig.Lang == "go" && (t == "import (" || t == ")")) {
			continue
		}
		if !re.MatchString(t) {
			return fail(CodeImports, "%q is not an import line. The block may hold import lines only; everything else belongs in %s or a NEW FUNCTION block.", t, orig.Name)
		}
		n := normImport(orig.Lang, t)
		if have[n] {
			dropped++
			continue
		}
		have[n] = true
		lines = append(lines, n)
	}
	if len(lines) == 0 && dropped == 0 {
		return fail(CodeImports, "it is empty. Put the import lines in a code block right after the header, or leave the block out.")
	}
	ex.Lines = lines
	if len(lines) == 0 {
		return ex, Op{}, dropped, nil
	}
	op := importOp(orig.File, orig.Lang, lines)
	return ex, op, dropped, nil
}

// normImport is an import line in the form it is written into the file: Go
// import specs without the keyword and comments, others trimmed.
func normImport(lang, line string) string {
	t := strings.TrimSpace(line)
	if lang == "go" {
		if m := goImport().FindStringSubmatch(t); m != nil {
			return strings.Join(strings.Fields(m[2]), " ")
		}
	}
	return t
}

// importOp places import lines (already normalised) in src: after the last
// top-level import statement, or, when there is none, after what must come
// first (a Go package clause; a Python docstring, comments and __future__
// imports; leading comments elsewhere).
//
// long: one case per language's import syntax, side by side to compare.
func importOp(src []byte, lang string, lines []string) Op {
	eol := lineEnding(src)
	text := string(src)
	all := strings.Split(text, "\n")
	sc := scanCode(strings.ReplaceAll(text, "\r\n", "\n"), lang)
	offs := make([]int, len(all)+1) // offs[i]: byte offset of line i
	for i, l := range all {
		offs[i+1] = offs[i] + len(l) + 1
	}
	at := func(i int) int { return min(offs[i], len(src)) }
	topLevel := func(i int) (string, bool) {
		if i >= len(sc.lines) || sc.lines[i].depth > 0 || sc.lines[i].inString {
			return "", false
		}
		l := strings.TrimRight(all[i], "\r")
		return l, leading(l) == ""
	}
	// stmtEnd is the line after the statement starting at line i (brackets closed).
	stmtEnd := func(i int) int {
		j := i + 1
		for j < len(sc.lines) && (sc.lines[j].depth > 0 || sc.lines[j].inString) {
			j++
		}
		return j
	}
	join := func(prefix string) string {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(prefix + l + eol)
		}
		return b.String()
	}
	insertAt := func(off int, s string) Op {
		if off == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
			s = eol + s
		}
		return Op{Kind: OpInsertAt, Range: span.Range{Start: off, End: off}, Text: []byte(s)}
	}
	switch lang {
	case "go":
		pkg, block, last := -1, -1, -1
		for i := range all {
			l, ok := topLevel(i)
			if !ok {
				continue
			}
			switch {
			case strings.HasPrefix(l, "package "):
				pkg = i
			case strings.HasPrefix(l, "import (") || strings.HasPrefix(l, "import("):
				block = i
			case strings.HasPrefix(l, "import "):
				last = i
			}
		}
		if block >= 0 {
			end := stmtEnd(block) - 1 // the line holding ")"
			if end > block {
				return insertAt(at(end), join("\t"))
			}
		}
		if last >= 0 {
			return insertAt(at(last+1), join("import "))
		}
		if pkg >= 0 {
			return insertAt(at(pkg+1), eol+join("import "))
		}
		return insertAt(0, join("import ")+eol)
	case "python":
		last, head, started := -1, 0, false
		for i := 0; i < len(all); i++ {
			l, ok := topLevel(i)
			if !ok {
				continue
			}
			t := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "from ") && strings.Contains(l, " import"):
				last = stmtEnd(i) - 1
				i = last
			case started || t == "":
			case strings.HasPrefix(t, "#"):
				head = i + 1 // a shebang, an encoding line, a licence comment
			case strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, `'''`) || strings.HasPrefix(t, `r"""`):
				head = stmtEnd(i) // the module docstring
				i = head - 1
				started = true
			default:
				started = true
			}
		}
		if last >= 0 {
			return insertAt(at(last+1), join(""))
		}
		if head > 0 {
			return insertAt(at(head), eol+join(""))
		}
		return insertAt(0, join("")+eol)
	default: // javascript, typescript, rust, java, c, c++
		last := -1
		for i := range all {
			l, ok := topLevel(i)
			if !ok {
				continue
			}
			if strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "use ") || strings.HasPrefix(l, "pub use ") || cInclude().MatchString(l) || jsImport().MatchString(strings.TrimSpace(l)) {
				last = stmtEnd(i) - 1
			}
		}
		if last >= 0 {
			return insertAt(at(last+1), join(""))
		}
		if lang == "java" {
			for i := range all {
				if l, ok := topLevel(i); ok && strings.HasPrefix(l, "package ") {
					return insertAt(at(stmtEnd(i)), eol+join("")) // imports follow the package clause
				}
			}
		}
		return insertAt(0, join("")+eol)
	}
}

// topLevelDefs finds the column-0 definitions of src lexically: the fallback
// for Neighbors when the caller has no index.
func topLevelDefs(src []byte, lang string) []Neighbor {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	crlf := len(text) != len(src)
	lines := strings.Split(text, "\n")
	sc := scanCode(text, lang)
	offs := make([]int, len(lines)+1)
	for i, l := range lines {
		n := len(l) + 1
		if crlf && i < len(lines)-1 {
			n++
		}
		offs[i+1] = offs[i] + n
	}
	var out []Neighbor
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if sc.lines[i].depth > 0 || sc.lines[i].inString || leading(l) != "" || strings.TrimSpace(l) == "" {
			continue
		}
		name := nameOf(strings.TrimSpace(l), lang)
		if name == "" {
			continue
		}
		start := i
		for start > 0 && strings.HasPrefix(strings.TrimSpace(lines[start-1]), "@") {
			start--
		}
		end := defEnd(lines, i, lang)
		for end > i+1 && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		endOff := offs[end-1] + len(lines[end-1])
		out = append(out, Neighbor{Name: name, Range: span.Range{Start: offs[start], End: min(endOff, len(src))}})
		i = end - 1
	}
	return out
}

// applyExtras adds the extra blocks' ops to an accepted verdict of the
// rewritten definition and re-checks the whole file with the parser.
func applyExtras(ctx context.Context, orig Original, v Verdict, extras []Extra, opts CheckOptions) Verdict {
	exs, ops, repairs, rej := checkExtras(orig, extras, opts)
	if rej != nil {
		return *rej
	}
	if len(ops) == 0 {
		v.Repairs = append(v.Repairs, repairs...)
		return v
	}
	all := append(append([]Op{}, v.Ops...), ops...)
	file, err := Apply(orig.File, all...)
	if err != nil {
		return reject(CodeParse, "The extra blocks could not be placed next to %s: %v. Put new functions after %s.", orig.Name, err, orig.Name)
	}
	if opts.Parse != nil {
		before, err1 := opts.Parse(ctx, orig.Path, orig.File)
		after, err2 := opts.Parse(ctx, orig.Path, file)
		if err1 == nil && err2 == nil && after.Errors > before.Errors {
			return reject(CodeParse, "With the extra blocks added, %s does not parse (%d syntax error(s)). Return every block with valid syntax.", orig.Path, after.Errors-before.Errors)
		}
	}
	v.Ops, v.File, v.Extras = all, file, exs
	v.Repairs = append(v.Repairs, repairs...)
	return v
}
