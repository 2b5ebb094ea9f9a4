package treesitter

/*
#include <stdlib.h>
#include "walk.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// walker is a language's patterns as the generic walk runs them (C
// memory, kept for the process), and the query it stands for: capture
// names, roles and predicates, numbered as the walk emits them.
type walker struct {
	c *C.grit_walker
	q *query
}

// walkerFor compiles l's query for the generic walk once; nil with an
// error when the query uses what the walk does not know.
func (l *language) walkerFor() (*walker, error) {
	l.genericOnce.Do(func() {
		src, err := queryFS.ReadFile("queries/" + l.query + ".scm")
		if err == nil {
			l.generic, err = buildWalker(l, string(src))
		}
		if err != nil {
			l.genericErr = fmt.Errorf("walk for %s: %w", l.name, err)
		}
	})
	return l.generic, l.genericErr
}

// tables collects the C tables while the patterns are laid out.
type tables struct {
	l     *language
	pats  []C.grit_pat
	negs  []C.TSFieldId
	caps  map[string]int
	names []string
}

func buildWalker(l *language, src string) (*walker, error) {
	pats, err := parseSCM(src)
	if err != nil {
		return nil, err
	}
	t := &tables{l: l, pats: make([]C.grit_pat, 1+len(pats)), negs: []C.TSFieldId{0}, caps: map[string]int{}}
	// Capture ids in order of appearance in the text, as ts_query_new numbers them.
	for _, p := range pats {
		t.number(p.root)
	}
	for i, p := range pats {
		if n := countCaps(p.root); n > C.GRIT_MAX_PATTERN_CAPS {
			return nil, fmt.Errorf("pattern %d: %d captures, more than the walk's %d", i, n, C.GRIT_MAX_PATTERN_CAPS)
		}
		if err := t.lay(1+i, p.root); err != nil {
			return nil, err
		}
	}
	nsyms := int(C.ts_language_symbol_count(l.ptr))
	named := make([]byte, nsyms)
	for s := range nsyms {
		if C.ts_language_symbol_type(l.ptr, C.TSSymbol(s)) == 0 {
			named[s] = 1
		}
	}
	rootAt := make([]uint32, nsyms+1)
	var roots []uint32
	dedup := make([]byte, len(pats))
	for s := range nsyms {
		rootAt[s] = uint32(len(roots))
		for i := range pats {
			if int(t.pats[1+i].sym) == s {
				roots = append(roots, uint32(i))
			}
		}
	}
	rootAt[nsyms] = uint32(len(roots))
	for i, p := range pats {
		if uncapturedChild(p.root) {
			dedup[i] = 1
		}
	}
	q := &query{names: t.names, isRef: refSymbols(l)}
	for _, name := range t.names {
		r, ok := roleNames[name]
		if !ok {
			return nil, fmt.Errorf("unknown capture @%s", name)
		}
		q.roles = append(q.roles, r)
	}
	if q.preds, err = t.predicates(pats); err != nil {
		return nil, err
	}
	w := (*C.grit_walker)(C.calloc(1, C.sizeof_grit_walker))
	w.pats = (*C.grit_pat)(cCopy(t.pats))
	w.negs = (*C.TSFieldId)(cCopy(t.negs))
	w.root_at = (*C.uint32_t)(cCopy(rootAt))
	w.roots = (*C.uint32_t)(cCopy(append(roots, 0)))
	w.named = (*C.uint8_t)(cCopy(named))
	w.dedup = (*C.uint8_t)(cCopy(dedup))
	w.nsyms = C.uint32_t(nsyms)
	for _, p := range t.pats {
		if p.kind == C.GRIT_PAT_ANY {
			w.keep_anon = 1
		}
	}
	return &walker{c: w, q: q}, nil
}

// cCopy copies a slice into C memory that lives as long as the process.
func cCopy[T any](s []T) unsafe.Pointer {
	var zero T
	n := len(s) * int(unsafe.Sizeof(zero))
	p := C.malloc(C.size_t(max(n, 1)))
	if n > 0 {
		copy(unsafe.Slice((*T)(p), len(s)), s)
	}
	return p
}

// number gives each capture name its id, children's before their parent's.
func (t *tables) number(n *pnode) {
	for _, k := range n.kids {
		t.number(k)
	}
	for _, c := range n.caps {
		if _, ok := t.caps[c]; !ok {
			t.caps[c] = len(t.names)
			t.names = append(t.names, c)
		}
	}
}

// lay writes pattern node n at index i and its children after the
// patterns laid so far.
func (t *tables) lay(i int, n *pnode) error {
	p := C.grit_pat{kind: C.uint8_t(n.kind), cap: [2]C.int16_t{-1, -1}}
	if len(n.caps) > 2 {
		return fmt.Errorf("more than two captures on one node")
	}
	for k, c := range n.caps {
		p.cap[k] = C.int16_t(t.caps[c])
	}
	if n.kind == C.GRIT_PAT_NODE {
		s := t.symbol(n.typ)
		if s == 0 {
			return fmt.Errorf("unknown node type %q", n.typ)
		}
		p.sym = s
	}
	if n.field != "" {
		if p.field = t.fieldID(n.field); p.field == 0 {
			return fmt.Errorf("unknown field %q", n.field)
		}
	}
	if len(n.neg) > 0 {
		p.neg = C.uint32_t(len(t.negs))
		for _, f := range n.neg {
			id := t.fieldID(f)
			if id == 0 {
				return fmt.Errorf("unknown field %q", f)
			}
			t.negs = append(t.negs, id)
		}
		t.negs = append(t.negs, 0)
	}
	if n.optional {
		p.flags |= C.GRIT_PAT_OPTIONAL
	}
	if n.immediate {
		p.flags |= C.GRIT_PAT_IMMEDIATE
	}
	if n.last {
		p.flags |= C.GRIT_PAT_LAST
	}
	if len(n.kids) > 0 {
		first := len(t.pats)
		p.kid = C.uint32_t(first)
		t.pats = append(t.pats, make([]C.grit_pat, len(n.kids))...)
		for k, kid := range n.kids {
			if err := t.lay(first+k, kid); err != nil {
				return err
			}
			if k+1 < len(n.kids) {
				t.pats[first+k].next = C.uint32_t(first + k + 1)
			}
		}
	}
	t.pats[i] = p
	return nil
}

func (t *tables) symbol(name string) C.TSSymbol {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.ts_language_symbol_for_name(t.l.ptr, cs, C.uint32_t(len(name)), true)
}

func (t *tables) fieldID(name string) C.TSFieldId {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.ts_language_field_id_for_name(t.l.ptr, cs, C.uint32_t(len(name)))
}

// predicates turns the patterns' #eq?, #any-of? and #not-any-of? into the
// query path's predicates.
func (t *tables) predicates(pats []scmPattern) ([][]predicate, error) {
	out := make([][]predicate, len(pats))
	found := false
	for i, p := range pats {
		for _, pr := range p.preds {
			if pr.name != "eq?" && pr.name != "any-of?" && pr.name != "not-any-of?" || pr.capture == "" || len(pr.values) == 0 {
				return nil, fmt.Errorf("pattern %d: unsupported predicate #%s", i, pr.name)
			}
			id, ok := t.caps[pr.capture]
			if !ok {
				return nil, fmt.Errorf("pattern %d: #%s of an unknown capture @%s", i, pr.name, pr.capture)
			}
			out[i] = append(out[i], predicate{capture: uint32(id), values: pr.values, not: pr.name == "not-any-of?"})
			found = true
		}
	}
	if !found {
		return nil, nil
	}
	return out, nil
}

// uncapturedChild reports whether a pattern has a child pattern with no
// capture in it: two ways of matching can then capture the same nodes.
func uncapturedChild(n *pnode) bool {
	for _, k := range n.kids {
		if n.kind != C.GRIT_PAT_ALT && !hasCapture(k) || uncapturedChild(k) {
			return true
		}
	}
	return false
}

// countCaps is how many captures a match of n can hold at most.
func countCaps(n *pnode) int {
	c := len(n.caps)
	for _, k := range n.kids {
		c += countCaps(k)
	}
	return c
}

func hasCapture(n *pnode) bool {
	if len(n.caps) > 0 {
		return true
	}
	for _, k := range n.kids {
		if hasCapture(k) {
			return true
		}
	}
	return false
}

// setRawTree makes the generic walk read the tree's subtrees directly (on,
// the default) or go through the public cursor (off): tests compare the
// two. Set it before parsing starts.
func setRawTree(on bool) {
	C.grit_walk_raw_tree = 0
	if on {
		C.grit_walk_raw_tree = 1
	}
}

// rawTrees is how many trees the generic walk's raw build has taken.
func rawTrees() uint64 { return uint64(C.grit_raw_trees()) }
