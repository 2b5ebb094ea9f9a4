package index

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// resolver maps an import to the repository file it names.
type resolver struct {
	root   string
	files  map[string]bool   // every indexed path
	pyRoot []string          // directories Python packages hang from ("" first)
	goDir  map[string]string // directory → its first non-test .go file
	goMod  map[string]string // directory → module path of its go.mod ("" if none)
}

func newResolver(root string, paths []string) *resolver {
	r := &resolver{root: root, files: make(map[string]bool, len(paths)), goDir: map[string]string{}, goMod: map[string]string{}}
	for _, p := range paths {
		r.files[p] = true
	}
	roots := map[string]bool{"": true}
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	for _, p := range sorted {
		switch {
		case path.Base(p) == "__init__.py":
			top := path.Dir(p)
			for {
				parent := path.Dir(top)
				if parent == "." || !r.files[joinRel(parent, "__init__.py")] {
					break
				}
				top = parent
			}
			if d := path.Dir(top); d != "." {
				roots[d] = true
			}
		case strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go"):
			if _, ok := r.goDir[path.Dir(p)]; !ok {
				r.goDir[path.Dir(p)] = p
			}
		}
	}
	r.pyRoot = append(r.pyRoot, "")
	for d := range roots {
		if d != "" {
			r.pyRoot = append(r.pyRoot, d)
		}
	}
	sort.Strings(r.pyRoot[1:])
	return r
}

// resolve returns the file imp resolves to from importer, or "".
func (r *resolver) resolve(lang, importer string, imp Import) string {
	switch lang {
	case "python":
		return r.python(importer, imp)
	case "go":
		return r.golang(importer, imp.Module)
	case "javascript", "typescript", "tsx":
		return r.js(importer, imp.Module)
	}
	return ""
}

func (r *resolver) python(importer string, imp Import) string {
	mod := imp.Module
	var bases []string
	if strings.HasPrefix(mod, ".") {
		dots := len(mod) - len(strings.TrimLeft(mod, "."))
		base := path.Dir(importer)
		for i := 1; i < dots; i++ {
			base = path.Dir(base)
		}
		if base == "." {
			base = ""
		}
		bases = []string{base}
		mod = mod[dots:]
	} else {
		bases = r.pyRoot
	}
	rel := strings.ReplaceAll(mod, ".", "/")
	for _, b := range bases {
		dir := joinRel(b, rel)
		if len(imp.Names) == 1 && imp.Names[0] != "*" {
			if f := r.firstFile(joinRel(dir, imp.Names[0])+".py", joinRel(joinRel(dir, imp.Names[0]), "__init__.py")); f != "" {
				return f
			}
		}
		if rel == "" {
			if f := r.firstFile(joinRel(b, "__init__.py")); f != "" {
				return f
			}
			continue
		}
		if f := r.firstFile(dir+".py", dir+".pyi", joinRel(dir, "__init__.py")); f != "" {
			return f
		}
	}
	return ""
}

func (r *resolver) firstFile(cands ...string) string {
	for _, c := range cands {
		if r.files[c] {
			return c
		}
	}
	return ""
}

func (r *resolver) golang(importer, imp string) string {
	dir := path.Dir(importer)
	if dir == "." {
		dir = ""
	}
	for {
		if mod := r.goModule(dir); mod != "" {
			if imp == mod {
				return r.goDir[dir]
			}
			if strings.HasPrefix(imp, mod+"/") {
				return r.goDir[joinRel(dir, imp[len(mod)+1:])]
			}
			return ""
		}
		if dir == "" {
			return ""
		}
		dir = path.Dir(dir)
		if dir == "." {
			dir = ""
		}
	}
}

// goModule returns the module path declared by dir/go.mod, or "".
func (r *resolver) goModule(dir string) string {
	if m, ok := r.goMod[dir]; ok {
		return m
	}
	m := ""
	if f, err := os.Open(filepath.Join(r.root, filepath.FromSlash(dir), "go.mod")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
				m = strings.Trim(strings.TrimSpace(rest), `"`)
				break
			}
		}
		f.Close()
	}
	r.goMod[dir] = m
	return m
}

var jsExts = []string{"", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.ts"}

func (r *resolver) js(importer, mod string) string {
	if !strings.HasPrefix(mod, "./") && !strings.HasPrefix(mod, "../") {
		return ""
	}
	p := path.Join(path.Dir(importer), mod)
	if strings.HasPrefix(p, "../") || p == ".." {
		return ""
	}
	for _, e := range jsExts {
		if r.files[p+e] {
			return p + e
		}
	}
	// "./x.js" written for a TypeScript source x.ts.
	if ext := path.Ext(p); ext == ".js" || ext == ".jsx" || ext == ".mjs" {
		base := strings.TrimSuffix(p, ext)
		for _, e := range []string{".ts", ".tsx", ".mts"} {
			if r.files[base+e] {
				return base + e
			}
		}
	}
	for _, e := range jsExts[1:] {
		if r.files[p+"/index"+e] {
			return p + "/index" + e
		}
	}
	return ""
}
