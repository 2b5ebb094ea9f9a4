package oracle

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
)

// ParseFunc parses one file into its definitions (app wires the tree-sitter
// parser; this package imports none).
type ParseFunc func(ctx context.Context, path string, src []byte) ([]index.Def, error)

// GoldFile is one file of a gold patch: its bytes before and after, and the
// definitions of each side.
type GoldFile struct {
	Path      string
	Lang      string
	Pre, Post []byte // Pre nil: the patch creates the file
	PreDefs   []index.Def
	PostDefs  []index.Def
	// lineChanges caches the runs of changed lines (changes).
	lineChanges []edit.LineChange
}

// Gold is what the oracle knows: the post-patch text of every file the patch
// changes. Who may see which part of it is the Oracle's business.
type Gold struct {
	Files map[string]*GoldFile
	Order []string // paths in patch order
}

// NewGold applies patch to the files read by pre (nil, nil for a file that
// does not exist) and parses both sides. Only paths keep selects are kept.
func NewGold(ctx context.Context, patch string, keep func(path string) bool, pre func(path string) ([]byte, error), parse ParseFunc) (*Gold, error) {
	fps, err := ParsePatch(patch)
	if err != nil {
		return nil, err
	}
	g := &Gold{Files: map[string]*GoldFile{}}
	for _, fp := range fps {
		path := fp.New
		if path == "" || !keep(path) {
			continue // a deleted file, or one not compared
		}
		var src []byte
		if fp.Old != "" {
			if src, err = pre(fp.Old); err != nil {
				return nil, fmt.Errorf("gold: read %s at the base commit: %w", fp.Old, err)
			}
		}
		post, err := fp.Apply(src)
		if err != nil {
			return nil, fmt.Errorf("gold: %w", err)
		}
		gf := &GoldFile{Path: path, Pre: src, Post: post}
		if fp.Old != "" {
			gf.PreDefs, _ = parse(ctx, path, src)
		}
		gf.PostDefs, _ = parse(ctx, path, post)
		for _, d := range append(gf.PreDefs, gf.PostDefs...) {
			gf.Lang = d.Lang
			break
		}
		g.Files[path] = gf
		g.Order = append(g.Order, path)
	}
	return g, nil
}

func isFunc(d index.Def) bool { return d.Kind == index.KindFunction || d.Kind == index.KindMethod }

// text is d's bytes in src.
func text(src []byte, d index.Def) string {
	if d.Start < 0 || d.End > len(src) || d.Start > d.End {
		return ""
	}
	return string(src[d.Start:d.End])
}

// occurrence is d's place among defs of the same QName (overloads, redefinitions).
func occurrence(defs []index.Def, d index.Def) int {
	n := 0
	for _, o := range defs {
		if o.QName == d.QName && o.Kind == d.Kind {
			if o.Start == d.Start {
				return n
			}
			n++
		}
	}
	return -1
}

// counterpart is the definition of the other side with d's QName, kind and
// occurrence.
func counterpart(from, to []index.Def, d index.Def) (index.Def, bool) {
	k := occurrence(from, d)
	n := 0
	for _, o := range to {
		if o.QName == d.QName && o.Kind == d.Kind {
			if n == k {
				return o, true
			}
			n++
		}
	}
	return index.Def{}, false
}

// Edited lists the file's functions and methods that exist before the patch
// and whose text it changes (a nested function and the one holding it both),
// in file order.
func (gf *GoldFile) Edited() []index.Def {
	var out []index.Def
	for _, d := range gf.PreDefs {
		if !isFunc(d) {
			continue
		}
		p, ok := counterpart(gf.PreDefs, gf.PostDefs, d)
		if !ok || text(gf.Pre, d) != text(gf.Post, p) {
			out = append(out, d)
		}
	}
	return out
}

// PostOf is d's text after the patch, and false when the patch removes d or
// leaves it as it is.
func (gf *GoldFile) PostOf(d index.Def) (string, bool) {
	p, ok := counterpart(gf.PreDefs, gf.PostDefs, d)
	if !ok {
		return "", false
	}
	t := text(gf.Post, p)
	return t, t != text(gf.Pre, d)
}

// Added lists the definitions the patch adds (their QName is new, or there
// are more of them), with the definition before each in the same scope ("" if
// it is the first).
func (gf *GoldFile) Added() []AddedDef {
	var out []AddedDef
	for i, d := range gf.PostDefs {
		if _, ok := counterpart(gf.PostDefs, gf.PreDefs, d); ok {
			continue
		}
		if d.Parent != "" && isAddedParent(gf, d.Parent) {
			continue // inside a new definition: it comes with its parent
		}
		a := AddedDef{Def: d, Text: text(gf.Post, d)}
		for j := i - 1; j >= 0; j-- {
			o := gf.PostDefs[j]
			if o.Parent == d.Parent && o.End <= d.Start {
				if _, ok := counterpart(gf.PostDefs, gf.PreDefs, o); ok {
					a.After = o.Name
				}
				break
			}
		}
		out = append(out, a)
	}
	return out
}

func isAddedParent(gf *GoldFile, qname string) bool {
	for _, d := range gf.PostDefs {
		if d.QName == qname {
			_, ok := counterpart(gf.PostDefs, gf.PreDefs, d)
			return !ok
		}
	}
	return false
}

// AddedDef is a definition the patch adds.
type AddedDef struct {
	Def   index.Def
	Text  string
	After string // the existing definition of its scope it follows; "" if none
}

var importLineRE = regexp.MustCompile(`^(import\s|from\s+\S+\s+import\s|use\s|pub use\s|#include\s|const\s+\w+\s*=\s*require\()`)

// AddedImports are the top-level import lines the patch adds.
func (gf *GoldFile) AddedImports() []string {
	pre := map[string]bool{}
	for _, l := range strings.Split(string(gf.Pre), "\n") {
		pre[strings.TrimSpace(l)] = true
	}
	var out []string
	for _, l := range strings.Split(string(gf.Post), "\n") {
		t := strings.TrimRight(l, " \t\r")
		if t != l || pre[strings.TrimSpace(l)] || !importLineRE.MatchString(t) || opensBracket(t) {
			continue // an opening line of a longer statement is no import line alone: a region takes it
		}
		out = append(out, t)
	}
	return out
}

// opensBracket reports whether line leaves a bracket open.
func opensBracket(line string) bool {
	return strings.Count(line, "(")+strings.Count(line, "{")+strings.Count(line, "[") >
		strings.Count(line, ")")+strings.Count(line, "}")+strings.Count(line, "]")
}

// InFunctionsOnly reports whether replacing the edited functions by their
// post-patch text turns Pre into Post, comments and whitespace aside: the
// whole change is inside existing functions.
func (gf *GoldFile) InFunctionsOnly() bool {
	if gf.Pre == nil {
		return false
	}
	type rep struct {
		start, end int
		text       string
	}
	var reps []rep
	for _, d := range gf.Edited() {
		t, ok := gf.PostOf(d)
		if !ok {
			return false // removed
		}
		reps = append(reps, rep{d.Start, d.End, t})
	}
	sort.Slice(reps, func(i, j int) bool { return reps[i].start < reps[j].start })
	var b strings.Builder
	pos := 0
	for _, r := range reps {
		if r.start < pos {
			continue // nested in one already replaced
		}
		b.Write(gf.Pre[pos:r.start])
		b.WriteString(r.text)
		pos = r.end
	}
	b.Write(gf.Pre[pos:])
	return Equivalent(gf.Lang, []byte(b.String()), gf.Post)
}
