package contextfiles

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestMemoryLoadCaps(t *testing.T) {
	lines := func(n, width int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "- note %d %s\n", i, strings.Repeat("x", width))
		}
		return b.String()
	}
	tests := []struct {
		name      string
		text      string
		wantCut   bool
		wantLast  string // the last note kept
		wantNoted string // a note that must be gone
	}{
		{"small", lines(10, 5), false, "note 10 ", ""},
		{"exactly 200 lines", lines(200, 5), false, "note 200 ", ""},
		{"201 lines", lines(201, 5), true, "note 200 ", "note 201 "},
		{"bytes before lines", lines(150, 300), true, "note 82 ", "note 83 "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Memory{Scope: MemoryProject, Path: filepath.Join(t.TempDir(), "MEMORY.md")}
			if err := m.Write(tc.text); err != nil {
				t.Fatal(err)
			}
			got, cut, err := m.Load()
			if err != nil {
				t.Fatal(err)
			}
			if cut != tc.wantCut {
				t.Errorf("Load() cut = %v, want %v", cut, tc.wantCut)
			}
			if !strings.Contains(got, tc.wantLast) {
				t.Errorf("Load() lacks %q", tc.wantLast)
			}
			if tc.wantNoted != "" && strings.Contains(got, tc.wantNoted) {
				t.Errorf("Load() holds %q, past the cap", tc.wantNoted)
			}
			if cut != strings.Contains(got, "[... memory cut") {
				t.Errorf("Load() marker present = %v, want %v", !cut, cut)
			}
			if body, _, _ := strings.Cut(got, "\n[... memory cut"); len(body) > MemoryMaxBytes || strings.Count(body, "\n") > MemoryMaxLines {
				t.Errorf("Load() kept %d bytes, %d lines; caps are %d, %d", len(body), strings.Count(body, "\n"), MemoryMaxBytes, MemoryMaxLines)
			}
		})
	}
}

func TestMemoryAddAndRender(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	mems, err := Memories(Options{Root: root, UserDir: user, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(mems) != 2 || mems[0].Scope != MemoryUser || mems[1].Path != filepath.Join(root, ".grit", "memory", "MEMORY.md") {
		t.Fatalf("Memories() = %+v, want user then project", mems)
	}
	if s, _ := RenderMemory(mems); s != "" {
		t.Errorf("RenderMemory of missing files = %q, want \"\"", s)
	}
	if err := mems[1].Add("  the tests need\n  a running redis  "); err != nil {
		t.Fatal(err)
	}
	if err := mems[1].Add(""); err == nil {
		t.Errorf("Add(\"\") = nil, want an error")
	}
	text, _ := mems[1].Read()
	if text != "# Memory\n\n- the tests need a running redis\n" {
		t.Errorf("after Add, MEMORY.md = %q", text)
	}
	s, _ := RenderMemory(mems)
	if !strings.Contains(s, "## project memory") || !strings.Contains(s, "- the tests need a running redis") || strings.Contains(s, "user memory") {
		t.Errorf("RenderMemory() = %q, want the project's note only", s)
	}
}
