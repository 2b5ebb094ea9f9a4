package explore

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/index"
)

// Edge is one navigable entry of the Edges tab. For callers and callees,
// Weight counts call sites and Via says how the index linked the call
// (index.ViaClass, ViaFile, ViaImport: resolved; ViaName: a name-only
// match; see siteVia), the weakest among the sites. For file edges, Weight is the index's reference weight.
type Edge struct {
	Path   string   `json:"path"`
	Def    *Def     `json:"def,omitempty"`
	Line   int      `json:"line,omitempty"`
	Weight float64  `json:"weight"`
	Names  []string `json:"names,omitempty"`
	Label  string   `json:"label"`
	Via    string   `json:"via,omitempty"`
}

// ImportEdge is one import of the file with, when it resolves inside the
// repository and names a definition there, that definition.
type ImportEdge struct {
	Import
	Def *Def `json:"def,omitempty"`
}

// Edges is everything that connects a file (and one of its definitions).
type Edges struct {
	Path      string       `json:"path"`
	Def       *Def         `json:"def,omitempty"`
	Imports   []ImportEdge `json:"imports"`
	Refers    []Edge       `json:"refers"`    // files this file refers to
	Importers []Edge       `json:"importers"` // files that refer to this one
	Callers   []Edge       `json:"callers"`   // of Def
	Callees   []Edge       `json:"callees"`   // of Def
}

// Edges returns path's imports and file edges both ways, and, when defID is
// not 0, the callers and callees of that definition with call-site counts.
func (x *Explorer) Edges(ctx context.Context, path string, defID int64) (*Edges, error) {
	r, rel, err := x.resolve(path)
	if err != nil {
		return nil, err
	}
	e := &Edges{Path: rel, Imports: []ImportEdge{}, Refers: []Edge{}, Importers: []Edge{}, Callers: []Edge{}, Callees: []Edge{}}
	imps, err := r.ix.Imports(ctx, rel)
	if err != nil {
		return nil, mapIndexErr(rel, err)
	}
	for _, im := range imps {
		e.Imports = append(e.Imports, ImportEdge{Import: im, Def: importedDef(ctx, r.ix, im)})
	}
	from, err := r.ix.EdgesFrom(ctx, rel)
	if err != nil {
		return nil, mapIndexErr(rel, err)
	}
	for _, fe := range from {
		e.Refers = append(e.Refers, Edge{Path: fe.To, Weight: fe.Weight, Names: fe.Names, Label: fe.To})
	}
	to, err := r.ix.EdgesTo(ctx, rel)
	if err != nil {
		return nil, mapIndexErr(rel, err)
	}
	for _, fe := range to {
		e.Importers = append(e.Importers, Edge{Path: fe.From, Weight: fe.Weight, Names: fe.Names, Label: fe.From})
	}
	if defID == 0 {
		return e, nil
	}
	d, err := r.ix.DefByID(ctx, defID)
	if err != nil {
		return nil, mapIndexErr(fmt.Sprint(defID), err)
	}
	if d.Path != rel {
		return nil, fmt.Errorf("%w: definition %d is in %s, not %s", ErrBadRequest, defID, d.Path, rel)
	}
	e.Def = &d
	sv := newSiteVia(ctx, r)
	if e.Callers, err = callers(ctx, r.ix, d, sv); err != nil {
		return nil, mapIndexErr(d.QName, err)
	}
	if e.Callees, err = callees(ctx, r.ix, d, sv); err != nil {
		return nil, mapIndexErr(d.QName, err)
	}
	return e, nil
}

// callers groups the call sites that resolve to d by calling definition;
// each group's Line is its first call site, which the page opens, and its
// Via the weakest link among its sites.
func callers(ctx context.Context, ix *index.Index, d Def, sv *siteVia) ([]Edge, error) {
	calls, err := ix.Callers(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	type key struct {
		path string
		id   int64
	}
	group := map[key]*Edge{}
	var order []key
	for _, c := range calls {
		k := key{c.Path, c.CallerID}
		g, ok := group[k]
		if !ok {
			label := c.Caller
			if label == "" {
				label = "(module level)"
			}
			g = &Edge{Path: c.Path, Line: c.Line, Label: label}
			if c.CallerID != 0 {
				if cd, err := ix.DefByID(ctx, c.CallerID); err == nil {
					g.Def = &cd
				}
			}
			group[k] = g
			order = append(order, k)
		}
		g.Weight++
		g.Via = weaker(g.Via, sv.of(c, g.Def, d))
	}
	out := make([]Edge, 0, len(order))
	for _, k := range order {
		out = append(out, *group[k])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	return out, nil
}

// callees groups d's resolved call sites by the definition they reach.
func callees(ctx context.Context, ix *index.Index, d Def, sv *siteVia) ([]Edge, error) {
	calls, err := ix.Calls(ctx, d.Path)
	if err != nil {
		return nil, err
	}
	group := map[int64]*Edge{}
	var order []int64
	for _, c := range calls {
		if c.CallerID != d.ID || c.CalleeID == 0 {
			continue
		}
		g, ok := group[c.CalleeID]
		if !ok {
			callee, err := ix.DefByID(ctx, c.CalleeID)
			if err != nil {
				continue // removed by a concurrent update
			}
			g = &Edge{Path: callee.Path, Def: &callee, Line: callee.StartLine, Label: callee.QName}
			group[c.CalleeID] = g
			order = append(order, c.CalleeID)
		}
		g.Weight++
		g.Via = weaker(g.Via, sv.of(c, &d, *g.Def))
	}
	out := make([]Edge, 0, len(order))
	for _, id := range order {
		out = append(out, *group[id])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	return out, nil
}

// viaRank orders the links from strongest to weakest.
var viaRank = map[string]int{index.ViaClass: 1, index.ViaFile: 2, index.ViaImport: 3, index.ViaName: 4}

// weaker returns the weaker of two links ("" is none yet).
func weaker(a, b string) string {
	if viaRank[b] > viaRank[a] {
		return b
	}
	return a
}

// siteVia says how one call site was linked: index.ResolvedVia, then a
// look at the call's receiver, which the index does not keep. A call on
// another object (adapter.send()) that the index linked to a method of the
// caller's class or a definition of its file matched by name only; on
// self, this, cls, super or a Go method's receiver it is what it says.
type siteVia struct {
	ctx      context.Context
	r        *loadedRepo
	imported func(string) map[string]bool
	src      map[string][]byte
}

func newSiteVia(ctx context.Context, r *loadedRepo) *siteVia {
	return &siteVia{ctx: ctx, r: r, imported: importsOf(ctx, r.ix), src: map[string][]byte{}}
}

func (sv *siteVia) of(c index.Call, caller *Def, callee Def) string {
	parent := ""
	if caller != nil {
		parent = caller.Parent
	}
	via := index.ResolvedVia(c.Path, parent, callee, sv.imported(c.Path))
	if via != index.ViaClass && via != index.ViaFile {
		return via
	}
	src, ok := sv.src[c.Path]
	if !ok {
		src, _ = readConfined(sv.r.fsys, c.Path) // unreadable: no receiver seen
		sv.src[c.Path] = src
	}
	if recv, ok := receiver(src, c.Offset); ok && !selfLike(recv, caller) {
		return index.ViaName
	}
	return via
}

// receiver returns the identifier before ".", "->" or "::" in front of the
// name at off ("adapter" in adapter.send), "super" for super().x, and
// false for a bare call.
func receiver(src []byte, off int) (string, bool) {
	if off <= 0 || off > len(src) {
		return "", false
	}
	i := off
	switch {
	case src[i-1] == '.':
		i--
	case i >= 2 && (string(src[i-2:i]) == "->" || string(src[i-2:i]) == "::"):
		i -= 2
	default:
		return "", false
	}
	if i >= 2 && string(src[i-2:i]) == "()" {
		i -= 2 // super().x
	}
	end := i
	for i > 0 && isIdent(src[i-1]) {
		i--
	}
	return string(src[i:end]), true
}

func isIdent(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z'
}

// selfLike reports whether recv names the caller's own object.
func selfLike(recv string, caller *Def) bool {
	switch recv {
	case "self", "this", "cls", "super", "Self", "static", "parent":
		return true
	}
	if caller == nil {
		return false
	}
	// A Go method's receiver: "func (s *Server) Name(".
	if sig, ok := strings.CutPrefix(caller.Signature, "func ("); ok {
		if name, _, ok := strings.Cut(sig, " "); ok && name == recv {
			return true
		}
	}
	return false
}

// importsOf returns a memoized lookup of the repository files a file
// imports; a file whose imports cannot be read imports nothing.
func importsOf(ctx context.Context, ix *index.Index) func(string) map[string]bool {
	memo := map[string]map[string]bool{}
	return func(path string) map[string]bool {
		if m, ok := memo[path]; ok {
			return m
		}
		m := map[string]bool{}
		imps, _ := ix.Imports(ctx, path)
		for _, im := range imps {
			if im.Resolved != "" {
				m[im.Resolved] = true
			}
		}
		memo[path] = m
		return m
	}
}

// importedDef is the definition an import binds: the first imported name
// defined at the top level of the file the import resolves to. Nil for a
// module import, an external module, or a name the file does not define.
func importedDef(ctx context.Context, ix *index.Index, im Import) *Def {
	if im.Resolved == "" || len(im.Names) == 0 {
		return nil
	}
	defs, err := ix.Symbols(ctx, im.Resolved)
	if err != nil {
		return nil
	}
	for _, n := range im.Names {
		for _, d := range defs {
			if d.Name == n && d.Parent == "" {
				return &d
			}
		}
	}
	return nil
}

// Ref is one identifier of a file that the index knows: a definition's
// name, a call site, or a name an import binds. Start and End are byte
// offsets in the file. Def is where a click leads; Via says how a call was
// linked (index.ViaName is a name-only match); an unresolved call has no
// Def and Candidates definitions of its name elsewhere.
type Ref struct {
	Start      int    `json:"start"`
	End        int    `json:"end"`
	Line       int    `json:"line"`
	Name       string `json:"name"`
	Kind       string `json:"kind"` // def, call, import
	Def        *Def   `json:"def,omitempty"`
	Path       string `json:"path,omitempty"` // an import of a module: its file
	Via        string `json:"via,omitempty"`
	Candidates int    `json:"candidates,omitempty"`
}

// RefsResult is /api/refs' answer, refs in file order.
type RefsResult struct {
	Path string `json:"path"`
	Refs []Ref  `json:"refs"`
}

// Refs lists the identifiers of path that the index can link: what the
// whole-file view makes clickable.
func (x *Explorer) Refs(ctx context.Context, path string) (*RefsResult, error) {
	r, rel, err := x.resolve(path)
	if err != nil {
		return nil, err
	}
	src, err := readConfined(r.fsys, rel)
	if err != nil {
		return nil, err
	}
	syms, err := r.ix.Symbols(ctx, rel)
	if err != nil {
		return nil, mapIndexErr(rel, err)
	}
	out := &RefsResult{Path: rel, Refs: []Ref{}}
	byID := map[int64]*Def{}
	for i := range syms {
		d := &syms[i]
		byID[d.ID] = d
		out.Refs = append(out.Refs, Ref{Start: d.NameStart, End: d.NameEnd, Line: d.StartLine, Name: d.Name, Kind: "def", Def: d})
	}
	if err := x.callRefs(ctx, r, rel, src, byID, out); err != nil {
		return nil, err
	}
	imps, err := r.ix.Imports(ctx, rel)
	if err != nil {
		return nil, mapIndexErr(rel, err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	set, err := r.defs.set(ctx, r.ix)
	if err != nil {
		return nil, err
	}
	top := func(path, name string) *Def { return set.top[path][name] }
	for _, im := range imps {
		out.Refs = append(out.Refs, importRefs(im, lines, top)...)
	}
	sort.SliceStable(out.Refs, func(i, j int) bool { return out.Refs[i].Start < out.Refs[j].Start })
	return out, nil
}

// callRefs adds path's call sites: resolved ones with their definition and
// how they were linked, unresolved ones with the count of same-named
// definitions (a finder can list them, nothing claims which is meant).
func (x *Explorer) callRefs(ctx context.Context, r *loadedRepo, rel string, src []byte, local map[int64]*Def, out *RefsResult) error {
	calls, err := r.ix.Calls(ctx, rel)
	if err != nil {
		return mapIndexErr(rel, err)
	}
	set, err := r.defs.set(ctx, r.ix)
	if err != nil {
		return err
	}
	byName, byID := set.byName, set.byID
	sv := newSiteVia(ctx, r)
	sv.src[rel] = src
	for _, c := range calls {
		end := c.Offset + len(c.Callee)
		if end > len(src) || string(src[c.Offset:end]) != c.Callee {
			continue // the file changed since it was indexed
		}
		ref := Ref{Start: c.Offset, End: end, Line: c.Line, Name: c.Callee, Kind: "call"}
		if d := byID[c.CalleeID]; c.CalleeID != 0 && d != nil {
			callee := *d
			ref.Def = &callee
			ref.Via = sv.of(c, local[c.CallerID], callee)
		} else if ref.Candidates = byName[c.Callee]; ref.Candidates == 0 {
			continue // a builtin or a library's: nothing here to go to
		}
		out.Refs = append(out.Refs, ref)
	}
	return nil
}

// importRefs finds the names an import binds on its line (the index keeps
// the line, not their offsets) and links each to its definition, or to the
// resolved module file.
func importRefs(im Import, lines [][]byte, top func(path, name string) *Def) []Ref {
	if im.Resolved == "" || im.Line < 1 || im.Line > len(lines) {
		return nil
	}
	off := 0
	for _, l := range lines[:im.Line-1] {
		off += len(l)
	}
	line := lines[im.Line-1]
	var out []Ref
	for _, n := range im.Names {
		i := wordIndex(line, n)
		if i < 0 {
			continue
		}
		ref := Ref{Start: off + i, End: off + i + len(n), Line: im.Line, Name: n, Kind: "import", Path: im.Resolved, Via: index.ViaImport}
		if d := top(im.Resolved, n); d != nil {
			c := *d
			ref.Def = &c
		}
		out = append(out, ref)
	}
	return out
}

// wordIndex is the offset of the first whole-word occurrence of w in line, or -1.
func wordIndex(line []byte, w string) int {
	for from := 0; ; {
		i := bytes.Index(line[from:], []byte(w))
		if i < 0 || w == "" {
			return -1
		}
		i += from
		if (i == 0 || !isIdent(line[i-1])) && (i+len(w) == len(line) || !isIdent(line[i+len(w)])) {
			return i
		}
		from = i + 1
	}
}
