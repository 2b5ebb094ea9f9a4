package contextfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// extract writes the txtar archive testdata/name into a new temp directory
// and returns it (symlinks resolved).
func extract(t *testing.T, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		writeFile(t, filepath.Join(dir, f.Name), string(f.Data))
	}
	return dir
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hierarchyOpts loads testdata/hierarchy.txtar with XDG_CONFIG_HOME set.
func hierarchyOpts(t *testing.T) (Options, string) {
	dir := extract(t, "hierarchy.txtar")
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "config")}
	return Options{
		Root:   filepath.Join(dir, "repo"),
		Cwd:    filepath.Join(dir, "repo", "svc", "api"),
		Home:   filepath.Join(dir, "home"),
		Getenv: func(k string) string { return env[k] },
	}, dir
}

func TestLoadPrecedence(t *testing.T) {
	opts, dir := hierarchyOpts(t)
	s, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Path, Scope string }
	var got []row
	for _, f := range s.Files() {
		rel, _ := filepath.Rel(dir, f.Path)
		got = append(got, row{filepath.ToSlash(rel), f.Scope})
	}
	want := []row{
		{"home/.claude/CLAUDE.md", ScopeUser},
		{"config/grit/AGENTS.md", ScopeUser}, // XDG_CONFIG_HOME honoured
		{"repo/AGENTS.md", ScopeProject},
		{"repo/CLAUDE.md", ScopeProject},
		{"repo/svc/AGENTS.md", ScopeDirectory},
		{"repo/svc/api/CLAUDE.md", ScopeDirectory},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Load files (-want +got):\n%s", d)
	}
	if w := s.Warnings(); len(w) != 0 {
		t.Errorf("Warnings() = %q, want none", w)
	}

	// The rendered section keeps that order: least specific first.
	r := s.Render()
	order := []string{"claude-user", "grit-user", "root-agents", "root-claude", "style: tabs", "svc:", "api:"}
	last := -1
	for _, m := range order {
		i := strings.Index(r, m)
		if i < 0 {
			t.Fatalf("Render() lacks %q:\n%s", m, r)
		}
		if i < last {
			t.Errorf("Render(): %q comes before an earlier layer; want order %q", m, order)
		}
		last = i
	}
	if strings.Contains(r, "web:") {
		t.Errorf("Render() holds web/AGENTS.md, which must wait for a read under web/")
	}
	if !strings.Contains(r, "the later (more specific) one wins") {
		t.Errorf("Render() does not state the precedence rule")
	}
}

func TestForPathLoadsOnce(t *testing.T) {
	opts, _ := hierarchyOpts(t)
	s, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       []string // substrings; nil means ""
		not        []string
	}{
		{"already loaded directory", "svc/api/handler.go", nil, nil},
		{"nested files of a sibling tree", filepath.Join(opts.Root, "web/app/main.ts"), []string{"web: run npm test", "web-app: components", "<system-reminder>"}, nil},
		{"second read under the same tree", "web/app/main.ts", nil, nil},
		{"root file", "go.mod", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := s.ForPath(tc.path)
			if tc.want == nil && got != "" {
				t.Fatalf("ForPath(%q) = %q, want \"\"", tc.path, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("ForPath(%q) = %q, want it to hold %q", tc.path, got, w)
				}
			}
			if i, j := strings.Index(got, "web: run"), strings.Index(got, "web-app:"); i > j {
				t.Errorf("ForPath(%q): web-app/CLAUDE.md before web/AGENTS.md; want outer first", tc.path)
			}
		})
	}
	// Reload forgets the subdirectories: a read under web/ loads them again.
	s.Reload()
	if got := s.ForPath("web/app/main.ts"); !strings.Contains(got, "web-app") {
		t.Errorf("after Reload, ForPath(web/app/main.ts) = %q, want web-app's file again", got)
	}
}

func TestReloadReadsDisk(t *testing.T) {
	opts, _ := hierarchyOpts(t)
	s, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(opts.Root, "AGENTS.md"), "root-agents v2: use make check.\n")
	if strings.Contains(s.Render(), "v2") {
		t.Fatal("Render() changed before Reload")
	}
	s.Reload()
	if !strings.Contains(s.Render(), "root-agents v2") {
		t.Errorf("after Reload, Render() lacks the new AGENTS.md text")
	}
}

func TestImports(t *testing.T) {
	dir := extract(t, "imports.txtar")
	home, root := filepath.Join(dir, "home"), filepath.Join(dir, "repo")
	writeFile(t, filepath.Join(dir, "outside", "secret.md"), "SECRET outside\n")
	s, err := Load(Options{Root: root, Home: home, UserDir: filepath.Join(dir, "nouser")})
	if err != nil {
		t.Fatal(err)
	}
	files := s.Files()
	if len(files) != 1 {
		t.Fatalf("Load: %d files, want 1 (repo/AGENTS.md)", len(files))
	}
	text := files[0].Content
	for _, want := range []string{"relative import", "home import", "depth 1", "depth 5", "cycle-b"} {
		if !strings.Contains(text, want) {
			t.Errorf("expanded AGENTS.md lacks %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"depth 6", "SECRET", "FENCED-IMPORTED", "INLINE-IMPORTED"} {
		if strings.Contains(text, bad) {
			t.Errorf("expanded AGENTS.md holds %q, which must not be imported:\n%s", bad, text)
		}
	}
	if n := strings.Count(text, "relative import"); n != 1 {
		t.Errorf("relative.md imported %d times, want once", n)
	}
	warn := strings.Join(s.Warnings(), "\n")
	for _, want := range []string{"import cycle", "deeper than 5", "outside the home directory", "missing/file.md"} {
		if !strings.Contains(warn, want) {
			t.Errorf("Warnings() lack %q:\n%s", want, warn)
		}
	}
	if strings.Contains(warn, "@alice") {
		t.Errorf("Warnings() complain about the prose mention @alice:\n%s", warn)
	}
}

func TestSizeCap(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "AGENTS.md"), strings.Repeat("é long line of instructions\n", MaxFileBytes/10))
	s, err := Load(Options{Root: root, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	f := s.Files()[0]
	if !f.Truncated || f.Bytes > MaxFileBytes+200 {
		t.Errorf("AGENTS.md: Truncated=%v Bytes=%d, want cut near %d", f.Truncated, f.Bytes, MaxFileBytes)
	}
	if !strings.Contains(f.Content, "[... cut:") {
		t.Errorf("cut AGENTS.md has no visible marker")
	}
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "only the first 40000 were loaded") {
		t.Errorf("Warnings() = %q, want one about the cap", w)
	}
}

func TestSymlinkedClaudeLoadedOnce(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "AGENTS.md"), "shared instructions\n")
	if err := os.Symlink("AGENTS.md", filepath.Join(root, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	s, err := Load(Options{Root: root, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(s.Render(), "shared instructions"); n != 1 {
		t.Errorf("Render() holds the shared text %d times, want 1", n)
	}
}
