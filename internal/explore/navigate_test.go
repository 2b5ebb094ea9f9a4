package explore

import (
	"fmt"
	"strings"
	"testing"
)

func TestFuzzyScore(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		ok         bool
		want       int
	}{
		{"get", "Session.get", true, 3*fuzzyMatch + 2*fuzzyAdjacent + fuzzyBoundary + fuzzyNameStart + fuzzyExactName},
		{"GA", "Session.get_adapter", true, 2*fuzzyMatch + 2*fuzzyBoundary + fuzzyNameStart},
		{"sg", "Session.get", true, 2*fuzzyMatch + 2*fuzzyBoundary + fuzzyNameStart},
		{"xyz", "Session.get", false, 0},
		{"", "Session", false, 0},
		{"toolongpattern", "short", false, 0},
	} {
		got, ok := FuzzyScore(tc.pattern, tc.s)
		if ok != tc.ok || got != tc.want {
			t.Errorf("FuzzyScore(%q, %q) = %d, %v, want %d, %v", tc.pattern, tc.s, got, ok, tc.want, tc.ok)
		}
	}
	// The definition named exactly so beats one that only contains the letters.
	exact, _ := FuzzyScore("send", "Session.send")
	scattered, _ := FuzzyScore("send", "Session.get_adapter")
	if exact <= scattered {
		t.Errorf("send: Session.send scores %d, Session.get_adapter %d, want the name first", exact, scattered)
	}
}

func TestTrimLog(t *testing.T) {
	short := "Traceback (most recent call last):\n  File \"a.py\", line 3, in f\nValueError\n"
	if got, note := TrimLog(short); got != short || note != "" {
		t.Errorf("TrimLog(short) = %q, %q, want it unchanged", got, note)
	}
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "noise line %d of the build log\n", i)
	}
	b.WriteString("Traceback (most recent call last):\n  File \"pkg/mod.py\", line 12, in run\n    helper()\n")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "more noise %d\n", i)
	}
	b.WriteString("ValueError: bad input\n")
	got, note := TrimLog(b.String())
	if !strings.Contains(got, `File "pkg/mod.py", line 12, in run`) || !strings.Contains(got, "    helper()") ||
		!strings.Contains(got, "ValueError: bad input") || strings.Contains(got, "noise line 5 ") || len(got) > 4<<10 {
		t.Errorf("TrimLog(log) kept %d bytes:\n%s", len(got), got)
	}
	if !strings.Contains(note, "trimmed to its 1 stack frames") {
		t.Errorf("note = %q", note)
	}
}

func TestReceiver(t *testing.T) {
	goMethod := &Def{Signature: "func (s *Server) Listen() (net.Listener, error)"}
	for _, tc := range []struct {
		src    string // the call's name starts after the last '|'
		caller *Def
		recv   string
		ok     bool
		self   bool
	}{
		{"self.|get_adapter(", nil, "self", true, true},
		{"adapter.|send(", nil, "adapter", true, false},
		{"super().|__init__(", nil, "super", true, true},
		{"this->|run(", nil, "this", true, true},
		{"s.|serve(", goMethod, "s", true, true},
		{"x.|serve(", goMethod, "x", true, false},
		{"  |helper(", nil, "", false, false},
	} {
		off := strings.LastIndexByte(tc.src, '|')
		src := []byte(tc.src[:off] + tc.src[off+1:])
		recv, ok := receiver(src, off)
		if recv != tc.recv || ok != tc.ok {
			t.Errorf("receiver(%q) = %q, %v, want %q, %v", tc.src, recv, ok, tc.recv, tc.ok)
		}
		if ok && selfLike(recv, tc.caller) != tc.self {
			t.Errorf("selfLike(%q) = %v, want %v", recv, !tc.self, tc.self)
		}
	}
}
