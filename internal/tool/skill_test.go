package tool_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/contextfiles"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/tool"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, tl tool.Tool, env *tool.Env, input string) tool.Result {
	t.Helper()
	res, err := tl.Run(context.Background(), env, json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s(%s): Go error %v, want a result", tl.Name(), input, err)
	}
	return res
}

func TestSkillTool(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".grit/skills/release/SKILL.md"), "---\nname: release\ndescription: Cut a release.\n---\nRun scripts/bump.sh, then tag.\n")
	write(t, filepath.Join(root, ".grit/skills/release/scripts/bump.sh"), "echo secret-script-body\n")
	skills, err := contextfiles.FindSkills(contextfiles.Options{Root: root, Home: t.TempDir(), UserDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	env, err := tool.NewEnv(root, sandbox.NewPlain())
	if err != nil {
		t.Fatal(err)
	}
	sk := tool.Skill{Catalog: skills}
	tests := []struct {
		name, input string
		isErr       bool
		want        []string
		not         []string
	}{
		{"loads the body and lists files", `{"skill":"release"}`, false,
			[]string{"Run scripts/bump.sh, then tag.", ".grit/skills/release/scripts/bump.sh", "not read"},
			[]string{"secret-script-body", "description:"}},
		{"unknown skill names the known ones", `{"skill":"deploy"}`, true, []string{`No skill is called "deploy"`, "release"}, nil},
		{"empty name", `{}`, true, []string{"one of release"}, nil},
		{"bad JSON", `{"skill":`, true, []string{"invalid input"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, sk, env, tc.input)
			if res.IsError != tc.isErr {
				t.Errorf("Skill(%s).IsError = %v, want %v: %s", tc.input, res.IsError, tc.isErr, res.Content)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Content, w) {
					t.Errorf("Skill(%s) = %q, want it to hold %q", tc.input, res.Content, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(res.Content, n) {
					t.Errorf("Skill(%s) = %q, must not hold %q", tc.input, res.Content, n)
				}
			}
		})
	}
	if res := run(t, tool.Skill{Catalog: &contextfiles.Skills{}}, env, `{"skill":"x"}`); !res.IsError || !strings.Contains(res.Content, "no skills") {
		t.Errorf("Skill with no skills = %+v, want an error saying there are none", res)
	}
}
