package contextfiles

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/grit-dev/grit/internal/span"
)

// SkillFile is the file that makes a folder a skill.
const SkillFile = "SKILL.md"

// Skill limits, Claude Code's.
const (
	SkillMaxName        = 64
	SkillMaxDescription = 1024
	// skillMaxFiles bounds the file listing of one skill.
	skillMaxFiles = 200
)

var skillName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Skill is one skill as the prompt lists it; its body stays on disk until Body.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Dir         string `json:"dir"`    // absolute
	Source      string `json:"source"` // ".grit/skills", ".claude/skills" or "user"
}

// Skills is the skills of a session, by precedence: the project's
// .grit/skills, then its .claude/skills, then the user's; the first skill of
// a name wins.
type Skills struct {
	List     []Skill
	Warnings []string
}

// SkillDirs returns the folders skills are looked for in, by precedence,
// with their source labels.
func SkillDirs(opts Options) ([][2]string, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	out := [][2]string{
		{filepath.Join(o.Root, ".grit", "skills"), ".grit/skills"},
		{filepath.Join(o.Root, ".claude", "skills"), ".claude/skills"},
	}
	if o.UserDir != "" {
		out = append(out, [2]string{filepath.Join(o.UserDir, "skills"), "user"})
	}
	if o.Home != "" {
		// Claude Code's personal skills are the user's too.
		out = append(out, [2]string{filepath.Join(o.Home, ".claude", "skills"), "user"})
	}
	return out, nil
}

// FindSkills lists the skills of opts. A SKILL.md whose front matter is
// broken is a warning and is left out; a missing folder is no skill.
func FindSkills(opts Options) (*Skills, error) {
	dirs, err := SkillDirs(opts)
	if err != nil {
		return nil, err
	}
	s := &Skills{}
	byName := map[string]Skill{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d[0])
		if err != nil {
			if !os.IsNotExist(err) {
				s.Warnings = append(s.Warnings, fmt.Sprintf("skills in %s not loaded: %v", d[0], err))
			}
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(d[0], e.Name())
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				continue
			}
			data, err := span.ReadFile(filepath.Join(dir, SkillFile), 0)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				s.Warnings = append(s.Warnings, fmt.Sprintf("skill %s: %v", dir, err))
				continue
			}
			fm, _, err := ParseSkill(data)
			if err != nil {
				s.Warnings = append(s.Warnings, fmt.Sprintf("skill %s left out: %v", filepath.Join(dir, SkillFile), err))
				continue
			}
			if prev, ok := byName[fm.Name]; ok {
				s.Warnings = append(s.Warnings, fmt.Sprintf("skill %q in %s is shadowed by the one in %s", fm.Name, dir, prev.Dir))
				continue
			}
			sk := Skill{Name: fm.Name, Description: fm.Description, Dir: dir, Source: d[1]}
			byName[fm.Name] = sk
			s.List = append(s.List, sk)
		}
	}
	return s, nil
}

// SkillFrontMatter is the YAML header of SKILL.md.
type SkillFrontMatter struct {
	Name         string `yaml:"name"`
	Description  string `yaml:"description"`
	License      string `yaml:"license"`
	AllowedTools any    `yaml:"allowed-tools"`
	Metadata     any    `yaml:"metadata"`
	Model        string `yaml:"model"`
	Version      string `yaml:"version"`
}

// ParseSkill splits SKILL.md into its front matter and body. The front
// matter is required, between "---" lines, with a name (lowercase letters,
// digits and hyphens, at most SkillMaxName) and a description (at most
// SkillMaxDescription); unknown keys are an error, so typos show.
func ParseSkill(data []byte) (SkillFrontMatter, string, error) {
	var fm SkillFrontMatter
	text := strings.TrimPrefix(string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))), "\ufeff")
	if !strings.HasPrefix(text, "---\n") {
		return fm, "", fmt.Errorf("no front matter: SKILL.md must start with a line \"---\", then name: and description:, then \"---\"")
	}
	rest := text[len("---\n"):]
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return fm, "", fmt.Errorf("front matter is not closed by a \"---\" line")
	}
	header, body := rest[:end], rest[end+len("\n---"):]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = ""
	}
	if err := decodeFrontMatter(header, &fm); err != nil {
		return fm, "", fmt.Errorf("front matter: %w (expected keys: name, description, license, allowed-tools, metadata, model, version)", err)
	}
	fm.Name, fm.Description = strings.TrimSpace(fm.Name), strings.TrimSpace(fm.Description)
	switch {
	case fm.Name == "":
		return fm, "", fmt.Errorf("front matter has no name")
	case len(fm.Name) > SkillMaxName || !skillName.MatchString(fm.Name):
		return fm, "", fmt.Errorf("name %q is not valid (expected lowercase letters, digits and hyphens, at most %d characters)", fm.Name, SkillMaxName)
	case fm.Description == "":
		return fm, "", fmt.Errorf("front matter has no description (it tells the model when to use the skill)")
	case len(fm.Description) > SkillMaxDescription:
		return fm, "", fmt.Errorf("description is %d characters, over %d", len(fm.Description), SkillMaxDescription)
	}
	return fm, strings.TrimSpace(body), nil
}

// decodeFrontMatter decodes the YAML header strictly (unknown keys are an
// error). Many SKILL.md files in the wild hold a plain "description: Use
// when: ..." that YAML rejects (": " inside a plain scalar); a header of
// only "key: value" lines is then read line by line, each value taken
// verbatim.
func decodeFrontMatter(header string, fm *SkillFrontMatter) error {
	dec := yaml.NewDecoder(strings.NewReader(header))
	dec.KnownFields(true)
	err := dec.Decode(fm)
	if err == nil || err.Error() == "EOF" {
		return nil
	}
	flat := map[string]string{}
	for _, line := range strings.Split(header, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || k != strings.TrimSpace(k) || strings.ContainsAny(k, " \t") {
			return err // not flat: the YAML error is the one to show
		}
		flat[k] = strings.TrimSpace(v)
	}
	*fm = SkillFrontMatter{}
	for k, v := range flat {
		switch k {
		case "name":
			fm.Name = v
		case "description":
			fm.Description = v
		case "license":
			fm.License = v
		case "model":
			fm.Model = v
		case "version":
			fm.Version = v
		case "allowed-tools":
			fm.AllowedTools = v
		default:
			return err
		}
	}
	return nil
}

// Get returns the skill called name.
func (s *Skills) Get(name string) (Skill, bool) {
	for _, sk := range s.List {
		if sk.Name == name {
			return sk, true
		}
	}
	return Skill{}, false
}

// SkillNames lists the skills' names in precedence order.
func (s *Skills) SkillNames() []string {
	out := make([]string, len(s.List))
	for i, sk := range s.List {
		out[i] = sk.Name
	}
	return out
}

// LoadSkill reads the body of the skill called name and lists its other
// files (relative to dir, sorted) without reading them. An unknown name is
// an error naming the known ones.
func (s *Skills) LoadSkill(name string) (body, dir string, files []string, err error) {
	sk, ok := s.Get(name)
	if !ok {
		return "", "", nil, fmt.Errorf("no skill %q (expected one of: %s)", name, strings.Join(s.SkillNames(), ", "))
	}
	data, err := span.ReadFile(filepath.Join(sk.Dir, SkillFile), 0)
	if err != nil {
		return "", "", nil, fmt.Errorf("load skill %s: %w", name, err)
	}
	_, body, err = ParseSkill(data)
	if err != nil {
		return "", "", nil, fmt.Errorf("load skill %s: %w", name, err)
	}
	files, err = sk.Files()
	return body, sk.Dir, files, err
}

// Files lists the skill's files other than SKILL.md, relative to its
// folder, sorted; at most skillMaxFiles.
func (sk Skill) Files() ([]string, error) {
	var out []string
	err := filepath.WalkDir(sk.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != sk.Dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(sk.Dir, p)
		if rel != SkillFile && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, filepath.ToSlash(rel))
		}
		if len(out) >= skillMaxFiles {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list skill %s: %w", sk.Name, err)
	}
	sort.Strings(out)
	return out, nil
}

// Render is the system prompt section listing the skills by name and
// description only, or "" when there are none.
func (s *Skills) Render() string {
	if len(s.List) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Skills\n\nSkills are instructions for particular tasks. When a task matches a skill's description, call the Skill tool with its name first to load its instructions; do not guess them.\n")
	for _, sk := range s.List {
		fmt.Fprintf(&b, "\n- %s: %s", sk.Name, oneLine(sk.Description))
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
