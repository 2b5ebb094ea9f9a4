package treesitter

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestLang(t *testing.T) {
	p := New()
	tests := map[string]string{"a.py": "python", "b/c.go": "go", "x.txt": "", "Makefile": ""}
	for file, want := range tests {
		if got := p.Lang(file); got != want {
			t.Errorf("Lang(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestQueriesCompile(t *testing.T) {
	for _, l := range languages {
		if _, err := l.compiled(); err != nil {
			t.Errorf("query for %s: %v", l.name, err)
		}
	}
}

func TestParsePythonImports(t *testing.T) {
	src := "import os, sys as system\nfrom . import sibling\nfrom ..pkg.mod import a, b as bee, c\nfrom x import *\n"
	out, err := New().Parse(context.Background(), "m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range out.Imports {
		got = append(got, i.Module+"|"+strings.Join(i.Names, ",")+"|"+i.Alias)
	}
	want := "os|| sys||system .|sibling| ..pkg.mod|a,c| ..pkg.mod|b|bee x|*|"
	if strings.Join(got, " ") != want {
		t.Errorf("imports = %q, want %q", strings.Join(got, " "), want)
	}
}

func TestParseCallers(t *testing.T) {
	src := "def outer():\n    def inner():\n        return g(1)\n    return inner()\n\nmain()\n"
	out, err := New().Parse(context.Background(), "m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range out.Calls {
		got = append(got, c.Callee+"@"+c.Caller)
	}
	if want := "g@outer.inner inner@outer main@"; strings.Join(got, " ") != want {
		t.Errorf("calls = %q, want %q", strings.Join(got, " "), want)
	}
}

// TestBudget: a pathological file is cut off by the per-file budget.
func TestBudget(t *testing.T) {
	p := New()
	p.Budget = time.Millisecond
	src := strings.Repeat("x = ["+strings.Repeat("(", 50), 2000)
	_, err := p.Parse(context.Background(), "deep.py", []byte(src))
	if err != nil && !errors.Is(err, ErrBudget) {
		t.Errorf("Parse(deep) = %v, want nil or ErrBudget", err)
	}
}

func TestAST(t *testing.T) {
	src := []byte("def f(a):\n    return a\n")
	n, err := New().AST(context.Background(), "m.py", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.Type != "module" || len(n.Children) != 1 || n.Children[0].Type != "function_definition" {
		t.Fatalf("AST root = %s with %d children, want module > function_definition", n.Type, len(n.Children))
	}
	r := [2]int{14, 22}
	n, err = New().AST(context.Background(), "m.py", src, &r)
	if err != nil || n.Type != "return_statement" {
		t.Errorf("AST([14,22)) = %v, %v; want return_statement", n, err)
	}
}

// FuzzParse: no input crashes the parser, and every definition's range lies
// within the file with its name inside it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"def f(a, b=1) -> int:\n    return a\n",
		"class C:\n    def m(self):\n        pass\n",
		"@d\ndef g(): pass\n",
		"def broken(:\n",
		"\ufeffdef bom(): pass\n",
		"def e(): return '—🚀日本'\n",
		"x = 1\r\ny = 2\r\n",
		"\xff\xfe\x00",
	} {
		f.Add("a.py", s)
	}
	for _, s := range []string{
		"package p\nfunc F() {}\n",
		"package p\ntype T struct{}\nfunc (t *T) M() {}\n",
		"package p\nfunc (",
		"package p\nimport \"fmt\"\nvar x = fmt.Sprint(1)\n",
	} {
		f.Add("a.go", s)
	}
	p := New()
	f.Fuzz(func(t *testing.T, name, src string) {
		out, err := p.Parse(context.Background(), name, []byte(src))
		if err != nil {
			return
		}
		for _, d := range out.Defs {
			if d.Start < 0 || d.End > len(src) || d.Start > d.End || d.NameStart < d.Start || d.NameEnd > d.End {
				t.Fatalf("def %s range [%d,%d) name [%d,%d) outside %d bytes", d.QName, d.Start, d.End, d.NameStart, d.NameEnd, len(src))
			}
			if src[d.NameStart:d.NameEnd] != d.Name {
				t.Fatalf("def name %q != bytes %q", d.Name, src[d.NameStart:d.NameEnd])
			}
		}
	})
}
