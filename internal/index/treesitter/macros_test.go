package treesitter

import "testing"

// TestBlankMacros: annotation macros become spaces of the same length;
// macros called or used as values, and text in comments, strings and
// preprocessor lines, stay.
func TestBlankMacros(t *testing.T) {
	tests := []struct{ in, want string }{
		{"FMT_CONSTEXPR int f() FMT_NOEXCEPT { return 1; }", "              int f()              { return 1; }"},
		{"Foo() FMT_NOEXCEPT\n  : x(0) {}", "Foo()             \n  : x(0) {}"},
		{"FMT_API void g();", "        void g();"},
		{"switch (x) { case MODE_READ: return MAX_SIZE; }", "switch (x) { case MODE_READ: return MAX_SIZE; }"},
		{"int y = CHECK_ARG(x) + NULL_VALUE;", "int y = CHECK_ARG(x) + NULL_VALUE;"},
		{"if (p == NULL) return FILE_ERR;", "if (p == NULL) return FILE_ERR;"},
		{"#define FMT_API __attribute__((visibility(\"default\")))\nint a;", "#define FMT_API __attribute__((visibility(\"default\")))\nint a;"},
		{"// FMT_API void g();\nconst char *s = \"FMT_API void\";", "// FMT_API void g();\nconst char *s = \"FMT_API void\";"},
		{"ns::MY_TYPE x;", "ns::MY_TYPE x;"},
		{"FMT_SUPPRESS_MSC_WARNING(26495)\n  buffer(int sz) {}", "                               \n  buffer(int sz) {}"},
		{"FMT_ASSERT(x, \"y\");\nint z;", "FMT_ASSERT(x, \"y\");\nint z;"}, // a call statement stays
		{"STACK_OF(X509) *certs;", "STACK_OF(X509) *certs;"},               // a macro type stays
		{"TEST_CASE(\"a\") {\n}", "TEST_CASE(\"a\") {\n}"},                 // a test macro opening a body stays
		{"public: FMT_INLINE void h();", "public:            void h();"},   // a qualified name is a type, not an annotation
	}
	for _, tt := range tests {
		got := string(blankMacros([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("blankMacros(%q) =\n%q, want\n%q", tt.in, got, tt.want)
		}
		if len(got) != len(tt.in) {
			t.Errorf("blankMacros(%q) changed the length: %d, want %d", tt.in, len(got), len(tt.in))
		}
	}
}
