package treesitter

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newLangFixtures are the fixtures of the languages added with issue 27,
// one per language; TestLangFixtures and TestLangFixturesMore hold what
// each gives.
var newLangFixtures = []string{
	"csharp/Cart.cs", "php/cart.php", "bash/build.sh", "lua/cart.lua",
	"hcl/main.tf",
	"kotlin/Cart.kt", "swift/Cart.swift", "scala/Cart.scala", "elixir/cart.ex",
	"zig/cart.zig", "dart/cart.dart", "haskell/Cart.hs", "julia/cart.jl",
	"r/cart.R",
}

// TestHostileInput feeds every added language hostile variants of its
// fixture: a byte-order mark, invalid UTF-8 in the middle of a comment, a
// file of hundreds of copies, and thousands of nested brackets. Each parses
// (or stops at its budget, cleanly), and every definition's range is still
// its own source with its name inside it.
func TestHostileInput(t *testing.T) {
	p := New()
	ctx := context.Background()
	for _, file := range newLangFixtures {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "langs", file))
			if err != nil {
				t.Fatal(err)
			}
			plain, err := p.Parse(ctx, file, src)
			if err != nil || len(plain.Defs) == 0 {
				t.Fatalf("Parse(%s) = %d defs, %v; want definitions", file, len(plain.Defs), err)
			}

			// A BOM shifts every definition by its three bytes and changes nothing else.
			bom := append([]byte("\ufeff"), src...)
			out, err := p.Parse(ctx, file, bom)
			if err != nil {
				t.Fatalf("Parse(%s with BOM) = %v", file, err)
			}
			checkRanges(t, file+" (BOM)", bom, out.Defs)
			if len(out.Defs) != len(plain.Defs) {
				t.Errorf("Parse(%s with BOM) = %d defs, want %d", file, len(out.Defs), len(plain.Defs))
			} else {
				for i, d := range out.Defs {
					if w := plain.Defs[i]; d.QName != w.QName || d.Start != w.Start+3 || d.End != w.End+3 {
						t.Errorf("Parse(%s with BOM) def %d = %s [%d,%d), want %s [%d,%d)", file, i, d.QName, d.Start, d.End, w.QName, w.Start+3, w.End+3)
					}
				}
			}

			// Invalid UTF-8 after the first line (inside a comment or string for
			// most fixtures): no error, ranges exact.
			nl := bytes.IndexByte(src, '\n') + 1
			bad := append(append(append([]byte{}, src[:nl]...), "\xff\xfe\xc3\x28 \xed\xa0\x80\n"...), src[nl:]...)
			out, err = p.Parse(ctx, file, bad)
			if err != nil {
				t.Fatalf("Parse(%s with invalid UTF-8) = %v", file, err)
			}
			checkRanges(t, file+" (invalid UTF-8)", bad, out.Defs)

			// A huge file: 300 copies (a few hundred KB).
			huge := bytes.Repeat(append(src, '\n'), 300)
			out, err = p.Parse(ctx, file, huge)
			switch {
			case errors.Is(err, ErrBudget):
				t.Logf("Parse(%s × 300) stopped at its budget", file)
			case err != nil:
				t.Fatalf("Parse(%s × 300) = %v", file, err)
			default:
				checkRanges(t, file+" (×300)", huge, out.Defs)
				if len(out.Defs) < len(plain.Defs) {
					t.Errorf("Parse(%s × 300) = %d defs, want at least %d", file, len(out.Defs), len(plain.Defs))
				}
			}

			// Deep nesting: brackets of every kind, 5,000 deep, after the fixture.
			for _, pair := range []string{"()", "[]", "{}"} {
				deep := append(append([]byte{}, src...), strings.Repeat(pair[:1], 5000)+strings.Repeat(pair[1:], 5000)+"\n"...)
				out, err = p.Parse(ctx, file, deep)
				if err != nil && !errors.Is(err, ErrBudget) {
					t.Fatalf("Parse(%s + %s nested 5000 deep) = %v", file, pair, err)
				}
				if err == nil {
					checkRanges(t, file+" (nested "+pair+")", deep, out.Defs)
				}
			}
		})
	}
}
