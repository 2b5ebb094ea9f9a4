package edit

import (
	"context"
	"strings"
)

// CheckRegion decides whether reply is an acceptable rewrite of orig.Range
// taken as a region: whole lines of a file outside any function (imports,
// module constants, class fields, struct members), shown to the model as
// they stand and given back whole. The region keeps the file's indentation,
// so the reply is placed as written, re-indented only when the model
// dropped the region's common indentation. Like Check it never writes.
func CheckRegion(ctx context.Context, orig Original, reply string, opts CheckOptions) Verdict {
	name := "the lines shown"
	if strings.TrimSpace(reply) == "" {
		return reject(CodeEmpty, "The reply was empty. Return %s rewritten, whole, in one code block.", name)
	}
	if opts.StopReason == "max_tokens" {
		return reject(CodeTruncated, "The reply was cut off (the token limit was reached). Return %s again, complete.", name)
	}
	code, blocks, fenced := regionCode(strings.ReplaceAll(reply, "\r\n", "\n"))
	if blocks > 1 {
		return reject(CodeDefinitions, "The reply has %d code blocks. Return %s in exactly one code block.", blocks, name)
	}
	if strings.TrimSpace(code) == "" {
		return reject(CodeProse, "The reply has no code. Return %s rewritten in one code block.", name)
	}
	var repairs []string
	if fenced {
		repairs = append(repairs, "stripped markdown fence")
	}
	origText := strings.ReplaceAll(string(orig.Source()), "\r\n", "\n")
	code = strings.TrimRight(code, " \t\n")
	if line, ok := findElision(code, origText); ok {
		return reject(CodeElision, "The reply leaves code out (%q). Write out every line of %s, changed or not, with no placeholders.", strings.TrimSpace(line), name)
	}
	if strings.TrimRight(code, "\n") == strings.TrimRight(origText, "\n") || normBody(code) == normBody(origText) {
		return reject(CodeIdentical, "The reply is identical to %s: nothing was changed. Make the change the task asks for, or reply NO CHANGE.", name)
	}
	// The model may return the lines dedented: put the region's own
	// indentation back (its first line's, which the shown text starts with).
	if want, got := commonIndent(origText), commonIndent(code); len(got) < len(want) {
		code = string(Reindent([]byte(code), want))
		repairs = append(repairs, "re-indented to the region's column")
	}
	out := []byte(code)
	if strings.Contains(string(orig.Source()), "\r\n") || lineEnding(orig.File) == "\r\n" {
		out = ConvertEOL(out, "\r\n")
	}
	if src := orig.Source(); len(src) > 0 && src[len(src)-1] == '\n' {
		out = append(out, []byte(eolOf(src))...)
	}
	op := Op{Kind: OpReplace, Range: orig.Range, Text: out}
	file, err := Apply(orig.File, op)
	if err != nil {
		return reject(CodeParse, "The rewritten lines could not be placed: %v", err)
	}
	if v, ok := regionSyntax(ctx, orig, file, opts); !ok {
		return v
	}
	return Verdict{Accept: true, Code: CodeOK, Reason: "accepted", Repairs: repairs, Source: out, File: file, Ops: []Op{op}}
}

// regionSyntax rejects a splice that makes the file worse: more parser
// errors, or (with no parser) brackets that no longer balance.
func regionSyntax(ctx context.Context, orig Original, file []byte, opts CheckOptions) (Verdict, bool) {
	if opts.Parse != nil {
		before, err1 := opts.Parse(ctx, orig.Path, orig.File)
		after, err2 := opts.Parse(ctx, orig.Path, file)
		if err1 == nil && err2 == nil && after.Errors > before.Errors {
			return reject(CodeParse, "With the rewritten lines in place, %s does not parse (%d syntax error(s)). Return them with valid syntax and the file's indentation.", orig.Path, after.Errors-before.Errors), false
		}
		if err1 == nil && err2 == nil {
			return Verdict{}, true
		}
	}
	b := scanCode(strings.ReplaceAll(string(orig.File), "\r\n", "\n"), orig.Lang)
	a := scanCode(strings.ReplaceAll(string(file), "\r\n", "\n"), orig.Lang)
	if a.unclosed != b.unclosed || (a.stray && !b.stray) || (a.openString && !b.openString) {
		return reject(CodeParse, "The rewritten lines leave the file's brackets or strings unbalanced. Return them with every bracket the original lines open or close."), false
	}
	return Verdict{}, true
}

// regionCode is the reply's code: the one fenced block, or the whole reply
// when it has none. blocks counts the fenced blocks.
func regionCode(reply string) (code string, blocks int, fenced bool) {
	lines := strings.Split(reply, "\n")
	var body []string
	in, marker := false, ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case !in && fenceOpen().MatchString(t):
			in, marker = true, t[:3]
			blocks++
		case in && t == marker:
			// Only the opener's own marker closes: a "~~~~~~" underline in
			// a docstring is code.
			in = false
		case in && blocks == 1:
			body = append(body, l)
		}
	}
	if blocks == 0 {
		return strings.Trim(reply, "\n"), 0, false
	}
	return strings.Join(body, "\n"), blocks, true
}

// fenceOpen is a markdown fence's opening line: three backticks or
// tildes, then at most a language tag.
var fenceOpen = lazyRegexp("^(```|~~~)[\\w+#.-]*$")

// commonIndent is the whitespace every non-blank line of s starts with.
func commonIndent(s string) string {
	prefix, first := "", true
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := leading(l)
		if first {
			prefix, first = ind, false
			continue
		}
		for !strings.HasPrefix(ind, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return prefix
}
