package bench

import (
	"testing"

	"github.com/grit-dev/grit/internal/index"
)

// TestEntityName: the bench names a hit by its outermost function, scoped by
// the last part of its parent, whatever the language: Python's nested
// classes and functions as LocAgent does, a Go method whose receiver type
// lives in another file (no parent definition in the chain), a function
// nested in a method.
func TestEntityName(t *testing.T) {
	fn := func(name, parent, kind string) index.Def {
		q := name
		if parent != "" {
			q = parent + "." + name
		}
		return index.Def{Name: name, QName: q, Parent: parent, Kind: kind}
	}
	tests := []struct {
		name  string
		chain []index.Def
		want  string
	}{
		{"python method", []index.Def{fn("m", "A", index.KindMethod), fn("A", "", index.KindClass)}, "A.m"},
		{"python nested class", []index.Def{fn("m", "A.B", index.KindMethod), fn("B", "A", index.KindClass), fn("A", "", index.KindClass)}, "B.m"},
		{"python nested function", []index.Def{fn("inner", "outer", index.KindFunction), fn("outer", "", index.KindFunction)}, "outer"},
		{"method of a class in a function", []index.Def{fn("m", "f.A", index.KindMethod), fn("A", "f", index.KindClass), fn("f", "", index.KindFunction)}, "f"},
		{"go receiver in another file", []index.Def{fn("Put", "Store", index.KindMethod)}, "Store.Put"},
		{"closure in a rust impl method", []index.Def{fn("helper", "Span.on_event", index.KindFunction), fn("on_event", "Span", index.KindMethod)}, "Span.on_event"},
		{"class", []index.Def{fn("A", "", index.KindClass)}, ""},
	}
	for _, tt := range tests {
		if got := entityName(tt.chain); got != tt.want {
			t.Errorf("%s: entityName = %q, want %q", tt.name, got, tt.want)
		}
	}
}
