package contextfiles

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindSkills(t *testing.T) {
	dir := extract(t, "skills.txtar")
	s, err := FindSkills(Options{Root: filepath.Join(dir, "repo"), UserDir: filepath.Join(dir, "user"), Home: dir})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"release", "pdf", "notes"}, s.SkillNames()); d != "" {
		t.Errorf("SkillNames() (-want +got):\n%s", d)
	}
	if sk, _ := s.Get("release"); sk.Source != ".grit/skills" {
		t.Errorf("release comes from %q, want .grit/skills (it shadows .claude/skills)", sk.Source)
	}
	if sk, _ := s.Get("pdf"); sk.Description != "Fill PDF forms\nand extract text." {
		t.Errorf("pdf description = %q, want the YAML block text", sk.Description)
	}
	warn := strings.Join(s.Warnings, "\n")
	for _, want := range []string{"shadowed", `name "Broken Name" is not valid`, "descripton"} {
		if !strings.Contains(warn, want) {
			t.Errorf("Warnings lack %q:\n%s", want, warn)
		}
	}

	// The prompt lists names and descriptions only: no body.
	r := s.Render()
	if !strings.Contains(r, "- pdf: Fill PDF forms and extract text.") {
		t.Errorf("Render() lacks the pdf line:\n%s", r)
	}
	if strings.Contains(r, "BODY-MARKER") {
		t.Errorf("Render() holds a skill body:\n%s", r)
	}

	body, sdir, files, err := s.LoadSkill("release")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "BODY-MARKER-RELEASE") || strings.Contains(body, "description:") {
		t.Errorf("LoadSkill(release) body = %q, want the body without front matter", body)
	}
	if sdir != filepath.Join(dir, "repo", ".grit", "skills", "release") {
		t.Errorf("LoadSkill(release) dir = %q", sdir)
	}
	if d := cmp.Diff([]string{"reference/changelog.md", "scripts/bump.sh"}, files); d != "" {
		t.Errorf("LoadSkill(release) files (-want +got):\n%s", d)
	}
	if _, _, _, err := s.LoadSkill("nope"); err == nil || !strings.Contains(err.Error(), "expected one of: release, pdf, notes") {
		t.Errorf("LoadSkill(nope) error = %v, want one naming the skills", err)
	}
}

func TestParseSkill(t *testing.T) {
	tests := []struct {
		name, in string
		wantName string
		wantBody string
		wantErr  string
	}{
		{"minimal", "---\nname: a-b\ndescription: d\n---\nbody\n", "a-b", "body", ""},
		{"crlf", "---\r\nname: x\r\ndescription: d\r\n---\r\nb\r\n", "x", "b", ""},
		{"no body", "---\nname: x\ndescription: d\n---", "x", "", ""},
		{"no front matter", "# Title\n", "", "", "no front matter"},
		{"unclosed", "---\nname: x\n", "", "", "not closed"},
		{"no description", "---\nname: x\n---\n", "", "", "no description"},
		{"bad yaml", "---\nname: x\ndescription: d\n  nested: [\n---\n", "", "", "front matter"},
		{"colon in a plain description", "---\nname: x\ndescription: Use when: the task says so\n---\nb", "x", "b", ""},
		{"upper case name", "---\nname: X\ndescription: d\n---\n", "", "", "not valid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fm, body, err := ParseSkill([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseSkill(%q) error = %v, want %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil || fm.Name != tc.wantName || body != tc.wantBody {
				t.Errorf("ParseSkill(%q) = %q, %q, %v; want %q, %q", tc.in, fm.Name, body, err, tc.wantName, tc.wantBody)
			}
		})
	}
}
