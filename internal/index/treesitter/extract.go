package treesitter

/*
#include "extract.h"
*/
import "C"

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/span"
)

// role is what a capture name means.
type role uint8

const (
	roleNone role = iota
	roleDefFunction
	roleDefMethod
	roleDefClass
	roleDefVariable
	roleDefNamespace
	roleName
	roleQualified
	roleNamespace
	roleBody
	roleSig
	roleReceiver
	roleCall
	roleRef
	roleDoc
	roleComment
	roleImport
	roleImportModule
	roleImportName
	roleImportAlias
	roleImportStar
)

var roleNames = map[string]role{
	"def.function":  roleDefFunction,
	"def.method":    roleDefMethod,
	"def.class":     roleDefClass,
	"def.variable":  roleDefVariable,
	"def.namespace": roleDefNamespace,
	"name":          roleName,
	"qualified":     roleQualified,
	"namespace":     roleNamespace,
	"body":          roleBody,
	"sig":           roleSig,
	"receiver":      roleReceiver,
	"call":          roleCall,
	"ref":           roleRef,
	"doc":           roleDoc,
	"comment":       roleComment,
	"import":        roleImport,
	"import.module": roleImportModule,
	"import.name":   roleImportName,
	"import.alias":  roleImportAlias,
	"import.star":   roleImportStar,
	"_":             roleNone,
}

var roleKinds = map[role]string{
	roleDefFunction: index.KindFunction,
	roleDefMethod:   index.KindMethod,
	roleDefClass:    index.KindClass,
	roleDefVariable: index.KindVariable,
	// A module (Rust's mod m { ... }) is listed like a class but is no
	// definition's scope.
	roleDefNamespace: index.KindClass,
}

type capture struct {
	role       role
	id         uint32 // the query's capture index
	start, end int
}

type rawDef struct {
	d         index.Def
	sigStart  int // -1: the definition's start
	bodyStart int // -1: no body
	receiver  string
	namespace bool // a module: not the scope of what it holds
}

type rawImport struct {
	stmt                int
	line                int
	module, name, alias string
	star                bool
}

// extraction is one file's extraction in progress.
type extraction struct {
	l        *language
	q        *query
	src      []byte
	lines    *span.Lines
	out      *index.Parsed
	defs     []rawDef
	docs     []capture
	comments []capture
	imports  []rawImport
	spaces   map[string]bool // C++ namespaces declared in the file
	intern   map[string]string
}

// extract turns the flat captures of one file into a Parsed.
func extract(l *language, q *query, src []byte, raw []C.grit_cap) *index.Parsed {
	e := &extraction{l: l, q: q, src: src, lines: span.NewLines(src), out: &index.Parsed{Lang: l.name}, intern: map[string]string{}}
	e.presize(raw)
	var match []capture
	pattern := uint32(0)
	cur := uint32(1<<32 - 1)
	for i := range raw {
		c := &raw[i]
		if uint32(c.match) != cur {
			e.flush(pattern, match)
			match = match[:0]
			cur = uint32(c.match)
			pattern = uint32(c.pattern)
		}
		match = append(match, capture{role: q.roles[c.capture], id: uint32(c.capture), start: int(c.start), end: int(c.end)})
	}
	e.flush(pattern, match)

	out := e.out
	out.Defs, out.Capped = finishDefs(l, src, e.lines, e.defs, e.docs, e.comments, e.spaces)
	attachCallers(out.Defs, out.Calls)
	out.Imports = groupImports(e.imports)
	return out
}

// presize sizes the calls, references and definitions once: growing
// slices of them were most of the garbage.
func (e *extraction) presize(raw []C.grit_cap) {
	ncalls, nrefs, ndefs := 0, 0, 0
	for i := range raw {
		switch e.q.roles[raw[i].capture] {
		case roleCall:
			ncalls++
		case roleRef:
			nrefs++
		case roleDefFunction, roleDefMethod, roleDefClass, roleDefVariable, roleDefNamespace:
			ndefs++
		}
	}
	e.out.Calls = make([]index.Call, 0, ncalls)
	e.out.Refs = make([]string, 0, nrefs)
	e.defs = make([]rawDef, 0, ndefs)
}

// str is a capture's text, interned.
func (e *extraction) str(c capture) string {
	b := e.src[c.start:c.end]
	if s, ok := e.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	e.intern[s] = s
	return s
}

// matchCaps are the captures of one match by role.
type matchCaps struct {
	def, name, body, sig, recv, imp, mod, iname, alias, qual                                     capture
	hasDef, hasName, hasBody, hasSig, hasRecv, hasImp, hasMod, hasIName, hasAlias, hasQual, star bool
}

// flush takes in one match of pattern: calls, references, docs and
// comments directly, definitions and imports once all its captures are read.
func (e *extraction) flush(pattern uint32, match []capture) {
	if len(match) == 0 {
		return
	}
	if e.q.preds != nil && !holds(e.q.preds[pattern], match, e.src) {
		return
	}
	var m matchCaps
	for _, c := range match {
		switch c.role {
		case roleDefFunction, roleDefMethod, roleDefClass, roleDefVariable, roleDefNamespace:
			m.def, m.hasDef = c, true
		case roleName:
			m.name, m.hasName = c, true
		case roleQualified:
			m.qual, m.hasQual = c, true
		case roleNamespace:
			if e.spaces == nil {
				e.spaces = map[string]bool{}
			}
			e.spaces[e.str(c)] = true
		case roleBody:
			m.body, m.hasBody = c, true
		case roleSig:
			m.sig, m.hasSig = c, true
		case roleReceiver:
			m.recv, m.hasRecv = c, true
		case roleCall:
			e.out.Calls = append(e.out.Calls, index.Call{Callee: e.str(c), Offset: c.start, Line: e.lines.Pos(c.start).Line})
		case roleRef:
			e.out.Refs = append(e.out.Refs, e.str(c))
		case roleDoc:
			e.docs = append(e.docs, c)
		case roleComment:
			e.comments = append(e.comments, c)
		case roleImport:
			m.imp, m.hasImp = c, true
		case roleImportModule:
			m.mod, m.hasMod = c, true
		case roleImportName:
			m.iname, m.hasIName = c, true
		case roleImportAlias:
			m.alias, m.hasAlias = c, true
		case roleImportStar:
			m.star = true
		}
	}
	e.addDef(&m)
	e.addImport(&m)
}

// addDef adds the match's definition, if it has one.
func (e *extraction) addDef(m *matchCaps) {
	recvName := ""
	if m.hasRecv {
		recvName = e.str(m.recv)
	}
	if m.hasDef && m.hasQual && !m.hasName {
		// A::B::name: the name is the last part, its scope the one before.
		scope, off := splitQualified(e.src[m.qual.start:m.qual.end])
		m.name, m.hasName = capture{role: roleName, start: m.qual.start + off, end: m.qual.end}, true
		recvName = intern1(e.intern, scope)
	}
	if !m.hasDef || !m.hasName {
		return
	}
	def, name := m.def, m.name
	rd := rawDef{sigStart: -1, bodyStart: -1, namespace: def.role == roleDefNamespace}
	sp, ep := e.lines.Pos(def.start), e.lines.Pos(def.end)
	rd.d = index.Def{
		Lang: e.l.name, Name: operatorName(e.str(name)), Kind: roleKinds[def.role],
		Start: def.start, End: def.end, NameStart: name.start, NameEnd: name.end,
		StartLine: sp.Line, StartCol: sp.Col, EndLine: ep.Line, EndCol: ep.Col,
	}
	if m.hasSig {
		rd.sigStart = m.sig.start
	}
	if m.hasBody {
		rd.bodyStart = m.body.start
	}
	rd.receiver = recvName
	e.defs = append(e.defs, rd)
}

// addImport adds the match's import binding, if it has one.
func (e *extraction) addImport(m *matchCaps) {
	if !m.hasImp || !m.hasMod && !m.hasIName {
		return
	}
	ri := rawImport{stmt: m.imp.start, line: e.lines.Pos(m.imp.start).Line, star: m.star}
	if m.hasMod {
		ri.module = e.str(m.mod)
		if e.l.cleanModule != nil {
			ri.module = e.l.cleanModule(ri.module)
		}
	}
	if m.hasIName {
		ri.name = e.str(m.iname)
	}
	if m.hasAlias {
		ri.alias = e.str(m.alias)
	}
	e.imports = append(e.imports, ri)
}

// holds reports whether a match passes its pattern's predicates: each
// tested capture's text is one of the predicate's values (none of them for
// #not-any-of?).
func holds(preds []predicate, match []capture, src []byte) bool {
	for _, p := range preds {
		for _, c := range match {
			if c.id == p.capture && slices.Contains(p.values, string(src[c.start:c.end])) == p.not {
				return false
			}
		}
	}
	return true
}

// refMaps are addRefs's name → position maps, reused: one per file was a
// tenth of a cold index's garbage.
var refMaps = sync.Pool{New: func() any { return map[string]int{} }}

// addRefs adds the references the C walk found, once per name with its
// count, in order of first use.
func addRefs(out *index.Parsed, src []byte, refs []C.grit_span) {
	if len(refs) == 0 {
		return
	}
	for range out.Refs { // @ref captures of the query, if any, count once each
		out.RefCounts = append(out.RefCounts, 1)
	}
	at := refMaps.Get().(map[string]int)
	defer func() {
		if len(at) <= 1<<14 { // a map grown by a huge file is left to the collector
			clear(at)
			refMaps.Put(at)
		}
	}()
	out.Refs = slices.Grow(out.Refs, len(refs)/4)
	out.RefCounts = slices.Grow(out.RefCounts, len(refs)/4) // as long as out.Refs here
	for _, r := range refs {
		if r.start == r.end {
			continue // a MISSING node the parser made up: no name
		}
		b := src[r.start:r.end]
		if i, ok := at[string(b)]; ok {
			out.RefCounts[i]++
			continue
		}
		s := string(b)
		at[s] = len(out.Refs)
		out.Refs = append(out.Refs, s)
		out.RefCounts = append(out.RefCounts, 1)
	}
}

// finishDefs merges duplicate captures of one definition (a decorated
// function matches twice: keep the widest range), nests them, and fills in
// qualified names, parents, signatures and docs.
func finishDefs(l *language, src []byte, lines *span.Lines, raw []rawDef, docs, comments []capture, spaces map[string]bool) ([]index.Def, string) {
	// Merge by name position: the widest range wins; an explicit @sig wins.
	byName := make(map[int]int, len(raw))
	merged := make([]rawDef, 0, len(raw))
	for _, rd := range raw {
		i, ok := byName[rd.d.NameStart]
		if !ok {
			byName[rd.d.NameStart] = len(merged)
			merged = append(merged, rd)
			continue
		}
		m := &merged[i]
		if rd.d.End-rd.d.Start > m.d.End-m.d.Start {
			sig, body, recv, ns := m.sigStart, m.bodyStart, m.receiver, m.namespace
			*m = rd
			m.namespace = m.namespace || ns
			if m.sigStart < 0 {
				m.sigStart = sig
			}
			if m.bodyStart < 0 {
				m.bodyStart = body
			}
			if m.receiver == "" {
				m.receiver = recv
			}
		} else {
			if m.sigStart < 0 {
				m.sigStart = rd.sigStart
			}
			if m.bodyStart < 0 {
				m.bodyStart = rd.bodyStart
			}
			m.namespace = m.namespace || rd.namespace
		}
	}
	sort.SliceStable(merged, func(i, j int) bool {
		if merged[i].d.Start != merged[j].d.Start {
			return merged[i].d.Start < merged[j].d.Start
		}
		return merged[i].d.End > merged[j].d.End
	})
	merged, capped := capDefs(merged)
	var stack []int
	defs := make([]index.Def, len(merged))
	for i := range merged {
		rd := &merged[i]
		d := &rd.d
		for len(stack) > 0 && merged[stack[len(stack)-1]].d.End <= d.Start {
			stack = stack[:len(stack)-1]
		}
		if spaces[rd.receiver] {
			// ns::f defined outside its namespace: namespaces are not scopes.
			rd.receiver = ""
			if d.Kind == index.KindMethod {
				d.Kind = index.KindFunction
			}
		}
		scope := -1 // the enclosing definition that is d's scope
		for k := len(stack) - 1; k >= 0 && rd.receiver == ""; k-- {
			if l.qualifiedScopes || !merged[stack[k]].namespace {
				scope = stack[k]
				break
			}
		}
		switch {
		case rd.receiver != "":
			d.Parent = rd.receiver
			d.QName = rd.receiver + "." + d.Name
		case scope >= 0:
			p := &merged[scope].d
			d.Parent = p.QName
			if !l.qualifiedScopes && p.Kind == index.KindClass {
				d.Parent = p.Name // the innermost type alone: Inner.m, not Outer.Inner.m
			}
			d.QName = d.Parent + "." + d.Name
			if l.methodsInClasses && p.Kind == index.KindClass && d.Kind == index.KindFunction {
				d.Kind = index.KindMethod
			}
		default:
			d.QName = d.Name
		}
		d.Signature = signature(src, rd)
		stack = append(stack, i)
		defs[i] = *d
	}
	// Docstrings: a string that is the first statement of a definition's body.
	for _, dc := range docs {
		for i := len(merged) - 1; i >= 0; i-- {
			if merged[i].bodyStart == dc.start {
				if defs[i].Doc == "" {
					defs[i].Doc = docLine(src[dc.start:dc.end], true)
				}
				break
			}
		}
	}
	// Doc comments: the block of comments ending on the line right above.
	if len(comments) > 0 {
		sort.Slice(comments, func(i, j int) bool { return comments[i].start < comments[j].start })
		for i := range defs {
			if defs[i].Doc != "" {
				continue
			}
			line := defs[i].StartLine - 1 // 1-based line above
			k := sort.Search(len(comments), func(k int) bool { return comments[k].start >= defs[i].Start }) - 1
			first := -1
			for ; k >= 0 && commentEndLine(src, lines, comments[k]) == line; k-- {
				first = k
				line = lines.Pos(comments[k].start).Line - 1
			}
			if first >= 0 {
				defs[i].Doc = docLine(src[comments[first].start:comments[first].end], false)
			}
		}
	}
	if l.equations {
		defs = mergeEquations(defs)
	}
	return defs, capped
}

// commentEndLine is the line a comment ends on; a comment node that takes
// its line's newline (Rust's ///) ends on that line, not the next.
func commentEndLine(src []byte, lines *span.Lines, c capture) int {
	end := c.end
	if end > c.start && src[end-1] == '\n' {
		end--
		if end > c.start && src[end-1] == '\r' {
			end--
		}
	}
	return lines.Pos(end).Line
}

// signature is the definition's header up to its body, on one line.
func signature(src []byte, rd *rawDef) string {
	start := rd.d.Start
	if rd.sigStart >= 0 {
		start = rd.sigStart
	}
	end := rd.d.End
	if rd.bodyStart > start {
		end = rd.bodyStart
	} else if nl := bytes.IndexByte(src[start:end], '\n'); nl >= 0 {
		end = start + nl
	}
	s := collapse(src[start:end])
	s = strings.TrimRight(s, " \t{:")
	const maxSig = 300
	if len(s) > maxSig {
		cut := maxSig
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// collapse turns every run of white space into one space.
func collapse(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	space := false
	for _, c := range b {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			space = true
			continue
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		space = false
		sb.WriteByte(c)
	}
	return sb.String()
}

// docLine returns the first non-empty line of a docstring or comment,
// without quotes or comment markers.
func docLine(b []byte, str bool) string {
	s := string(b)
	if str {
		s = strings.TrimLeft(s, "rRbBuUfF")
		for _, q := range []string{`"""`, `'''`, `"`, `'`} {
			if strings.HasPrefix(s, q) {
				s = strings.TrimSuffix(strings.TrimPrefix(s, q), q)
				break
			}
		}
	}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if !str {
			haddock := strings.HasPrefix(line, "-- |") || strings.HasPrefix(line, "-- ^")
			roxygen := strings.HasPrefix(line, "#'")
			if strings.HasPrefix(line, "(*") {
				// OCaml's (* … *) and (** doc *): the parens are not the doc.
				line = strings.TrimSpace(strings.TrimSuffix(line[1:], "*)"))
			}
			line = strings.TrimSpace(strings.TrimLeft(line, "/*#!-"))
			line = strings.TrimSpace(strings.TrimSuffix(line, "*/"))
			if haddock || roxygen {
				line = strings.TrimSpace(line[1:]) // Haskell's "-- | Doc", R's "#' Doc": the mark is not the doc
			}
		}
		if line != "" {
			if !utf8.ValidString(line) {
				line = strings.ToValidUTF8(line, "\uFFFD")
			}
			return line
		}
	}
	return ""
}

// attachCallers sets each call's enclosing definition (innermost).
func attachCallers(defs []index.Def, calls []index.Call) {
	if len(defs) == 0 || len(calls) == 0 {
		return
	}
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Offset < calls[j].Offset })
	var stack []int
	di := 0
	for ci := range calls {
		off := calls[ci].Offset
		for di < len(defs) && defs[di].Start <= off {
			for len(stack) > 0 && defs[stack[len(stack)-1]].End <= defs[di].Start {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, di)
			di++
		}
		for len(stack) > 0 && defs[stack[len(stack)-1]].End <= off {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			calls[ci].Caller = defs[stack[len(stack)-1]].QName
		}
	}
}

// groupImports turns per-binding captures into Imports: one per statement
// and module for the plain names, one per aliased binding.
func groupImports(raw []rawImport) []index.Import {
	var out []index.Import
	type key struct {
		stmt   int
		module string
	}
	plain := map[key]int{}
	for _, ri := range raw {
		switch {
		case ri.alias != "" || ri.name == "" && !ri.star:
			imp := index.Import{Module: ri.module, Alias: ri.alias, Line: ri.line}
			if ri.name != "" {
				imp.Names = []string{ri.name}
			}
			out = append(out, imp)
		default:
			k := key{ri.stmt, ri.module}
			i, ok := plain[k]
			if !ok {
				i = len(out)
				plain[k] = i
				out = append(out, index.Import{Module: ri.module, Line: ri.line})
			}
			name := ri.name
			if ri.star {
				name = "*"
			}
			out[i].Names = append(out[i].Names, name)
		}
	}
	return out
}

// splitQualified splits a C++ qualified name (ns::Foo<T>::bar,
// Foo::operator<<, Foo::~Foo) into the scope its last part is defined in
// (Foo, template arguments dropped; "" for ::bar) and the offset of that last
// part in b.
func splitQualified(b []byte) (scope string, nameOff int) {
	depth, partStart, prevStart := 0, 0, -1
	for i := 0; i < len(b); i++ {
		if depth == 0 && isOperatorAt(b, i) && (i == partStart || i > 0 && !isIdentByte(b[i-1])) {
			break // operator<, operator() ...: the rest is the name
		}
		switch b[i] {
		case '<':
			depth++
		case '>':
			depth = max(0, depth-1)
		case ':':
			if depth == 0 && i+1 < len(b) && b[i+1] == ':' {
				prevStart = partStart
				i++
				partStart = i + 1
			}
		}
	}
	for partStart < len(b) && (b[partStart] == ' ' || b[partStart] == '\t' || b[partStart] == '\n' || b[partStart] == '\r') {
		partStart++
	}
	if prevStart >= 0 {
		part := b[prevStart:partStart]
		if lt := bytes.IndexByte(part, '<'); lt >= 0 {
			part = part[:lt]
		}
		scope = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(part)), "::"))
	}
	return scope, partStart
}

// operatorName spells a C++ operator's name one way, as the naming
// convention does: the keyword, one space, the operator without spaces
// (operator|= and operator |= are both "operator |="; "operator ()",
// "operator bool"). Any other name is returned as it is.
func operatorName(name string) string {
	if !isOperatorAt([]byte(name), 0) || len(name) == len("operator") {
		return name
	}
	rest := strings.TrimSpace(name[len("operator"):])
	if rest == "" || isIdentByte(rest[0]) {
		// A conversion or allocation operator: operator bool, operator new[].
		return "operator " + strings.Join(strings.Fields(rest), " ")
	}
	return "operator " + strings.Join(strings.Fields(rest), "")
}

// isOperatorAt reports whether b[i:] starts with the keyword operator.
func isOperatorAt(b []byte, i int) bool {
	const kw = "operator"
	return bytes.HasPrefix(b[i:], []byte(kw)) && (i+len(kw) == len(b) || !isIdentByte(b[i+len(kw)]))
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// intern1 returns s from the file's interned strings, adding it.
func intern1(intern map[string]string, s string) string {
	if v, ok := intern[s]; ok {
		return v
	}
	intern[s] = s
	return s
}
