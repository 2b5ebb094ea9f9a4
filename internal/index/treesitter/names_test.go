package treesitter

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/index"
)

// TestScopeNames holds every language but Python and Ruby to one naming of
// functions (testdata/names): Scope.Name, the scope being the innermost
// class, struct, union, enum, interface, trait, impl type or receiver type;
// namespaces and modules are no scope; a function nested in a function is
// outer.inner (the search and the bench name it by the outer one). These
// are the names the dev_poly gold uses (shared/bench/README.md). A .h file
// holding C++ is parsed as C++, and annotation macros (FMT_CONSTEXPR ...
// FMT_NOEXCEPT) do not break the class around them.
func TestScopeNames(t *testing.T) {
	tests := []struct {
		file string
		want []string // "kind QName" of functions and methods, in source order
	}{
		{"cart.go", []string{"method Cart.Add", "method Cart.Len", "method Store.Put", "function New"}},
		{"layer.rs", []string{
			"method Layer.on_event", "method Layer.enabled", "method Span.new", "method Span.on_event",
			"function Span.on_event.helper", "method Span.enabled", "method Filtered.enabled", "method Value.fmt",
			"function make", "method Span.in_test", "function it_works",
		}},
		{"Outer.java", []string{
			"method Outer.Outer", "method Outer.run", "method Outer.run.run", "method Inner.size",
			"method Deep.go", "method Visitor.visit", "method Visitor.done", "method Mode.on",
		}},
		{"plugin.js", []string{
			"function utc", "function tz", "function local", "function format", "function parse",
			"function toFormData", "function toFormData.build", "function toFormData.each", "function filter",
			"method isDate", "function isString", "method Duration.constructor", "method Duration.toISOString",
		}},
		{"headers.ts", []string{
			"method Dayjs.tz", "method AxiosHeaders.set", "method AxiosHeaders.toJSON", "method Params.append",
			"function merge", "function create",
		}},
		{"jv.c", []string{"function jvp_refcnt_unshared", "function jv_contains"}},
		{"jv.h", []string{"function jv_is_valid"}},
		{"color.h", []string{"method text_style.text_style", "method text_style.has_emphasis", "function fg"}},
		{"format.cc", []string{
			"method ansi_color_escape.ansi_color_escape", "method ansi_color_escape.begin", "function report_error",
			"method text_style.operator |=", "method text_style.has_foreground", "method iterator.next",
			"method formatter.parse", "function print", "method iterator.step", "method buffer.get",
			"function vprint", "method format_error.code",
		}},
	}
	p := New()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "names", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			out, err := p.Parse(context.Background(), tt.file, src)
			if err != nil {
				t.Fatalf("Parse(%s) = %v", tt.file, err)
			}
			var got []string
			for _, d := range out.Defs {
				if d.Kind == index.KindFunction || d.Kind == index.KindMethod {
					got = append(got, d.Kind+" "+d.QName)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%s) function names (-want +got):\n%s\ngot: %q", tt.file, diff, strings.Join(got, `", "`))
			}
		})
	}
}
