package treesitter

/*
#cgo CFLAGS: -std=c11 -O2 -D_POSIX_C_SOURCE=200112L
#include "extract.h"
#include "walk.h"
*/
import "C"

import (
	"context"
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/grit-dev/grit/internal/index"
)

//go:embed queries/*.scm
var queryFS embed.FS

// ErrBudget is returned (wrapped) when a file's parse and query take more CPU
// time than its budget; the index skips the file and shows the reason.
var ErrBudget = index.ErrParseBudget

var defaultAllocOnce sync.Once

// UseDefaultAllocator makes the tree-sitter C library allocate with libc's
// malloc directly instead of through go-tree-sitter's Go callbacks, which
// costs 1.5–1.8× in parse time. New calls it; it is idempotent.
func UseDefaultAllocator() {
	defaultAllocOnce.Do(func() { C.grit_use_default_allocator() })
}

// Parser is the tree-sitter index.Parser.
type Parser struct {
	// Budget is the per-file parse-and-query budget in CPU time of the
	// parsing thread (extract.c's grit_cpu_ns), so that load cannot skip a
	// file; 0 means 2s. A context's deadline, if sooner, also bounds it.
	Budget time.Duration
}

// New returns a Parser using the C library's default allocator.
func New() *Parser {
	UseDefaultAllocator()
	return &Parser{}
}

var _ index.Parser = (*Parser)(nil)
var _ index.ASTParser = (*Parser)(nil)

// Lang returns the language of path by its extension, or "".
func (p *Parser) Lang(file string) string {
	if l := langFor(file); l != nil {
		return l.name
	}
	return ""
}

// Languages lists the supported language names.
func Languages() []string {
	out := make([]string, 0, len(languages))
	for _, l := range languages {
		out = append(out, l.name)
	}
	return out
}

// Level is how much the index extracts from a language's files.
type Level string

const (
	// LevelFull: definitions with qualified names, calls with their
	// callers, imports and references.
	LevelFull Level = "full"
	// LevelDefinitions: definitions (qualified by their nesting) and
	// references; no calls or imports.
	LevelDefinitions Level = "definitions"
)

// What says what a level extracts, in words.
func (lv Level) What() string {
	if lv == LevelDefinitions {
		return "definitions and references"
	}
	return "definitions, qualified names, calls, imports and references"
}

// LanguageInfo is one supported language as `grit doctor` lists it.
type LanguageInfo struct {
	Name  string   `json:"name"`
	Exts  []string `json:"exts"`
	Level Level    `json:"level"`
}

// Support lists the languages, their file extensions and their level of
// support, in the registry's order.
func Support() []LanguageInfo {
	out := make([]LanguageInfo, 0, len(languages))
	for _, l := range languages {
		out = append(out, LanguageInfo{Name: l.name, Exts: slices.Clone(l.exts), Level: l.level})
	}
	return out
}

// Unbuilt is a language whose grammar this binary was built without: it
// is compiled in only with the build tags Tags (go build -tags Tags).
type Unbuilt struct {
	Name string   `json:"name"`
	Exts []string `json:"exts"`
	Tags string   `json:"tags"`
}

// notBuiltIn lists the languages left out of this build (languages_no*.go).
var notBuiltIn []Unbuilt

// NotBuiltIn lists the languages this binary was built without.
func NotBuiltIn() []Unbuilt { return slices.Clone(notBuiltIn) }

// NotBuiltInError says how to build in the language of file when this
// binary was built without it; nil when it was, or no tag adds it.
func NotBuiltInError(file string) error {
	ext := strings.ToLower(path.Ext(file))
	for _, u := range notBuiltIn {
		if slices.Contains(u.Exts, ext) {
			return fmt.Errorf("%s is not built into this binary (build it with: go build -tags %s ./cmd/grit)", u.Name, u.Tags)
		}
	}
	return nil
}

// unsupported is the error for a file of no built-in language: it names
// the build tags that add its language, if any do, else the languages.
func unsupported(op, file string) error {
	if err := NotBuiltInError(file); err != nil {
		return fmt.Errorf("%s %s: %w", op, file, err)
	}
	return fmt.Errorf("%s %s: unsupported language (supported: %s)", op, file, strings.Join(Languages(), ", "))
}

func langFor(file string) *language {
	ext := strings.ToLower(path.Ext(file))
	for _, l := range languages {
		for _, e := range l.exts {
			if e == ext {
				return l
			}
		}
	}
	return nil
}

// Parse extracts definitions, calls, imports and references from src.
func (p *Parser) Parse(ctx context.Context, file string, src []byte) (*index.Parsed, error) {
	return p.parse(ctx, file, src, UseWalker)
}

// parse is Parse, with the generic walk (walker.go) on or off.
func (p *Parser) parse(ctx context.Context, file string, src []byte, walk bool) (*index.Parsed, error) {
	l := langFor(file)
	if l == nil {
		return nil, unsupported("parse", file)
	}
	if l.headers != nil && strings.EqualFold(path.Ext(file), ".h") && looksCpp(src) {
		l = l.headers // a C++ header named .h
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var q *query
	var gw *C.grit_walker
	if w := l.walkerOf(walk); w != nil {
		q, gw = w.q, w.c // the walk needs no compiled query: 10 ms saved per process
	} else {
		var err error
		if q, err = l.compiled(); err != nil {
			return nil, err
		}
	}
	if len(src) > 1<<31-1 {
		return nil, fmt.Errorf("parse %s: file too large for tree-sitter", file)
	}
	budget := p.Budget
	if budget <= 0 {
		budget = 2 * time.Second
	}
	if dl, ok := ctx.Deadline(); ok {
		if rem := time.Until(dl); rem < budget {
			budget = max(rem, time.Millisecond)
		}
	}
	psrc := src // what the parser sees; names and text come from src
	if l.blankMacros && len(src) > 0 {
		psrc = blankUnbalancedElse(blankMacros(src))
	}
	var srcPtr *C.char
	if len(src) > 0 {
		srcPtr = (*C.char)(unsafe.Pointer(&psrc[0]))
	} else {
		srcPtr = (*C.char)(unsafe.Pointer(&empty[0]))
	}
	cp := getParser()
	defer putParser(cp)
	res := cp.res
	var isRef *C.uint8_t
	if len(q.isRef) > 0 {
		isRef = (*C.uint8_t)(unsafe.Pointer(&q.isRef[0]))
	}
	arena := cp.arena
	if !useArena {
		arena = nil
	}
	C.grit_extract(arena, cp.p, l.ptr, q.ptr, gw, isRef, C.uint32_t(len(q.isRef)), srcPtr, C.uint32_t(len(src)), C.int64_t(budget.Nanoseconds()), res)
	if arena == nil && (res.status == 1 || res.status == 4) {
		// The parse was halted or failed. tree-sitter 0.25's ts_parser_reset
		// does not clear a parser's canceled_balancing flag, so the next parse
		// on it would resume a balance with no tree and abort the process
		// (assertion self->finished_tree.ptr). Replace the parser. (With an
		// arena, grit_extract makes a parser per file and drops it.)
		cp.renew()
	}
	switch res.status {
	case 0:
	case 1, 2:
		return nil, fmt.Errorf("parse %s: %w (%s)", file, ErrBudget, budget)
	case 3:
		return nil, fmt.Errorf("parse %s: out of memory", file)
	default:
		return nil, fmt.Errorf("parse %s: tree-sitter returned no tree", file)
	}
	var caps []C.grit_cap
	if res.n > 0 {
		caps = unsafe.Slice(res.caps, int(res.n))
	}
	var refs []C.grit_span
	if res.nrefs > 0 {
		refs = unsafe.Slice(res.refs, int(res.nrefs))
	}
	out := extract(l, q, src, caps)
	addRefs(out, src, refs)
	out.Errors = int(res.errors)
	return out, nil
}

var empty = []byte{0}

// cparser is a C parser with the result buffers of its last extraction and
// the arena its parses allocate from (C memory, both).
type cparser struct {
	p     *C.TSParser
	res   *C.grit_result
	arena *C.grit_arena
}

// useArena makes Parse allocate each file's tree in a per-file arena
// (arena.c), the default; off, tree-sitter allocates with malloc. Tests
// compare the two. Set it before parsing starts.
var useArena = true

// setArenaLimit caps the chunks a parse's arena may map (tests make files
// spill to malloc with 1); it returns the previous cap.
func setArenaLimit(n int) int {
	old := int(C.grit_arena_limit)
	C.grit_arena_limit = C.int(n)
	return old
}

// arenaIdleBytes is what the arenas not parsing keep mapped.
func arenaIdleBytes() uint64 { return uint64(C.grit_arena_idle_bytes()) }

// arenaSpills is how many parses ran out of arena and finished with malloc.
func arenaSpills() uint64 { return uint64(C.grit_arena_spills()) }

// maxKeptResult is how many captures or references a parser's buffers may
// keep between files (more are freed once the file is done).
const maxKeptResult = 1 << 16

// parsers is a free list of C parsers: creating one per file costs malloc churn.
var parsers struct {
	mu   sync.Mutex
	free []*cparser
}

func getParser() *cparser {
	parsers.mu.Lock()
	defer parsers.mu.Unlock()
	if n := len(parsers.free); n > 0 {
		p := parsers.free[n-1]
		parsers.free = parsers.free[:n-1]
		return p
	}
	return &cparser{
		p:     C.ts_parser_new(),
		res:   (*C.grit_result)(C.calloc(1, C.sizeof_grit_result)),
		arena: (*C.grit_arena)(C.calloc(1, C.sizeof_grit_arena)),
	}
}

// renew replaces the C parser with a fresh one.
func (p *cparser) renew() {
	C.ts_parser_delete(p.p)
	p.p = C.ts_parser_new()
}

// Release frees the parsers kept for reuse, with their arenas' memory
// (up to GRIT_ARENA_KEEP_ALL): the index calls it once a large update has
// parsed its files, before storing them takes its own share of memory.
func (p *Parser) Release() {
	parsers.mu.Lock()
	free := parsers.free
	parsers.free = nil
	parsers.mu.Unlock()
	for _, cp := range free {
		cp.free()
	}
}

// free frees a C parser and what it holds.
func (p *cparser) free() {
	C.grit_result_free(p.res)
	C.free(unsafe.Pointer(p.res))
	C.grit_arena_free(p.arena)
	C.ts_parser_delete(p.p)
}

func putParser(p *cparser) {
	if C.grit_result_big(p.res, maxKeptResult) {
		C.grit_result_free(p.res)
	}
	parsers.mu.Lock()
	defer parsers.mu.Unlock()
	if len(parsers.free) < 16 {
		parsers.free = append(parsers.free, p)
		return
	}
	p.free()
}

// query is a language's compiled query and what each capture index means,
// and which node symbols are references (isRef[symbol] is 1).
type query struct {
	ptr   *C.TSQuery
	roles []role
	names []string
	isRef []byte
	// preds are each pattern's text predicates (#eq?, #any-of?), which the
	// C query cursor leaves to its caller; nil when no pattern has any.
	preds [][]predicate
}

// predicate is a text test on one capture of a match: its text must be one
// of values (#eq? has one, #any-of? several), or none of them (#not-any-of?).
type predicate struct {
	capture uint32
	values  []string
	not     bool
}

// predicates reads every pattern's predicates; any but #eq?, #any-of? and #not-any-of?
// with a capture and strings is an error, so a query never relies on a test
// that is not made.
func predicates(q *C.TSQuery, names []string) ([][]predicate, error) {
	n := int(C.ts_query_pattern_count(q))
	out := make([][]predicate, n)
	found := false
	str := func(id C.uint32_t) string {
		var ln C.uint32_t
		return C.GoStringN(C.ts_query_string_value_for_id(q, id, &ln), C.int(ln))
	}
	for i := 0; i < n; i++ {
		var count C.uint32_t
		steps := C.ts_query_predicates_for_pattern(q, C.uint32_t(i), &count)
		if count == 0 {
			continue
		}
		all := unsafe.Slice(steps, int(count))
		for len(all) > 0 {
			end := 0
			for end < len(all) && all[end]._type != 0 {
				end++
			}
			pred := all[:end]
			all = all[min(end+1, len(all)):]
			if len(pred) == 0 {
				continue
			}
			if pred[0]._type != 2 {
				return nil, fmt.Errorf("pattern %d: a predicate that does not start with its name", i)
			}
			name := str(pred[0].value_id)
			if (name != "eq?" && name != "any-of?" && name != "not-any-of?") || len(pred) < 3 || pred[1]._type != 1 {
				return nil, fmt.Errorf("pattern %d: unsupported predicate #%s (supported: #eq?, #any-of? and #not-any-of? of a capture and strings)", i, name)
			}
			p := predicate{capture: uint32(pred[1].value_id), not: name == "not-any-of?"}
			for _, st := range pred[2:] {
				if st._type != 2 {
					return nil, fmt.Errorf("pattern %d: #%s @%s compares with a capture; only strings are supported", i, name, names[p.capture])
				}
				p.values = append(p.values, str(st.value_id))
			}
			out[i] = append(out[i], p)
			found = true
		}
	}
	if !found {
		return nil, nil
	}
	return out, nil
}

func (l *language) compiled() (*query, error) {
	l.once.Do(func() {
		src, err := queryFS.ReadFile("queries/" + l.query + ".scm")
		if err != nil {
			l.err = fmt.Errorf("query for %s: %w", l.name, err)
			return
		}
		cs := C.CString(string(src))
		defer C.free(unsafe.Pointer(cs))
		var errOff C.uint32_t
		var errType C.int
		ptr := C.ts_query_new(l.ptr, cs, C.uint32_t(len(src)), &errOff, &errType)
		if ptr == nil {
			line := 1 + strings.Count(string(src[:min(int(errOff), len(src))]), "\n")
			l.err = fmt.Errorf("query for %s: error type %d at line %d", l.name, int(errType), line)
			return
		}
		q := &query{ptr: ptr}
		n := int(C.ts_query_capture_count(ptr))
		for i := 0; i < n; i++ {
			var ln C.uint32_t
			name := C.GoStringN(C.ts_query_capture_name_for_id(ptr, C.uint32_t(i), &ln), C.int(ln))
			q.names = append(q.names, name)
			r, ok := roleNames[name]
			if !ok {
				l.err = fmt.Errorf("query for %s: unknown capture @%s", l.name, name)
				return
			}
			q.roles = append(q.roles, r)
		}
		preds, err := predicates(ptr, q.names)
		if err != nil {
			l.err = fmt.Errorf("query for %s: %w", l.name, err)
			return
		}
		q.preds = preds
		q.isRef = refSymbols(l)
		l.q = q
	})
	return l.q, l.err
}

// language is one entry of the registry.
type language struct {
	name  string
	exts  []string
	query string // queries/<query>.scm
	ptr   *C.TSLanguage
	// level is what is extracted (LevelFull unless set).
	level Level
	// methodsInClasses: a function directly inside a class is a method.
	methodsInClasses bool
	// qualifiedScopes: a definition's qualified name holds every enclosing
	// definition (Python's Outer.Inner.method, Ruby's Shop.Cart.add).
	// Otherwise its scope is the innermost type (class, struct, enum, trait,
	// interface, impl or receiver type: Inner.method); modules and
	// namespaces are no scope, and a function in a function is outer.inner.
	qualifiedScopes bool
	// blankMacros: annotation macros are hidden from the parser (macros.go).
	blankMacros bool
	// headers is the language a header of this language's extension is
	// parsed as when its content is C++ (looksCpp): .h serves both.
	headers *language
	// imports shapes one import statement's captures (nil: the generic shape).
	cleanModule func(string) string
	// equations: a function is written as equations, one node each
	// (Haskell); consecutive ones of one name are one definition.
	equations bool
	// refs are the named node types whose text is a reference to a name
	// (collected by one walk in C, not by the query: far cheaper).
	refs []string

	once sync.Once
	q    *query
	err  error

	genericOnce sync.Once // walkerFor
	generic     *walker
	genericErr  error
}

func newLanguage(name, query string, ptr unsafe.Pointer, exts ...string) *language {
	return &language{name: name, query: query, ptr: (*C.TSLanguage)(ptr), exts: exts, level: LevelFull}
}

// refSymbols marks every named symbol of l whose name is one of l.refs
// (aliases share a name but not an id, so all are checked).
func refSymbols(l *language) []byte {
	if len(l.refs) == 0 {
		return nil
	}
	n := int(C.ts_language_symbol_count(l.ptr))
	out := make([]byte, n)
	for i := 0; i < n; i++ {
		sym := C.TSSymbol(i)
		if C.ts_language_symbol_type(l.ptr, sym) != 0 {
			continue
		}
		name := C.GoString(C.ts_language_symbol_name(l.ptr, sym))
		for _, r := range l.refs {
			if r == name {
				out[i] = 1
			}
		}
	}
	return out
}

// sitterLanguage returns the go-tree-sitter handle for l (used for ASTs).
func (l *language) sitterLanguage() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(l.ptr))
}

// ParseOnly parses src and throws the tree away: the bare tree-sitter cost
// that `grit bench index` compares indexing with.
func (p *Parser) ParseOnly(file string, src []byte) error {
	l := langFor(file)
	if l == nil {
		return fmt.Errorf("parse %s: unsupported language", file)
	}
	srcPtr := (*C.char)(unsafe.Pointer(&empty[0]))
	if len(src) > 0 {
		srcPtr = (*C.char)(unsafe.Pointer(&src[0]))
	}
	cp := getParser()
	defer putParser(cp)
	if C.grit_parse_only(cp.p, l.ptr, srcPtr, C.uint32_t(len(src))) == 0 {
		return fmt.Errorf("parse %s: tree-sitter returned no tree", file)
	}
	return nil
}

// threadCPU is the calling thread's CPU time, the clock of a file's budget.
func threadCPU() time.Duration { return time.Duration(C.grit_cpu_ns()) }
