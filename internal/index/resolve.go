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
	// byBase maps a file name to the paths that end in it, sorted: C and
	// C++ includes and Java imports are found by path suffix.
	byBase   map[string][]string
	javaDir  map[string]string // directory → its first .java file
	javaDirs []string          // the keys of javaDir, sorted
	rubyLibs []string          // "" and every directory named lib: Ruby's load path
}

func newResolver(root string, paths []string) *resolver {
	r := &resolver{root: root, files: make(map[string]bool, len(paths)), goDir: map[string]string{}, goMod: map[string]string{},
		byBase: map[string][]string{}, javaDir: map[string]string{}}
	for _, p := range paths {
		r.files[p] = true
	}
	roots := map[string]bool{"": true}
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	libs := map[string]bool{"": true}
	for _, p := range sorted {
		r.byBase[path.Base(p)] = append(r.byBase[path.Base(p)], p)
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if path.Base(d) == "lib" {
				libs[d] = true
			}
		}
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
		case strings.HasSuffix(p, ".java"):
			if _, ok := r.javaDir[path.Dir(p)]; !ok {
				r.javaDir[path.Dir(p)] = p
			}
		}
	}
	for d := range r.javaDir {
		r.javaDirs = append(r.javaDirs, d)
	}
	sort.Strings(r.javaDirs)
	for d := range libs {
		r.rubyLibs = append(r.rubyLibs, d)
	}
	sort.Strings(r.rubyLibs)
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
	case "c", "cpp":
		return r.include(importer, imp.Module)
	case "java":
		return r.java(importer, imp)
	case "rust":
		return r.rust(importer, imp)
	case "ruby":
		return r.ruby(importer, imp.Module)
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

// include resolves a C or C++ #include: "x.h" relative to the including
// file, else by path suffix; <x.h> (module written with its brackets) by
// path suffix only, as an -I directory of the repository would.
func (r *resolver) include(importer, mod string) string {
	if inner, ok := strings.CutPrefix(mod, "<"); ok {
		return r.suffix(importer, strings.TrimSuffix(inner, ">"))
	}
	if p := path.Join(path.Dir(importer), mod); r.files[p] {
		return p
	}
	return r.suffix(importer, mod)
}

// suffix returns the indexed file whose path is rel or ends in "/"+rel
// (leading "./" and "../" dropped), the one nearest to importer when several
// do (most leading directories in common, then the first in path order).
func (r *resolver) suffix(importer, rel string) string {
	rel = path.Clean(rel)
	for strings.HasPrefix(rel, "../") {
		rel = rel[len("../"):]
	}
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "/") {
		return ""
	}
	best, bestShared := "", -1
	for _, c := range r.byBase[path.Base(rel)] {
		if c != rel && !strings.HasSuffix(c, "/"+rel) {
			continue
		}
		if n := sharedDirs(importer, c); n > bestShared {
			best, bestShared = c, n
		}
	}
	return best
}

// sharedDirs counts the leading directories paths a and b have in common.
func sharedDirs(a, b string) int {
	n := 0
	for {
		i, j := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			return n
		}
		n++
		a, b = a[i+1:], b[j+1:]
	}
}

// java resolves import a.b.C (module a.b, name C) to a file a/b/C.java under
// any source root, import static a.b.C.m to a/b/C.java, and import a.b.* to
// a file of package directory a/b.
func (r *resolver) java(importer string, imp Import) string {
	dir := strings.ReplaceAll(imp.Module, ".", "/")
	if len(imp.Names) == 1 && imp.Names[0] == "*" {
		// The package's directory, nearest to the importer.
		best, bestShared := "", -1
		sub := "/" + dir // made once: this loop runs over every package directory
		for _, d := range r.javaDirs {
			if d != dir && !strings.HasSuffix(d, sub) {
				continue
			}
			if n := sharedDirs(importer, r.javaDir[d]); n > bestShared {
				best, bestShared = r.javaDir[d], n
			}
		}
		return best
	}
	for _, n := range imp.Names {
		if f := r.suffix(importer, dir+"/"+n+".java"); f != "" {
			return f
		}
	}
	return r.suffix(importer, dir+".java")
}

// rust resolves a use path (module a::b, name C) or a mod declaration
// (module m) to the file of the longest module prefix that exists: crate::
// from the crate root (the nearest directory up with lib.rs or main.rs),
// self:: from the importer's module, super:: from its parent; a bare path
// from the importer's module (a submodule, as mod m; declares) and then the
// crate root. A module m of directory d is d/m.rs or d/m/mod.rs.
func (r *resolver) rust(importer string, imp Import) string {
	segs := strings.Split(imp.Module, "::")
	if len(imp.Names) == 1 && imp.Names[0] != "*" && imp.Names[0] != "self" {
		segs = append(segs, imp.Names[0])
	}
	var bases []string
	switch segs[0] {
	case "crate":
		bases, segs = []string{r.rustCrateRoot(importer)}, segs[1:]
	case "self":
		bases, segs = []string{rustModDir(importer)}, segs[1:]
	case "super":
		d := rustModDir(importer)
		for len(segs) > 0 && segs[0] == "super" {
			d, segs = parentDir(d), segs[1:]
		}
		bases = []string{d}
	default:
		bases = []string{rustModDir(importer), r.rustCrateRoot(importer)}
	}
	for _, b := range bases {
		for n := len(segs); n > 0; n-- {
			m := joinRel(b, strings.Join(segs[:n], "/"))
			if f := r.firstFile(m+".rs", m+"/mod.rs"); f != "" && f != importer {
				return f
			}
		}
		if len(segs) == 0 { // use super::*; the module itself
			cands := []string{joinRel(b, "mod.rs"), joinRel(b, "lib.rs"), joinRel(b, "main.rs")}
			if b != "" {
				cands = append([]string{b + ".rs"}, cands...)
			}
			if f := r.firstFile(cands...); f != importer {
				return f
			}
		}
	}
	return ""
}

// rustModDir is the directory where the submodules of file's module live.
func rustModDir(file string) string {
	dir := parentDir(file)
	switch path.Base(file) {
	case "mod.rs", "lib.rs", "main.rs":
		return dir
	}
	return joinRel(dir, strings.TrimSuffix(path.Base(file), ".rs"))
}

// rustCrateRoot is the nearest directory up from file holding lib.rs or
// main.rs, or the importer's own directory when there is none.
func (r *resolver) rustCrateRoot(file string) string {
	for d := parentDir(file); ; d = parentDir(d) {
		if r.files[joinRel(d, "lib.rs")] || r.files[joinRel(d, "main.rs")] {
			return d
		}
		if d == "" {
			return parentDir(file)
		}
	}
}

// parentDir is path.Dir with "" for the root.
func parentDir(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// ruby resolves require_relative "x" (relative to the importer) and
// require "x" (from the root or a lib directory: Ruby's load path); ".rb"
// is added when missing.
func (r *resolver) ruby(importer, mod string) string {
	if mod == "" {
		return ""
	}
	if !strings.HasSuffix(mod, ".rb") {
		mod += ".rb"
	}
	if p := path.Join(path.Dir(importer), mod); !strings.HasPrefix(p, "../") && r.files[p] {
		return p
	}
	if strings.HasPrefix(mod, "./") || strings.HasPrefix(mod, "../") {
		return ""
	}
	for _, d := range r.rubyLibs {
		if p := joinRel(d, mod); r.files[p] {
			return p
		}
	}
	return ""
}
