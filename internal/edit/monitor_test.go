package edit

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/span"
)

func corpusCase(t *testing.T, name string) Case {
	t.Helper()
	cases, err := Corpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if strings.HasSuffix(c.Name, name) {
			return c
		}
	}
	t.Fatalf("no corpus case %s", name)
	return Case{}
}

// TestCheckRepairs checks the bytes an accepted reply turns into.
func TestCheckRepairs(t *testing.T) {
	tests := []struct {
		name    string
		want    []string // substrings of the spliced file
		repairs []string
	}{
		{"method-col0", []string{"\n    def merge_headers(self, extra, override=True):\n        merged = {k.lower()", "\n        return merged\n\n    def copy"}, []string{"stripped markdown fence", "re-indented to column 4"}},
		{"method-col8", []string{"\n    def merge_headers(self, extra, override=True):\n        merged = {k.lower()"}, []string{"re-indented to column 4"}},
		{"go-spaces", []string{"func Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n"}, []string{"converted indentation to tabs"}},
		{"py-tabs", []string{"    for item in items:\n        subtotal += item.price"}, []string{"converted indentation to 4 spaces"}},
		{"py-crlf-file", []string{"def total(items, discount=0):\r\n    \"\"\"Sum", "discount = min(discount, 50)\r\n"}, []string{"converted line endings to CRLF"}},
		{"py-crlf-reply", []string{"discount = min(discount, 50)\n    if"}, nil},
		{"unicode-crlf", []string{"    name = (name or \"\").strip()\r\n    if not name:\r\n", "# 名前 — the caller's name, may be padded 👀\r\n"}, nil},
		{"go-doc-comment", []string{"// Clamp limits v to [lo, hi] — inclusive.\nfunc Clamp"}, nil},
	}
	for _, tt := range tests {
		c := corpusCase(t, tt.name)
		v := Check(context.Background(), c.Orig, c.Reply, CheckOptions{})
		if !v.Accept {
			t.Errorf("%s: Check rejected (%s: %s)", tt.name, v.Code, v.Reason)
			continue
		}
		for _, w := range tt.want {
			if !bytes.Contains(v.File, []byte(w)) {
				t.Errorf("%s: spliced file lacks %q:\n%s", tt.name, w, v.File)
			}
		}
		for _, r := range tt.repairs {
			found := false
			for _, got := range v.Repairs {
				found = found || got == r
			}
			if !found {
				t.Errorf("%s: Repairs = %q, want it to include %q", tt.name, v.Repairs, r)
			}
		}
		// Bytes outside the range are untouched.
		f := c.Orig.File
		if !bytes.HasPrefix(v.File, f[:c.Orig.Range.Start]) || !bytes.HasSuffix(v.File, f[c.Orig.Range.End:]) {
			t.Errorf("%s: bytes outside the definition changed", tt.name)
		}
		if bytes.Contains(f, []byte("\r\n")) && bytes.Count(v.File, []byte("\n")) != bytes.Count(v.File, []byte("\r\n")) {
			t.Errorf("%s: a CRLF file got bare LF line endings:\n%q", tt.name, v.File)
		}
	}
}

// TestCheckDocCommentNotDuplicated: the doc comment above a Go func is
// outside its range; a reply that repeats it must not duplicate it.
func TestCheckDocCommentNotDuplicated(t *testing.T) {
	c := corpusCase(t, "go-doc-comment")
	v := Check(context.Background(), c.Orig, c.Reply, CheckOptions{})
	if n := bytes.Count(v.File, []byte("// Clamp limits")); n != 1 {
		t.Errorf("doc comment appears %d times in:\n%s", n, v.File)
	}
}

func TestCheckParseCallback(t *testing.T) {
	c := corpusCase(t, "py-fenced")
	calls := 0
	parse := func(ctx context.Context, path string, src []byte) (Outline, error) {
		calls++
		if bytes.Contains(src, []byte("min(discount, 50)")) && bytes.Contains(src, []byte("TAX = 0.2")) {
			return Outline{Errors: 2}, nil // pretend the spliced file is broken
		}
		return Outline{Defs: []OutlineDef{{Name: "total", Kind: "function"}}}, nil
	}
	v := Check(context.Background(), c.Orig, c.Reply, CheckOptions{Parse: parse})
	if v.Accept || v.Code != CodeParse {
		t.Errorf("Check with a parser reporting errors = %s (%s), want %s", v.Code, v.Reason, CodeParse)
	}
	if calls == 0 {
		t.Errorf("the parse callback was never called")
	}
}

// TestCheckAllmanBraces accepts a Java method whose body's brace is on a
// line of its own and whose throws clause is on the next line (the gold
// rewrite of jackson-core-183's TextBuffer.getTextBuffer was refused as
// "code outside" before).
func TestCheckAllmanBraces(t *testing.T) {
	file := "class TextBuffer {\n    public char[] getTextBuffer()\n        throws IOException\n    {\n        return _inputBuffer;\n    }\n}\n"
	start := strings.Index(file, "public")
	end := strings.Index(file, "    }\n}") + len("    }")
	orig := Original{Path: "TextBuffer.java", Lang: "java", Name: "getTextBuffer", File: []byte(file), Range: span.Range{Start: start, End: end}}
	reply := "```java\npublic char[] getTextBuffer()\n    throws IOException\n{\n    if (_inputStart >= 0) return _inputBuffer;\n    return contentsAsArray();\n}\n```"
	v := Check(context.Background(), orig, reply, CheckOptions{})
	if !v.Accept {
		t.Fatalf("Check rejected (%s: %s)", v.Code, v.Reason)
	}
	if !bytes.Contains(v.File, []byte("    {\n        if (_inputStart >= 0) return _inputBuffer;\n")) {
		t.Errorf("spliced file:\n%s", v.File)
	}
}

// TestCheckJSVarFunction accepts a function bound to a variable in the shape
// the index's range gives it, without the const keyword (dayjs-882's gold
// rewrite of `dayjs = function (date, c) {` was refused as having no
// definition before).
func TestCheckJSVarFunction(t *testing.T) {
	file := "const dayjs = function (date, c) {\n  return new Dayjs(date)\n}\n\nexport default dayjs\n"
	start := strings.Index(file, "dayjs =")
	end := strings.Index(file, "}\n") + 1
	orig := Original{Path: "src/index.js", Lang: "javascript", Name: "dayjs", File: []byte(file), Range: span.Range{Start: start, End: end}}
	reply := "```javascript\ndayjs = function (date, c) {\n  if (isDayjs(date)) {\n    return date.clone()\n  }\n  return new Dayjs(date)\n}\n```"
	v := Check(context.Background(), orig, reply, CheckOptions{})
	if !v.Accept {
		t.Fatalf("Check rejected (%s: %s)", v.Code, v.Reason)
	}
	if !bytes.HasPrefix(v.File, []byte("const dayjs = function (date, c) {\n  if (isDayjs(date)) {")) {
		t.Errorf("spliced file:\n%s", v.File)
	}
}
