package treesitter

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/index"
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
	want := "os|| sys||system .|sibling| ..pkg.mod|a,c| ..pkg.mod|b|bee x|*|"
	if got := importsString(out.Imports); got != want {
		t.Errorf("imports = %q, want %q", got, want)
	}
}

// importsString writes imports as "module|names|alias", joined by spaces.
func importsString(imps []index.Import) string {
	var out []string
	for _, i := range imps {
		out = append(out, i.Module+"|"+strings.Join(i.Names, ",")+"|"+i.Alias)
	}
	return strings.Join(out, " ")
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

// TestBudgetClock: the budget counts the parsing thread's CPU time, which a
// sleeping (or stopped, or preempted) thread does not spend; a deadline on the
// wall clock skipped files for good whenever the machine was busy.
func TestBudgetClock(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	time.Sleep(200 * time.Millisecond)
	if d := threadCPU() - start; d > 100*time.Millisecond {
		t.Errorf("the budget's clock advanced %v while its thread slept 200ms", d)
	}
	start = threadCPU()
	for end := time.Now().Add(10 * time.Second); threadCPU()-start < time.Millisecond; {
		if time.Now().After(end) {
			t.Fatalf("the budget's clock advanced %v in 10s of work", threadCPU()-start)
		}
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
	for _, s := range []string{
		"function f(a) { return g(a); }\nclass C { m() {} }\n",
		"import { a as b } from './x';\nconst h = () => 1;\n",
		"class {",
	} {
		f.Add("a.js", s)
	}
	for _, s := range []string{
		"interface I { m(): void }\ntype T = string;\nenum E { A }\n",
		"function f<T>(x: T): T { return x; }\n",
	} {
		f.Add("a.ts", s)
	}
	f.Add("a.tsx", "const A = () => <div>{x}</div>;\n")
	f.Add("a.rs", "use a::b::{self, C as D};\n#[derive(Debug)]\nstruct S;\nimpl<T> S<T> { fn m(&self) { f(); } }\nfn g( {\n")
	f.Add("A.java", "import a.b.*;\n@X class A { /** d */ A() {} void m() { new B().c(); } interface I { void n(); }\n")
	f.Add("a.c", "#include \"a.h\"\ntypedef struct { int x; } T;\nstatic char **f(int a) { return g(a); }\nint h(int {\n")
	f.Add("a.cpp", "template <class T> struct B { T get() const { return v; } };\nvoid A::b() { c<int>(); }\nA::~A() {}\nclass {\n")
	f.Add("a.rb", "module M\n  class A::B < C\n    def self.d(x) = x\n    def e; f(1); end\n  end\nend\ndef (\n")
	f.Add("a.cs", "using X = A.B;\nnamespace N { class C<T> : I { C() {} void M() => F<int>(); int P { get; } } }\nclass {\n")
	f.Add("a.php", "<?php\nuse A\\{B, C as D};\nclass E { const F = 1; function g() { new H(); } }\nfunction (\n")
	f.Add("a.sh", "source ./x.sh\nf() { g \"$@\"; }\nfunction h {\n")
	f.Add("a.lua", "local m = require('m')\nfunction T:f() m.g() end\nT.h = function() end\nfunction (\n")
	f.Add("a.R", "library(x)\nA <- R6Class(\"A\", public = list(m = function() f()))\nsetMethod(\"g\", \"A\", function(o) 1)\nh <- function(\n")
	f.Add("a.ml", "open M\nlet rec f x = g x\nand g = function [] -> 0 | _ -> 1\nclass c = object method m = f 1 end\nlet (\n")
	f.Add("a.mli", "type t\nval f : t -> int\nclass c : object method m : int end\nval (\n")
	f.Add("main.tf", "resource \"a\" \"b\" { c = d(e) }\nvariable \"v\" {}\nmodule \"m\" {\n")
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
		// A walked language: the walk must give what the query cursor gives.
		if l := langFor(name); l != nil && walkLangs[l.name] {
			want, err := p.parse(context.Background(), name, []byte(src), false)
			if err != nil {
				t.Fatalf("query parse failed where the walk did not: %v", err)
			}
			if diff := cmp.Diff(want, out); diff != "" {
				t.Fatalf("walk differs from query (-query +walk):\n%s", diff)
			}
		}
	})
}

func TestParseJSTS(t *testing.T) {
	tests := []struct {
		file, src string
		defs      string // "kind qname" joined by "; "
		imports   string // "module|names|alias" joined by " "
	}{
		{"a.js", "import React from 'react';\nimport { a, b as c } from './util';\n// Adds.\nexport function add(x, y) { return helper(x) + y; }\nclass Box { get(k) { return this.m.get(k); } }\nconst arrow = (q) => q * 2;\n",
			"function add; class Box; method Box.get; function arrow",
			"react||React ./util|a| ./util|b|c"},
		{"b.ts", "import * as path from 'path';\ninterface Shape { area(): number }\ntype ID = string;\nenum Color { Red }\nexport class Circle implements Shape { area(): number { return 1; } }\nfunction f(x: number): ID { return String(x); }\n",
			"class Shape; method Shape.area; class ID; class Color; class Circle; method Circle.area; function f",
			"path||path"},
		{"c.tsx", "export const App = () => <div>{go()}</div>;\n",
			"function App", ""},
	}
	p := New()
	for _, tt := range tests {
		out, err := p.Parse(context.Background(), tt.file, []byte(tt.src))
		if err != nil {
			t.Fatalf("Parse(%s) = %v", tt.file, err)
		}
		var defs []string
		for _, d := range out.Defs {
			defs = append(defs, d.Kind+" "+d.QName)
			if tt.src[d.NameStart:d.NameEnd] != d.Name {
				t.Errorf("%s %s: name bytes %q", tt.file, d.QName, tt.src[d.NameStart:d.NameEnd])
			}
		}
		if got := strings.Join(defs, "; "); got != tt.defs {
			t.Errorf("Parse(%s) defs = %q, want %q", tt.file, got, tt.defs)
		}
		if got := importsString(out.Imports); got != tt.imports {
			t.Errorf("Parse(%s) imports = %q, want %q", tt.file, got, tt.imports)
		}
	}
}

// TestRefs: the C walk counts every reference node of the language's kinds,
// once per name.
func TestRefs(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            map[string]int
	}{
		{"python", "m.py", "import os\nx = os.path.join(a, a)  # os in a comment\ns = 'os'\n",
			map[string]int{"os": 2, "x": 1, "path": 1, "join": 1, "a": 2, "s": 1}},
		{"python keywords are no names", "k.py", "if True:\n    print(None)\n",
			map[string]int{"print": 1}},
		{"go", "m.go", "package m\n\nfunc F(t T) int { return t.n + t.n }\n",
			map[string]int{"F": 1, "t": 3, "T": 1, "int": 1, "n": 2}},
		{"javascript", "m.js", "const a = b.c(a);\n",
			map[string]int{"a": 2, "b": 1, "c": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := New().Parse(context.Background(), tt.file, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(out.RefCounts) != len(out.Refs) {
				t.Fatalf("Parse(%q): %d refs but %d counts", tt.src, len(out.Refs), len(out.RefCounts))
			}
			got := map[string]int{}
			for i, r := range out.Refs {
				got[r] += out.RefCounts[i]
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) refs (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// TestHaltedParseThenParse halts parses at every point the budget allows and
// then parses normally on the same pooled parsers: a parser whose parse was
// halted (tree-sitter keeps resumable state that ts_parser_reset does not
// clear) must never be reused as it is, or the next parse aborts the process.
func TestHaltedParseThenParse(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 800; i++ {
		b.WriteString("def f")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("(a, b):\n    return [a + b for _ in range(3)]\n\n")
	}
	src := []byte(b.String())
	ctx := context.Background()
	// Budgets around the full parse time, so that some halts land in the
	// balancing phase after the tree is finished.
	start := time.Now()
	if _, err := New().Parse(ctx, "big.py", src); err != nil {
		t.Fatal(err)
	}
	full := time.Since(start)
	t.Logf("full parse %s", full)
	budgets := []time.Duration{time.Nanosecond, time.Microsecond}
	for i := 60; i <= 120; i += 3 {
		budgets = append(budgets, full*time.Duration(i)/100)
	}
	for _, budget := range budgets {
		halted := &Parser{Budget: budget}
		for i := 0; i < 2; i++ {
			if _, err := halted.Parse(ctx, "big.py", src); err != nil && !errors.Is(err, ErrBudget) {
				t.Fatalf("Parse with budget %s: %v", budget, err)
			}
		}
		got, err := New().Parse(ctx, "small.py", []byte("def g():\n    pass\n"))
		if err != nil {
			t.Fatalf("Parse after halted parses (budget %s): %v", budget, err)
		}
		if len(got.Defs) != 1 || got.Defs[0].Name != "g" {
			t.Fatalf("Parse after halted parses (budget %s) = %+v, want one def g", budget, got.Defs)
		}
	}
}
