package edit

import (
	"context"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/span"
)

// original is the definition or region text sel of file.
func original(path, lang, name, file, sel string) Original {
	i := strings.Index(file, sel)
	return Original{Path: path, Lang: lang, Name: name, File: []byte(file), Range: span.Range{Start: i, End: i + len(sel)}}
}

const regionFile = `import os

LIMIT = 10


class Cart:
    currency = "EUR"
    size = 3

    def total(self):
        return 0
`

// TestCheckRegion splices whole lines outside any function: as written, or
// with the region's indentation put back, and refuses what is no change or
// breaks the file's brackets.
func TestCheckRegion(t *testing.T) {
	ctx := context.Background()
	orig := original("cart.py", "python", "", regionFile, "    currency = \"EUR\"\n    size = 3")
	v := CheckRegion(ctx, orig, "```python\n    currency = \"USD\"\n    size = 3\n```", CheckOptions{})
	if !v.Accept || !strings.Contains(string(v.File), "class Cart:\n    currency = \"USD\"\n    size = 3\n\n    def total") {
		t.Fatalf("as written: %s %s\n%s", v.Code, v.Reason, v.File)
	}
	v = CheckRegion(ctx, orig, "currency = \"USD\"\nsize = 4\n", CheckOptions{})
	if !v.Accept || !strings.Contains(string(v.File), "    currency = \"USD\"\n    size = 4\n") {
		t.Fatalf("dedented reply: %s %s\n%s", v.Code, v.Reason, v.File)
	}
	if v := CheckRegion(ctx, orig, "```\n    currency = \"EUR\"\n    size = 3\n```", CheckOptions{}); v.Accept || v.Code != CodeIdentical {
		t.Errorf("identical reply: %v %s", v.Accept, v.Code)
	}
	if v := CheckRegion(ctx, orig, "    currency = (\"USD\"\n    size = 3", CheckOptions{}); v.Accept || v.Code != CodeParse {
		t.Errorf("unbalanced reply: %v %s", v.Accept, v.Code)
	}
	if v := CheckRegion(ctx, orig, "    currency = \"USD\"\n    # ... rest unchanged", CheckOptions{}); v.Accept || v.Code != CodeElision {
		t.Errorf("elided reply: %v %s", v.Accept, v.Code)
	}
	doc := original("s.py", "python", "", "\"\"\"\nrequests.session\n~~~~~~~~~~~~~~~~\n\"\"\"\nimport os\n", "\"\"\"\nrequests.session\n~~~~~~~~~~~~~~~~\n\"\"\"\nimport os")
	if v := CheckRegion(ctx, doc, "```python\n\"\"\"\nrequests.session\n~~~~~~~~~~~~~~~~\n\"\"\"\nimport os\nimport sys\n```\n", CheckOptions{}); !v.Accept {
		t.Errorf("a docstring's ~~~ underline: %s %s", v.Code, v.Reason)
	}
	imports := original("cart.py", "python", "", regionFile, "import os\n\nLIMIT = 10")
	if v := CheckRegion(ctx, imports, "import os\nimport sys\n\nLIMIT = 10", CheckOptions{}); !v.Accept || !strings.HasPrefix(string(v.File), "import os\nimport sys\n\nLIMIT = 10\n\n\nclass Cart:") {
		t.Errorf("imports: %s %s\n%s", v.Code, v.Reason, v.File)
	}
}

// TestCheckDefinitionForms accepts the definitions the index now gives for
// JavaScript members and object keys and for C++ templates: the monitor
// used to find no definition in them, or code outside one.
func TestCheckDefinitionForms(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, path, lang, fname, file, sel, reply, want string
	}{
		{"js member", "a.js", "javascript", "format",
			"export default (o, c) => {\n  const proto = c.prototype\n  proto.format = function (s) {\n    return s\n  }\n}\n",
			"proto.format = function (s) {\n    return s\n  }",
			"proto.format = function (s) {\n  return s || ''\n}", "  proto.format = function (s) {\n    return s || ''\n  }\n}"},
		{"js object key", "bg.js", "javascript", "ordinal",
			"const locale = {\n  name: 'bg',\n  ordinal: n => `${n}.`,\n}\n",
			"ordinal: n => `${n}.`",
			"ordinal: (n) => {\n  return `${n}-ти`\n}", "  ordinal: (n) => {\n    return `${n}-ти`\n  },\n}"},
		{"cpp template", "f.h", "cpp", "format",
			"struct formatter {\n  template <typename Ctx>\n  auto format(int x, Ctx& ctx) {\n    return ctx.out();\n  }\n};\n",
			"template <typename Ctx>\n  auto format(int x, Ctx& ctx) {\n    return ctx.out();\n  }",
			"template <typename Ctx>\nauto format(int x, Ctx& ctx) {\n  return ctx.out(x);\n}", "  template <typename Ctx>\n  auto format(int x, Ctx& ctx) {\n    return ctx.out(x);\n  }\n};"},
		{"java annotation on the line", "V.java", "java", "hashCode",
			"class V {\n    @Override public int hashCode() {\n        return a;\n    }\n}\n",
			"@Override public int hashCode() {\n        return a;\n    }",
			"@Override public int hashCode() {\n    return a ^ b;\n}", "    @Override public int hashCode() {\n        return a ^ b;\n    }\n}"},
		{"java abstract method", "P.java", "java", "getNumberType",
			"abstract class P {\n    public abstract NumberType getNumberType() throws IOException;\n}\n",
			"public abstract NumberType getNumberType() throws IOException;",
			"@Deprecated\npublic abstract NumberType getNumberType() throws IOException;", "    @Deprecated\n    public abstract NumberType getNumberType() throws IOException;\n}"},
		{"cpp template over lines", "c.h", "cpp", "cast",
			"template <typename To, typename From,\n          FMT_ENABLE_IF(std::is_floating_point<From>::value)>\nTo cast(From f) {\n  return To(f);\n}\n",
			"template <typename To, typename From,\n          FMT_ENABLE_IF(std::is_floating_point<From>::value)>\nTo cast(From f) {\n  return To(f);\n}",
			"template <typename To, typename From,\n          FMT_ENABLE_IF(std::is_floating_point<From>::value)>\nTo cast(From f) {\n  return static_cast<To>(f);\n}", "return static_cast<To>(f);"},
		{"cpp return type line", "c.h", "cpp", "make_color",
			"FMT_CONSTEXPR escape<Char>\nmake_color(int c) FMT_NOEXCEPT {\n  return escape<Char>(c);\n}\n",
			"FMT_CONSTEXPR escape<Char>\nmake_color(int c) FMT_NOEXCEPT {\n  return escape<Char>(c);\n}",
			"FMT_CONSTEXPR escape<Char>\nmake_color(int c) FMT_NOEXCEPT {\n  return escape<Char>(c, 1);\n}", "escape<Char>(c, 1);"},
	}
	for _, tt := range tests {
		v := Check(ctx, original(tt.path, tt.lang, tt.fname, tt.file, tt.sel), tt.reply, CheckOptions{})
		if !v.Accept {
			t.Errorf("%s: rejected (%s: %s)", tt.name, v.Code, v.Reason)
			continue
		}
		if !strings.Contains(string(v.File), tt.want) {
			t.Errorf("%s: spliced file lacks %q:\n%s", tt.name, tt.want, v.File)
		}
	}
}

// TestNewFunctionKeepsFileComments: a helper may carry a comment the file
// already has (moved out of the function it splits) without being taken for
// a placeholder.
func TestNewFunctionKeepsFileComments(t *testing.T) {
	file := "fn run() {\n    // enter the span and then perform the rest of the body.\n    go();\n}\n"
	orig := original("lib.rs", "rust", "run", file, strings.TrimSuffix(file, "\n"))
	reply := "```rust\nfn run() {\n    helper();\n}\n```\n\nNEW FUNCTION after run\n```rust\nfn helper() {\n    // enter the span and then perform the rest of the body.\n    go();\n}\n```\n"
	v := Check(context.Background(), orig, reply, CheckOptions{Extras: true})
	if !v.Accept {
		t.Fatalf("rejected (%s: %s)", v.Code, v.Reason)
	}
}

// TestNewFunctionOverload: in C++ a new function may take a name the file
// has (an overload); a copy of an existing definition is still refused.
func TestNewFunctionOverload(t *testing.T) {
	file := "int parse(int x) {\n  return x;\n}\n\nint use(int x) {\n  return parse(x);\n}\n"
	orig := original("p.h", "cpp", "use", file, "int use(int x) {\n  return parse(x);\n}")
	reply := "```cpp\nint use(int x) {\n  return parse(x, 1);\n}\n```\n\nNEW FUNCTION after use\n```cpp\nint parse(int x, int base) {\n  return x * base;\n}\n```\n"
	if v := Check(context.Background(), orig, reply, CheckOptions{Extras: true}); !v.Accept {
		t.Fatalf("overload rejected (%s: %s)", v.Code, v.Reason)
	}
	// A C++ header named .h, which the index labels C.
	hfile := "namespace fmt {\n" + file + "}\n"
	horig := original("p.h", "c", "use", hfile, "int use(int x) {\n  return parse(x);\n}")
	if v := Check(context.Background(), horig, reply, CheckOptions{Extras: true}); !v.Accept {
		t.Errorf("overload in a C++ .h labelled c rejected (%s: %s)", v.Code, v.Reason)
	}
	dup := "```cpp\nint use(int x) {\n  return parse(x);  // same\n}\n```\n\nNEW FUNCTION after use\n```cpp\nint parse(int x) {\n  return x;\n}\n```\n"
	if v := Check(context.Background(), orig, dup, CheckOptions{Extras: true}); v.Accept || v.Code != CodeCollision {
		t.Errorf("a copy of parse: %v %s, want a collision", v.Accept, v.Code)
	}
}
