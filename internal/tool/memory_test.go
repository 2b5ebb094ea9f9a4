package tool_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/contextfiles"
	"github.com/grit-dev/grit/internal/tool"
)

func TestMemoryTool(t *testing.T) {
	dir := t.TempDir()
	project := contextfiles.ProjectMemory(dir)
	user := contextfiles.UserMemory(filepath.Join(dir, "user"))
	m := tool.Memory{Project: project, User: user}
	steps := []struct {
		input   string
		isErr   bool
		want    string // in the result
		project string // the project file after the step ("" = unchanged check skipped)
	}{
		{`{"command":"view"}`, false, "project memory is empty", ""},
		{`{"command":"add","text":"tests need redis"}`, false, "Updated the project memory (add)", "# Memory\n\n- tests need redis\n"},
		{`{"command":"add","text":"use make check"}`, false, "add", "# Memory\n\n- tests need redis\n- use make check\n"},
		{`{"command":"add"}`, true, "add needs text", ""},
		{`{"command":"replace","old_text":"redis","text":"redis 7"}`, false, "replace", "# Memory\n\n- tests need redis 7\n- use make check\n"},
		{`{"command":"replace","old_text":"postgres","text":"x"}`, true, "not found", ""},
		{`{"command":"replace","old_text":"e","text":"x"}`, true, "occurs", ""},
		{`{"command":"remove","old_text":"make check"}`, false, "remove", "# Memory\n\n- tests need redis 7\n"},
		{`{"command":"view"}`, false, "- tests need redis 7", ""},
		{`{"command":"add","text":"prefers tabs","scope":"user"}`, false, "user memory", "# Memory\n\n- tests need redis 7\n"},
		{`{"command":"delete"}`, true, "expected: view, add, replace, remove", ""},
		{`{"command":"view","scope":"team"}`, true, "expected: project, user", ""},
	}
	for _, s := range steps {
		res := run(t, m, nil, s.input)
		if res.IsError != s.isErr || !strings.Contains(res.Content, s.want) {
			t.Errorf("Memory(%s) = %+v, want IsError=%v and %q", s.input, res, s.isErr, s.want)
		}
		if s.project != "" {
			if got, _ := project.Read(); got != s.project {
				t.Errorf("after Memory(%s), project MEMORY.md = %q, want %q", s.input, got, s.project)
			}
		}
	}
	if got, _ := user.Read(); got != "# Memory\n\n- prefers tabs\n" {
		t.Errorf("user MEMORY.md = %q", got)
	}
	if tool.KindOf(m) != tool.KindEdit {
		t.Errorf("KindOf(Memory) = %v, want KindEdit (it writes files)", tool.KindOf(m))
	}
}
