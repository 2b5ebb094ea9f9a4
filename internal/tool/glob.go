package tool

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"strings"
)

// globCap is the number of paths Glob returns.
const globCap = 100

//go:embed glob.md
var globMD string

var globDesc = render("glob.md", globMD)

// Glob lists files matching a pattern, newest first.
type Glob struct{}

type globInput struct {
	Pattern string `json:"pattern" jsonschema:"Glob, e.g. **/*.go or src/**/*.{ts,tsx}"`
	Path    string `json:"path,omitempty" jsonschema:"Directory to search (default: workspace root)"`
}

func (Glob) Name() string        { return "Glob" }
func (Glob) Description() string { return globDesc() }
func (Glob) Schema() json.RawMessage {
	return rawSchema[globInput](nil)
}

func (t Glob) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (Glob) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in globInput
	if err := decode("Glob", input, &in); err != nil {
		return Result{}, err
	}
	if in.Pattern == "" {
		return Result{}, fixf(nil, "Glob needs a pattern.")
	}
	base := "."
	var err error
	if in.Path != "" {
		if base, err = env.resolve(in.Path); err != nil {
			return Result{}, err
		}
	}
	pattern := in.Pattern
	if strings.HasPrefix(pattern, "/") {
		// An absolute pattern: its literal directory part must be in the workspace.
		rel, err := env.resolve(pattern)
		if err != nil {
			return Result{}, err
		}
		base, pattern = ".", rel
	}
	pats := expandBraces(pattern)
	for _, p := range pats {
		if _, err := path.Match(strings.ReplaceAll(p, "**", "*"), ""); err != nil {
			return Result{}, fixf(err, "bad pattern %q: %v.", in.Pattern, err)
		}
	}
	files, err := listFiles(ctx, env, base)
	if err != nil {
		return Result{}, err
	}
	var hits []string
	for _, f := range files {
		name := f
		if base != "." {
			name = strings.TrimPrefix(f, base+"/")
		}
		for _, p := range pats {
			if matchGlob(p, name) {
				hits = append(hits, f)
				break
			}
		}
	}
	if len(hits) == 0 {
		return Result{Content: "No files found."}, nil
	}
	sortByMTime(env, hits)
	var b strings.Builder
	for i, h := range hits {
		if i == globCap {
			fmt.Fprintf(&b, "[%d of %d files shown, newest first; use a narrower pattern or path]\n", globCap, len(hits))
			break
		}
		b.WriteString(h)
		b.WriteByte('\n')
	}
	return Result{Content: strings.TrimSuffix(b.String(), "\n")}, nil
}

// listFiles lists the regular files under base (relative to the root),
// honouring .gitignore through rg when it is installed, else walking the
// tree through os.Root. Symlinks are not followed; .git and .grit are skipped.
func listFiles(ctx context.Context, env *Env, base string) ([]string, error) {
	if rg, err := exec.LookPath("rg"); err == nil {
		cmd := exec.CommandContext(ctx, rg, "--no-config", "--files", "--hidden", "--glob=!.git", "--glob=!.grit", "--", base)
		cmd.Dir = env.realRoot()
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil || out.Len() > 0 {
			var files []string
			sc := bufio.NewScanner(&out)
			for sc.Scan() {
				files = append(files, strings.TrimPrefix(sc.Text(), "./"))
			}
			return files, nil
		}
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return nil, nil
		}
	}
	r, err := env.openRoot()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var files []string
	err = fs.WalkDir(r.FS(), base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".grit") {
			return fs.SkipDir
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, pathErr(base, err)
	}
	return files, nil
}

// expandBraces expands {a,b} alternatives (nested too): "*.{ts,tsx}" →
// "*.ts", "*.tsx".
func expandBraces(p string) []string {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}
	}
	depth := 0
	var parts []string
	last := open + 1
	for i := open; i < len(p); i++ {
		switch p[i] {
		case '{':
			depth++
		case ',':
			if depth == 1 {
				parts = append(parts, p[last:i])
				last = i + 1
			}
		case '}':
			depth--
			if depth == 0 {
				parts = append(parts, p[last:i])
				var out []string
				for _, alt := range parts {
					out = append(out, expandBraces(p[:open]+alt+p[i+1:])...)
				}
				return out
			}
		}
	}
	return []string{p} // unbalanced: literal
}

// matchGlob matches a slash path against a glob where ** spans any number
// of directories. A pattern without a slash matches the base name at any
// depth, as in .gitignore and ripgrep.
func matchGlob(pattern, name string) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(name))
		return ok
	}
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
