package treesitter

import (
	"strings"
	"testing"
)

func TestBlankUnbalancedElse(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"header chosen by the preprocessor",
			"#ifdef WIN32\nint umain(int c) {\n#else\nint main(int c) {\n#endif\n  return 0;\n}\n",
			"            \nint umain(int c) {\n     \n                 \n      \n  return 0;\n}\n"},
		{"balanced branches stay",
			"#ifdef WIN32\nint f(void) { return 1; }\n#else\nint f(void) { return 2; }\n#endif\n", ""},
		{"braces in comments and strings do not count",
			"#if A\nchar *s = \"{\"; /* { */\n#else\nint x;\n#endif\n", ""},
		{"a balanced inner group inside an unbalanced outer one",
			"#if A\nvoid f() {\n#if B\nint x;\n#else\nint y;\n#endif\n#else\nvoid g() {\n#endif\n}\n",
			"     \nvoid f() {\n#if B\nint x;\n#else\nint y;\n#endif\n     \n          \n      \n}\n"},
		{"no conditional", "int main(void) { return 0; }\n", ""},
		{"CRLF lines", "#ifdef W\r\nint u() {\r\n#else\r\nint m() {\r\n#endif\r\n}\r\n",
			"        \r\nint u() {\r\n     \r\n         \r\n      \r\n}\r\n"},
	}
	for _, tt := range tests {
		got := string(blankUnbalancedElse([]byte(tt.in)))
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if got != want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, want)
		}
		if len(got) != len(tt.in) || strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
			t.Errorf("%s: length or lines changed", tt.name)
		}
	}
}

// TestIfdefHeaderNamesFunction: the function whose header an #ifdef
// chooses is one definition, named by the first branch, spanning its body
// (jq's main.c: umain on Windows, main elsewhere).
func TestIfdefHeaderNamesFunction(t *testing.T) {
	src := "#ifdef WIN32\nint umain(int argc, char *argv[]);\n\nint wmain(int argc, wchar_t *w[]) {\n  return umain(argc, 0);\n}\n\nint umain(int argc, char *argv[]) {\n#else\nint main(int argc, char *argv[]) {\n#endif\n  int ret = 0;\n  if (argc > 1) {\n    ret = 1;\n  }\n  return ret;\n}\n\nstatic int after(void) { return 2; }\n"
	f, err := New().Parse(t.Context(), "main.c", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range f.Defs {
		got[d.QName] = src[d.Start:d.End]
	}
	body := src[strings.Index(src, "int umain(int argc, char *argv[]) {"):strings.Index(src, "\n\nstatic")]
	if got["umain"] != body {
		t.Errorf("umain = %q, want the whole function %q (defs: %v)", got["umain"], body, keys(got))
	}
	for _, name := range []string{"wmain", "after"} {
		if _, ok := got[name]; !ok {
			t.Errorf("%s missing (defs: %v)", name, keys(got))
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestOperatorName(t *testing.T) {
	for in, want := range map[string]string{
		"operator|=": "operator |=", "operator |=": "operator |=", "operator()": "operator ()",
		"operator ( )": "operator ()", "operator bool": "operator bool", "operator new[]": "operator new[]",
		"operator<<": "operator <<", "operatorX": "operatorX", "format": "format", "operator": "operator",
	} {
		if got := operatorName(in); got != want {
			t.Errorf("operatorName(%q) = %q, want %q", in, got, want)
		}
	}
}
