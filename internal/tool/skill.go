package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

//go:embed skill.md
var skillMD string

var skillDesc = render("skill.md", skillMD)

// SkillCatalog is where the Skill tool finds skills (contextfiles.Skills
// implements it). LoadSkill returns the body of SKILL.md without its front
// matter, the skill's folder, and its other files relative to that folder.
type SkillCatalog interface {
	SkillNames() []string
	LoadSkill(name string) (body, dir string, files []string, err error)
}

// Skill loads a skill's instructions on demand: the system prompt lists
// only names and descriptions, so a skill costs its tokens only when used.
type Skill struct {
	Catalog SkillCatalog
}

type skillInput struct {
	Skill string `json:"skill" jsonschema:"The skill's name, as listed in the system prompt"`
}

func (Skill) Name() string        { return "Skill" }
func (Skill) Description() string { return skillDesc() }
func (Skill) Schema() json.RawMessage {
	return rawSchema[skillInput](nil)
}

func (t Skill) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(env, input))
}

func (t Skill) run(env *Env, input json.RawMessage) (Result, error) {
	var in skillInput
	if err := decode("Skill", input, &in); err != nil {
		return Result{}, err
	}
	var names []string
	if t.Catalog != nil {
		names = t.Catalog.SkillNames()
	}
	name := strings.TrimSpace(in.Skill)
	known := false
	for _, n := range names {
		known = known || n == name
	}
	switch {
	case len(names) == 0:
		return Result{}, fixf(nil, "There are no skills in this session. Skills are folders with a SKILL.md in .grit/skills/, .claude/skills/ or ~/.config/grit/skills/.")
	case name == "":
		return Result{}, fixf(nil, "Skill needs the name of a skill: one of %s.", strings.Join(names, ", "))
	case !known:
		return Result{}, fixf(nil, "No skill is called %q. Available skills: %s.", name, strings.Join(names, ", "))
	}
	body, dir, files, err := t.Catalog.LoadSkill(name)
	if err != nil {
		return Result{}, err
	}
	shown := dir
	if env != nil {
		if rel, err := filepath.Rel(env.realRoot(), dir); err == nil && !strings.HasPrefix(rel, "..") {
			shown = filepath.ToSlash(rel)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Skill %q (folder %s):\n\n%s\n", name, shown, strings.TrimSpace(body))
	if len(files) > 0 {
		b.WriteString("\nFiles of this skill (not read; read or run one only when the instructions call for it):\n")
		for _, f := range files {
			fmt.Fprintf(&b, "- %s\n", filepath.ToSlash(filepath.Join(shown, f)))
		}
	}
	return Result{Content: strings.TrimRight(b.String(), "\n")}, nil
}
