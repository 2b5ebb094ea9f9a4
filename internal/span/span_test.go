package span

import "testing"

func TestLines(t *testing.T) {
	src := []byte("a—b\r\nsecond\n\nlast")
	l := NewLines(src)
	if got := l.Count(); got != 4 {
		t.Fatalf("Count() = %d, want 4", got)
	}
	tests := []struct {
		name string
		off  int
		want Pos
	}{
		{"start", 0, Pos{1, 0}},
		{"after em dash", 4, Pos{1, 4}},
		{"second line", 7, Pos{2, 0}},
		{"empty line", 14, Pos{3, 0}},
		{"last", 15, Pos{4, 0}},
		{"end", len(src), Pos{4, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := l.Pos(tt.off); got != tt.want {
				t.Errorf("Pos(%d) = %v, want %v", tt.off, got, tt.want)
			}
			if got := l.Offset(tt.want); got != tt.off {
				t.Errorf("Offset(%v) = %d, want %d", tt.want, got, tt.off)
			}
		})
	}
	if r := l.LineRange(src, 1); string(src[r.Start:r.End]) != "a—b" {
		t.Errorf("LineRange(1) = %q, want %q", src[r.Start:r.End], "a—b")
	}
}

func TestRel(t *testing.T) {
	tests := []struct {
		in, want string
		outside  bool
	}{
		{"/r/a/b.go", "a/b.go", false},
		{"a/../b.go", "b.go", false},
		{"../x", "", true},
		{"/etc/passwd", "", true},
	}
	for _, tt := range tests {
		got, err := Rel("/r", tt.in)
		if (err != nil) != tt.outside || got != tt.want {
			t.Errorf("Rel(/r, %q) = %q, %v; want %q, outside=%v", tt.in, got, err, tt.want, tt.outside)
		}
	}
}

func TestColumns(t *testing.T) {
	src := []byte("x😀é=1")
	off := len("x😀é")
	if got := Runes(src, off); got != 3 {
		t.Errorf("Runes = %d, want 3", got)
	}
	if got := UTF16(src, off); got != 4 {
		t.Errorf("UTF16 = %d, want 4", got)
	}
}
