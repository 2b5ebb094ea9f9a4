package edit

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/span"
)

const slugFile = `"""Slugs — for titles like "Crème brûlée" 😀."""
import re


def slugify(title):
    """Lower-case words joined by dashes."""
    words = re.findall(r"\w+", title.lower())
    return "-".join(words)


def count(items):
    return len(items)
`

const slugMain = "```python\ndef slugify(title):\n    \"\"\"Lower-case words joined by dashes.\"\"\"\n    words = re.findall(r\"\\w+\", strip_accents(title).lower())\n    return \"-\".join(words)\n```\n"

const slugHelper = "```python\ndef strip_accents(text):\n    \"\"\"Crème → Creme.\"\"\"\n    norm = unicodedata.normalize(\"NFKD\", text)\n    return \"\".join(c for c in norm if not unicodedata.combining(c))\n```\n"

func slugOrig(file string) Original {
	src := []byte(file)
	start := bytes.Index(src, []byte("def slugify"))
	end := bytes.Index(src, []byte("join(words)")) + len("join(words)")
	return Original{Path: "slug.py", Lang: "python", Name: "slugify", File: src, Range: span.Range{Start: start, End: end}}
}

func TestCheckExtrasAccepted(t *testing.T) {
	reply := slugMain + "\nNEW FUNCTION after slugify\n" + slugHelper + "\n### IMPORTS:\n```python\nimport unicodedata\nimport re\n```\nThe helper strips accents."
	want := `"""Slugs — for titles like "Crème brûlée" 😀."""
import re
import unicodedata


def slugify(title):
    """Lower-case words joined by dashes."""
    words = re.findall(r"\w+", strip_accents(title).lower())
    return "-".join(words)


def strip_accents(text):
    """Crème → Creme."""
    norm = unicodedata.normalize("NFKD", text)
    return "".join(c for c in norm if not unicodedata.combining(c))


def count(items):
    return len(items)
`
	for _, crlf := range []bool{false, true} {
		file, wantFile := slugFile, want
		if crlf {
			file, wantFile = toCRLF(file), toCRLF(want)
		}
		v := Check(context.Background(), slugOrig(file), reply, CheckOptions{Extras: true})
		if !v.Accept {
			t.Fatalf("crlf=%v: Check = %s (%s), want ok", crlf, v.Code, v.Reason)
		}
		if d := cmp.Diff(wantFile, string(v.File)); d != "" {
			t.Errorf("crlf=%v: file after the edit (-want +got):\n%s", crlf, d)
		}
		wantExtras := []Extra{{Kind: ExtraFunction, Name: "strip_accents", After: "slugify"}, {Kind: ExtraImports, Lines: []string{"import unicodedata"}}}
		if d := cmp.Diff(wantExtras, v.Extras, cmp.AllowUnexported(Extra{}), cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".code" }, cmp.Ignore())); d != "" {
			t.Errorf("crlf=%v: Extras (-want +got):\n%s", crlf, d)
		}
		if len(v.Ops) != 3 || v.Ops[0].Kind != OpReplace {
			t.Errorf("crlf=%v: Ops = %d, want the replace and two more", crlf, len(v.Ops))
		}
		// The ops applied by ApplyFile give the same bytes.
		if got, err := Apply([]byte(file), v.Ops...); err != nil || !bytes.Equal(got, v.File) {
			t.Errorf("crlf=%v: Apply(ops) differs from Verdict.File (err %v)", crlf, err)
		}
		if !strings.Contains(strings.Join(v.Repairs, ";"), "dropped 1 import line(s) the file already has") {
			t.Errorf("crlf=%v: Repairs = %q, want the dropped import", crlf, v.Repairs)
		}
	}
}

func TestCheckExtrasRejected(t *testing.T) {
	helper := func(code string) string { return "NEW FUNCTION after slugify\n```python\n" + code + "\n```\n" }
	tests := []struct {
		name, reply string
		opts        CheckOptions
		code        string
		reason      string
	}{
		{"extras not allowed", slugMain + helper("def strip_accents(text):\n    return text"), CheckOptions{}, CodeDefinitions, "NEW FUNCTION blocks"},
		{"name taken", slugMain + helper("def count(items):\n    return 0"), CheckOptions{Extras: true}, CodeCollision, "count already exists in slug.py"},
		{"same name as the rewritten one", slugMain + helper("def slugify(t):\n    return t"), CheckOptions{Extras: true}, CodeCollision, "slugify already exists"},
		{"two definitions", slugMain + helper("def a(x):\n    return x\n\ndef b(x):\n    return x"), CheckOptions{Extras: true}, CodeDefinitions, "2 definitions"},
		{"module code in the helper", slugMain + helper("import unicodedata\n\ndef strip_accents(text):\n    return text"), CheckOptions{Extras: true}, CodeDefinitions, "IMPORTS block"},
		{"unknown anchor", slugMain + "NEW FUNCTION after normalize\n```python\ndef strip_accents(text):\n    return text\n```", CheckOptions{Extras: true}, CodeAnchor, "one of: slugify, count"},
		{"elided helper", slugMain + helper("def strip_accents(text):\n    # ... same as before ..."), CheckOptions{Extras: true}, CodeElision, "NEW FUNCTION block"},
		{"truncated helper", slugMain + helper("def strip_accents(text):\n    return \"\".join(c for c in text if"), CheckOptions{Extras: true}, CodeTruncated, "NEW FUNCTION block"},
		{"code in imports", slugMain + "IMPORTS\n```python\nimport unicodedata\nTABLE = {}\n```", CheckOptions{Extras: true}, CodeImports, `"TABLE = {}" is not an import line`},
		{"empty imports", slugMain + "IMPORTS\n```python\n```", CheckOptions{Extras: true}, CodeImports, "empty"},
		{"bad main still rejected first", "```python\ndef slugify(title):\n    # ... existing code ...\n```\n" + helper("def strip_accents(text):\n    return text"), CheckOptions{Extras: true}, CodeElision, "leaves code out"},
		{"helper in the main block", "```python\ndef strip_accents(text):\n    return text\n\n\ndef slugify(title):\n    return strip_accents(title)\n```", CheckOptions{Extras: true}, CodeDefinitions, "NEW FUNCTION after slugify"},
	}
	for _, tt := range tests {
		v := Check(context.Background(), slugOrig(slugFile), tt.reply, tt.opts)
		if v.Accept || v.Code != tt.code || !strings.Contains(v.Reason, tt.reason) {
			t.Errorf("%s: Check = %s (%s), want %s with %q", tt.name, v.Code, v.Reason, tt.code, tt.reason)
		}
		if v.Ops != nil || v.File != nil || v.Extras != nil {
			t.Errorf("%s: a rejection carries ops or a file", tt.name)
		}
	}
}

func TestCheckExtrasAnchors(t *testing.T) {
	// After another neighbour: the new function goes after count, at the end.
	reply := slugMain + "NEW FUNCTION after `count()`:\n" + slugHelper
	v := Check(context.Background(), slugOrig(slugFile), reply, CheckOptions{Extras: true})
	if !v.Accept || !strings.HasSuffix(string(v.File), "    return len(items)\n\n\ndef strip_accents(text):\n    \"\"\"Crème → Creme.\"\"\"\n    norm = unicodedata.normalize(\"NFKD\", text)\n    return \"\".join(c for c in norm if not unicodedata.combining(c))\n") {
		t.Errorf("after count: Check = %s (%s), file:\n%s", v.Code, v.Reason, v.File)
	}

	// A method: the new method is indented into the class, in its indent
	// style, and the neighbours come from the caller (the index).
	file := "class Cart:\n  def total(self):\n    return sum(self.items)\n\n  def count(self):\n    return len(self.items)\n"
	start := strings.Index(file, "def total")
	end := strings.Index(file, "sum(self.items)") + len("sum(self.items)")
	cstart := strings.Index(file, "def count")
	orig := Original{Path: "cart.py", Lang: "python", Name: "total", File: []byte(file), Range: span.Range{Start: start, End: end}}
	reply = "```python\ndef total(self):\n    return sum(self._prices())\n```\nNEW FUNCTION after Cart.total\n```python\ndef _prices(self):\n    return [i.price for i in self.items]\n```"
	opts := CheckOptions{Extras: true, Neighbors: []Neighbor{{Name: "count", Range: span.Range{Start: cstart, End: len(file) - 1}}}}
	v = Check(context.Background(), orig, reply, opts)
	want := "class Cart:\n  def total(self):\n    return sum(self._prices())\n\n  def _prices(self):\n    return [i.price for i in self.items]\n\n  def count(self):\n    return len(self.items)\n"
	if !v.Accept || string(v.File) != want {
		t.Errorf("method: Check = %s (%s), file:\n%s\nwant:\n%s", v.Code, v.Reason, v.File, want)
	}
	reply = strings.Replace(reply, "def _prices(self)", "def count(self)", 1)
	if v := Check(context.Background(), orig, reply, opts); v.Code != CodeCollision {
		t.Errorf("method named like a sibling: Check = %s (%s), want %s", v.Code, v.Reason, CodeCollision)
	}
}

func TestImportOp(t *testing.T) {
	tests := []struct {
		name, lang, src string
		lines           []string
		want            string
	}{
		{"go block", "go", "package a\n\nimport (\n\t\"fmt\"\n)\n\nfunc F() {}\n", []string{`"strings"`},
			"package a\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc F() {}\n"},
		{"go single", "go", "package a\n\nimport \"fmt\"\n\nfunc F() {}\n", []string{`str "strings"`},
			"package a\n\nimport \"fmt\"\nimport str \"strings\"\n\nfunc F() {}\n"},
		{"go none, CRLF", "go", "// Package a — ✓.\r\npackage a\r\n\r\nfunc F() {}\r\n", []string{`"strings"`},
			"// Package a — ✓.\r\npackage a\r\n\r\nimport \"strings\"\r\n\r\nfunc F() {}\r\n"},
		{"python after a parenthesised import", "python", "from os import (\n    path,\n    sep,\n)\n\nX = 1\n", []string{"import re"},
			"from os import (\n    path,\n    sep,\n)\nimport re\n\nX = 1\n"},
		{"python after the docstring", "python", "#!/usr/bin/env python\n\"\"\"Doc\nstring — é.\"\"\"\n\nX = 1\n", []string{"import re"},
			"#!/usr/bin/env python\n\"\"\"Doc\nstring — é.\"\"\"\n\nimport re\n\nX = 1\n"},
		{"python not inside a string", "python", "import os\nS = \"\"\"\nimport sys\n\"\"\"\n", []string{"import re"},
			"import os\nimport re\nS = \"\"\"\nimport sys\n\"\"\"\n"},
		{"javascript", "javascript", "import a from 'a';\nconst b = require('b');\n\nexport function f() {}\n", []string{"import c from 'c';"},
			"import a from 'a';\nconst b = require('b');\nimport c from 'c';\n\nexport function f() {}\n"},
		{"c++ include", "cpp", "// fmt\n#include <string>\n#include \"core.h\"\n\nnamespace fmt {}\n", []string{"#include <vector>"},
			"// fmt\n#include <string>\n#include \"core.h\"\n#include <vector>\n\nnamespace fmt {}\n"},
		{"java after the imports", "java", "package a;\n\nimport java.io.IOException;\n\nclass A {}\n", []string{"import java.util.List;"},
			"package a;\n\nimport java.io.IOException;\nimport java.util.List;\n\nclass A {}\n"},
		{"java none: after the package", "java", "package a;\n\nclass A {}\n", []string{"import java.util.List;"},
			"package a;\n\nimport java.util.List;\n\nclass A {}\n"},
	}
	for _, tt := range tests {
		got, err := Apply([]byte(tt.src), importOp([]byte(tt.src), tt.lang, tt.lines))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: importOp = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestSplitExtras(t *testing.T) {
	reply := "Here:\n```python\ndef f():\n    # IMPORTS\n    return 1\n```\n**NEW FUNCTION after f**\n\ndef g():\n    return 2\n\nIMPORTS\n```\nimport os\n```\nDone."
	main, extras := splitExtras(reply)
	if main != "Here:\n```python\ndef f():\n    # IMPORTS\n    return 1\n```\nDone." {
		t.Errorf("splitExtras main = %q", main)
	}
	want := []Extra{{Kind: ExtraFunction, After: "f", code: "def g():\n    return 2\n"}, {Kind: ExtraImports, code: "import os"}}
	if d := cmp.Diff(want, extras, cmp.AllowUnexported(Extra{})); d != "" {
		t.Errorf("splitExtras extras (-want +got):\n%s", d)
	}
}

func TestCheckExtrasGo(t *testing.T) {
	file := "// Package calc — ✓.\r\npackage calc\r\n\r\nimport (\r\n\t\"fmt\"\r\n)\r\n\r\n// Label names v.\r\nfunc Label(v int) string {\r\n\treturn fmt.Sprint(v)\r\n}\r\n"
	start := strings.Index(file, "func Label")
	orig := Original{Path: "calc.go", Lang: "go", Name: "Label", File: []byte(file), Range: span.Range{Start: start, End: len(file) - 2}}
	reply := "```go\nfunc Label(v int) string {\n    return pad(strings.TrimSpace(fmt.Sprint(v)))\n}\n```\nNEW FUNCTION after Label\n```go\nfunc pad(s string) string {\n    return \" \" + s\n}\n```\nIMPORTS\n```go\nimport (\n    \"fmt\"\n    \"strings\"\n)\n```"
	v := Check(context.Background(), orig, reply, CheckOptions{Extras: true})
	want := "// Package calc — ✓.\r\npackage calc\r\n\r\nimport (\r\n\t\"fmt\"\r\n\t\"strings\"\r\n)\r\n\r\n// Label names v.\r\nfunc Label(v int) string {\r\n\treturn pad(strings.TrimSpace(fmt.Sprint(v)))\r\n}\r\n\r\nfunc pad(s string) string {\r\n\treturn \" \" + s\r\n}\r\n"
	if !v.Accept || string(v.File) != want {
		t.Errorf("Check = %s (%s), file:\n%q\nwant:\n%q", v.Code, v.Reason, v.File, want)
	}
}
