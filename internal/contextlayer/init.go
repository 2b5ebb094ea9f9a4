package contextlayer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/index"
)

// InitReport is what `grit init` found, and the AGENTS.md it writes.
type InitReport struct {
	Path        string       `json:"path"`
	Files       int          `json:"files"`
	Languages   []LangCount  `json:"languages"`
	Dirs        []DirSummary `json:"dirs"`
	Test        string       `json:"test_command,omitempty"`
	Build       string       `json:"build_command,omitempty"`
	EntryPoints []string     `json:"entry_points"`
	Text        string       `json:"text"`
	Written     bool         `json:"written"`
	Stats       index.Stats  `json:"index"`
}

// LangCount is a language and its file count.
type LangCount struct {
	Lang  string `json:"lang"`
	Files int    `json:"files"`
}

// DirSummary is one top-level directory: its files and languages.
type DirSummary struct {
	Dir       string   `json:"dir"`
	Files     int      `json:"files"`
	Languages []string `json:"languages"`
}

// ErrExists means grit init would overwrite a file.
var ErrExists = errors.New("file exists")

// InitAgentsMD indexes root and writes a starting AGENTS.md from what the
// index knows: layout, languages, the test and build commands and the entry
// points. An existing AGENTS.md is kept unless force (ErrExists); with
// dryRun nothing is written.
//
// update opens root's index and brings it up to date (the composition root
// supplies it with its parser).
func InitAgentsMD(ctx context.Context, root string, force, dryRun bool, update func(ctx context.Context, root string) (*index.Index, index.Stats, error)) (InitReport, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return InitReport{}, err
	}
	rep := InitReport{Path: filepath.Join(abs, "AGENTS.md")}
	if _, err := os.Stat(rep.Path); err == nil && !force && !dryRun {
		return rep, fmt.Errorf("%s: %w (pass --force to replace it)", rep.Path, ErrExists)
	}
	ix, st, err := update(ctx, abs)
	if err != nil {
		return rep, fmt.Errorf("index %s: %w", abs, err)
	}
	defer ix.Close()
	rep.Stats = st
	files, err := ix.Files(ctx)
	if err != nil {
		return rep, err
	}
	rep.Files = len(files)
	langs := map[string]int{}
	dirs := map[string]*DirSummary{}
	dirLangs := map[string]map[string]bool{}
	for _, f := range files {
		langs[f.Lang]++
		top := "."
		if i := strings.IndexByte(f.Path, '/'); i > 0 {
			top = f.Path[:i]
		}
		d := dirs[top]
		if d == nil {
			d = &DirSummary{Dir: top}
			dirs[top], dirLangs[top] = d, map[string]bool{}
		}
		d.Files++
		dirLangs[top][f.Lang] = true
	}
	for l, n := range langs {
		rep.Languages = append(rep.Languages, LangCount{l, n})
	}
	sort.Slice(rep.Languages, func(i, j int) bool {
		a, b := rep.Languages[i], rep.Languages[j]
		return a.Files > b.Files || a.Files == b.Files && a.Lang < b.Lang
	})
	for name, d := range dirs {
		d.Languages = sortedSet(dirLangs[name])
		rep.Dirs = append(rep.Dirs, *d)
	}
	sort.Slice(rep.Dirs, func(i, j int) bool { return rep.Dirs[i].Dir < rep.Dirs[j].Dir })
	rep.Test = fix.DetectTest(abs)
	rep.Build = detectBuild(abs)
	rep.EntryPoints = entryPoints(ctx, ix, files)
	rep.Text = renderAgentsMD(filepath.Base(abs), rep)
	if dryRun {
		return rep, nil
	}
	if err := edit.WriteFileAtomic(rep.Path, []byte(rep.Text), 0o644); err != nil {
		return rep, fmt.Errorf("write %s: %w", rep.Path, err)
	}
	rep.Written = true
	return rep, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// detectBuild guesses the build command by marker files; "" if none.
func detectBuild(root string) string {
	has := func(name string) bool { _, err := os.Stat(filepath.Join(root, name)); return err == nil }
	switch {
	case has("go.mod"):
		return "go build ./..."
	case has("Cargo.toml"):
		return "cargo build"
	case has("package.json"):
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if b, err := os.ReadFile(filepath.Join(root, "package.json")); err == nil && json.Unmarshal(b, &pkg) == nil && pkg.Scripts["build"] != "" {
			return "npm run build"
		}
		return "npm install"
	case has("Makefile"):
		return "make"
	case has("pyproject.toml"), has("setup.py"):
		return "python3 -m pip install -e ."
	}
	return ""
}

// entryPoints lists the program entry points the index and the layout
// show: Go and Rust main functions, Python __main__.py and main scripts.
func entryPoints(ctx context.Context, ix *index.Index, files []index.File) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if defs, err := ix.Lookup(ctx, "main"); err == nil {
		for _, d := range defs {
			if d.Kind == index.KindFunction && d.Parent == "" && (d.Lang == "go" || d.Lang == "rust" || d.Lang == "c" || d.Lang == "cpp") {
				add(d.Path)
			}
		}
	}
	for _, f := range files {
		switch path.Base(f.Path) {
		case "__main__.py", "manage.py":
			add(f.Path)
		case "main.py", "app.py", "cli.py":
			if !strings.Contains(f.Path, "/") {
				add(f.Path)
			}
		}
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// maxInitDirs bounds the layout section of a generated AGENTS.md.
const maxInitDirs = 25

func renderAgentsMD(name string, r InitReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# AGENTS.md — %s\n\nInstructions for coding agents working in this repository (written by `grit init` from the index; edit freely).\n\n", name)
	b.WriteString("## Commands\n\n")
	if r.Test != "" {
		fmt.Fprintf(&b, "- Test: `%s` — run it after every change and before finishing.\n", r.Test)
	} else {
		b.WriteString("- Test: no test command detected; write the one to use here.\n")
	}
	if r.Build != "" {
		fmt.Fprintf(&b, "- Build: `%s`\n", r.Build)
	}
	b.WriteString("\n## Languages\n\n")
	for _, l := range r.Languages {
		fmt.Fprintf(&b, "- %s: %d files\n", l.Lang, l.Files)
	}
	b.WriteString("\n## Layout\n\n")
	for i, d := range r.Dirs {
		if i == maxInitDirs {
			fmt.Fprintf(&b, "- ... %d more directories\n", len(r.Dirs)-maxInitDirs)
			break
		}
		dir := d.Dir + "/"
		if d.Dir == "." {
			dir = "(root)"
		}
		fmt.Fprintf(&b, "- `%s` — %d files (%s)\n", dir, d.Files, strings.Join(d.Languages, ", "))
	}
	if len(r.EntryPoints) > 0 {
		b.WriteString("\n## Entry points\n\n")
		for _, e := range r.EntryPoints {
			fmt.Fprintf(&b, "- `%s`\n", e)
		}
	}
	b.WriteString("\n## Conventions\n\n- Follow the existing style of the file you edit; keep changes small.\n- Read a file before editing it; run the tests after.\n")
	return b.String()
}
