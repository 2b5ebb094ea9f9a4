package edit

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"change middle", "a\nb\nc\n", "a\nB\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"add to empty", "", "x\n", "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n"},
		{"no final newline", "a\nb", "a\nc", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"crlf shows", "a\r\nb\r\n", "a\r\nb\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+b\n"},
	}
	for _, tt := range tests {
		if got := Diff("a/f", "b/f", []byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("%s: Diff(%q, %q) =\n%s\nwant\n%s", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDiffHunks(t *testing.T) {
	var a, b []string
	for i := 0; i < 40; i++ {
		l := string(rune('a'+i%26)) + strings.Repeat("x", i)
		a = append(a, l)
		if i == 5 || i == 30 {
			l = "CHANGED"
		}
		b = append(b, l)
	}
	d := Diff("a/f", "b/f", []byte(strings.Join(a, "\n")+"\n"), []byte(strings.Join(b, "\n")+"\n"))
	if n := strings.Count(d, "@@ -"); n != 2 {
		t.Errorf("Diff with two distant changes has %d hunks, want 2:\n%s", n, d)
	}
	if !strings.Contains(d, "@@ -3,7 +3,7 @@") || !strings.Contains(d, "@@ -28,7 +28,7 @@") {
		t.Errorf("Diff hunk headers wrong:\n%s", d)
	}
}

// TestMyersRoundTrip checks that applying the script to a gives b.
func TestMyersRoundTrip(t *testing.T) {
	cases := [][2]string{
		{"a\nb\nc\nd\n", "b\nc\ne\nd\nf\n"},
		{"x\n", ""},
		{"1\n2\n3\n4\n5\n", "5\n4\n3\n2\n1\n"},
	}
	for _, c := range cases {
		ops := myers(splitLines(c[0]), splitLines(c[1]))
		var a, b strings.Builder
		for _, op := range ops {
			if op.kind != '+' {
				a.WriteString(op.line)
			}
			if op.kind != '-' {
				b.WriteString(op.line)
			}
		}
		if a.String() != c[0] || b.String() != c[1] {
			t.Errorf("myers(%q, %q) does not reproduce its inputs: %q, %q", c[0], c[1], a.String(), b.String())
		}
	}
}
