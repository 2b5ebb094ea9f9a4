package edit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/grit-dev/grit/internal/span"
)

func TestApply(t *testing.T) {
	src := []byte("def a():\n    return 1\n\n\ndef b():\n    return 2\n")
	r := span.Range{Start: strings.Index(string(src), "def b"), End: len(src) - 1}
	tests := []struct {
		name string
		ops  []Op
		want string
	}{
		{"replace", []Op{{Kind: OpReplace, Range: r, Text: []byte("def b():\n    return 3")}},
			"def a():\n    return 1\n\n\ndef b():\n    return 3\n"},
		{"insert after top-level python", []Op{{Kind: OpInsertAfter, Range: span.Range{Start: 0, End: 21}, Text: []byte("def c():\n    return 9")}},
			"def a():\n    return 1\n\n\ndef c():\n    return 9\n\n\ndef b():\n    return 2\n"},
		{"insert at module level", []Op{{Kind: OpInsertAt, Range: span.Range{}, Text: []byte("import os\n")}},
			"import os\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n"},
	}
	for _, tt := range tests {
		got, err := Apply(src, tt.ops...)
		if err != nil {
			t.Fatalf("%s: Apply: %v", tt.name, err)
		}
		if string(got) != tt.want {
			t.Errorf("%s: Apply = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestApplyInsertAfterMethodCRLF(t *testing.T) {
	src := []byte("class A:\r\n    def f(self):\r\n        return 1\r\n")
	start := bytes.Index(src, []byte("def f"))
	end := bytes.Index(src, []byte("return 1")) + len("return 1")
	got, err := Apply(src, Op{Kind: OpInsertAfter, Range: span.Range{Start: start, End: end}, Text: []byte("def g(self):\n    return 2\n")})
	if err != nil {
		t.Fatal(err)
	}
	want := "class A:\r\n    def f(self):\r\n        return 1\r\n\r\n    def g(self):\r\n        return 2\r\n"
	if string(got) != want {
		t.Errorf("Apply = %q, want %q", got, want)
	}
}

func TestApplyRejects(t *testing.T) {
	src := []byte("x = 'é'\n")
	tests := []struct {
		name string
		op   Op
	}{
		{"outside", Op{Kind: OpReplace, Range: span.Range{Start: 2, End: 99}}},
		{"mid-rune start", Op{Kind: OpReplace, Range: span.Range{Start: 6, End: 7}}},
		{"mid-rune end", Op{Kind: OpReplace, Range: span.Range{Start: 0, End: 6}}},
	}
	for _, tt := range tests {
		if _, err := Apply(src, tt.op); !errors.Is(err, ErrRange) {
			t.Errorf("%s: Apply(%v) error = %v, want ErrRange", tt.name, tt.op.Range, err)
		}
	}
	if _, err := Apply(src, Op{Kind: "frobnicate"}); err == nil || !strings.Contains(err.Error(), "expected: replace") {
		t.Errorf("Apply(unknown op) error = %v, want one naming the valid ops", err)
	}
}

func TestReplaceDefStale(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.py")
	orig := []byte("def f():\n    return 1\n")
	if err := os.WriteFile(p, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	h := Hash(orig)
	if err := os.WriteFile(p, append(orig, "# appended\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReplaceDef(p, span.Range{Start: 0, End: 21}, h, []byte("def f():\n    return 2")); !errors.Is(err, ErrStale) {
		t.Fatalf("ReplaceDef after the file changed: error = %v, want ErrStale", err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != string(orig)+"# appended\n" {
		t.Errorf("a stale ReplaceDef wrote the file: %q", got)
	}
}

// TestReplaceDefUnicode puts em dashes, emoji, ZWJ sequences and CJK before
// and inside the definition, in LF and CRLF files.
func TestReplaceDefUnicode(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		pre := "# — naïve 😀 👩‍👩‍👧 漢字" + eol + "S = '—'" + eol + eol
		def := "def f():" + eol + "    return '漢字 — 😀'"
		post := eol + eol + "# tail ✓" + eol
		src := pre + def + post
		p := filepath.Join(t.TempDir(), "u.py")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		r := span.Range{Start: len(pre), End: len(pre) + len(def)}
		if string([]byte(src)[r.Start:r.End]) != def {
			t.Fatalf("range %v does not hold the definition", r)
		}
		newDef := "def f():" + eol + "    return 'fixed — ✓ 字'"
		old, err := ReplaceDef(p, r, Hash([]byte(src)), []byte(newDef))
		if err != nil {
			t.Fatalf("ReplaceDef(%q): %v", eol, err)
		}
		if string(old) != src {
			t.Errorf("ReplaceDef returned old = %q, want %q", old, src)
		}
		got, _ := os.ReadFile(p)
		if want := pre + newDef + post; string(got) != want {
			t.Errorf("eol %q: file = %q, want %q", eol, got, want)
		}
	}
}

// FuzzReplaceFunc splices a function placed after a random prefix: the bytes
// outside the range never change and the replaced slice is exactly the old
// function.
func FuzzReplaceFunc(f *testing.F) {
	for _, s := range []string{"", "—", "😀", "👩‍👩‍👧", "漢字かな", "é\r\n", "\u200d\u200d", "// ü\n", "\xff", "a\r\nb\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prefix string) {
		fn := "func f() {}"
		src := []byte(prefix + "\n" + fn + "\n// 尾 end\n")
		r := span.Range{Start: len(prefix) + 1, End: len(prefix) + 1 + len(fn)}
		if !utf8.RuneStart(src[r.Start]) || (r.End < len(src) && !utf8.RuneStart(src[r.End])) {
			t.Fatalf("range %v does not start and end on rune boundaries", r)
		}
		if string(src[r.Start:r.End]) != fn {
			t.Fatalf("slice %q is not the function", src[r.Start:r.End])
		}
		out, err := Apply(src, Op{Kind: OpReplace, Range: r, Text: []byte("func f() { println(\"—\") }")})
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		if !bytes.HasPrefix(out, src[:r.Start]) || !bytes.HasSuffix(out, src[r.End:]) {
			t.Fatalf("bytes outside the range changed: %q → %q", src, out)
		}
		if got := string(out[r.Start : len(out)-len(src)+r.End]); got != "func f() { println(\"—\") }" {
			t.Fatalf("new body = %q", got)
		}
		if utf8.Valid(src) && !utf8.Valid(out) {
			t.Fatalf("valid UTF-8 became invalid: %q", out)
		}
	})
}
