package search

import (
	"context"
	"database/sql/driver"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/span"
)

// tokenizeFile tokenizes a whole file and each definition's own text:
// a function's whole body (nested functions included, as a change inside
// them is a change to it), a class's body without its methods.
func tokenizeFile(src []byte, defs []index.Def, parents []int, base int) *fileDoc {
	memo := map[string][]string{}
	tf := map[string]int{}
	n := 0
	idents := map[string][]int32{}
	var stack []int // open definitions (file-local), innermost last
	next := 0
	scanIdentsAt(src, func(id string, off int) {
		for _, t := range identTokensMemo(memo, id) {
			tf[t]++
			n++
		}
		for len(stack) > 0 && defs[stack[len(stack)-1]].End <= off {
			stack = stack[:len(stack)-1]
		}
		for next < len(defs) && defs[next].Start <= off {
			for len(stack) > 0 && defs[stack[len(stack)-1]].End <= defs[next].Start {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && defs[stack[len(stack)-1]].End <= off {
			stack = stack[:len(stack)-1]
		}
		in := int32(-1)
		if len(stack) > 0 {
			in = int32(stack[len(stack)-1])
		}
		ps := idents[id]
		if len(ps) == 0 || ps[len(ps)-1] != in {
			idents[id] = append(ps, in)
		}
	})
	for id, ps := range idents {
		if len(ps) > 1 {
			slices.Sort(ps)
			idents[id] = slices.Compact(ps)
		}
	}
	fd := &fileDoc{tf: tf, length: n, defs: make([]defDoc, len(defs)), nDefs: len(defs), size: len(src), idents: idents}
	for i, d := range defs {
		s, e := clamp(d.Start, len(src)), clamp(d.End, len(src))
		if s >= e {
			fd.defs[i] = defDoc{tf: map[string]int{}}
			continue
		}
		dtf := map[string]int{}
		dn := 0
		emit := func(id string) {
			for _, t := range identTokensMemo(memo, id) {
				dtf[t]++
				dn++
			}
		}
		if d.Kind == index.KindClass {
			// Own text: the class minus its direct child definitions.
			pos := s
			for j := i + 1; j < len(defs) && defs[j].Start < e; j++ {
				if parents[j]-base != i {
					continue
				}
				cs := clamp(defs[j].Start, len(src))
				if cs > pos {
					scanIdents(src[pos:cs], emit)
				}
				pos = max(pos, clamp(defs[j].End, len(src)))
			}
			if pos < e {
				scanIdents(src[pos:e], emit)
			}
		} else {
			scanIdents(src[s:e], emit)
		}
		fd.defs[i] = defDoc{tf: dtf, length: dn}
	}
	return fd
}

func clamp(x, n int) int {
	if x < 0 {
		return 0
	}
	if x > n {
		return n
	}
	return x
}

func identTokensMemo(memo map[string][]string, id string) []string {
	if t, ok := memo[id]; ok {
		return t
	}
	t := appendIdentTokens(nil, id) // id is an identifier: no need for identRE
	memo[id] = t
	return t
}

// scanIdents calls f for each ASCII identifier in src (fast path of identRE).
func scanIdents(src []byte, f func(string)) {
	scanIdentsAt(src, func(id string, _ int) { f(id) })
}

// scanIdentsAt is scanIdents with each identifier's byte offset.
func scanIdentsAt(src []byte, f func(string, int)) {
	i := 0
	for i < len(src) {
		b := src[i]
		if b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
			j := i + 1
			for j < len(src) {
				c := src[j]
				if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
					j++
					continue
				}
				break
			}
			if j-i <= 80 {
				f(string(src[i:j]), i)
			}
			i = j
			continue
		}
		if b >= '0' && b <= '9' {
			for i < len(src) && (src[i] == '_' || src[i] >= '0' && src[i] <= '9' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z') {
				i++
			}
			continue
		}
		i++
	}
}

// pathTokens splits a path into its directory and file-stem tokens
// ("sympy/core/mul.py" → sympy, core, mul); extensions are dropped.
func pathTokens(p string) []string {
	p = strings.TrimSuffix(p, path.Ext(p))
	var out []string
	for _, seg := range strings.Split(p, "/") {
		for _, t := range appendTokens(nil, seg) {
			out = append(out, t)
		}
		// keep stop-word-looking segment names ("core", "test") that Tokenize drops
		l := strings.ToLower(strings.Trim(seg, "_"))
		if len(l) >= 2 && !isNumber(l) && isStop(l) {
			out = append(out, l)
		}
	}
	return out
}

// buildIdents merges the files' identifier occurrences into the corpus's
// postings, unless the source is too large (then content search runs
// ripgrep over the disk).
func (c *Corpus) buildIdents(docs []*fileDoc) {
	total := 0
	for fi, d := range docs {
		c.files[fi].size = d.size
		total += d.size
	}
	if total > maxCorpusSource {
		return
	}
	c.idents = map[string]*identPost{}
	for fi, d := range docs {
		f := c.files[fi]
		for id, ps := range d.idents {
			p := c.idents[id]
			if p == nil {
				p = &identPost{}
				c.idents[id] = p
			}
			p.files = append(p.files, int32(fi))
			for _, local := range ps {
				if local >= 0 && int(local) < f.n {
					p.defs = append(p.defs, int32(f.first)+local)
				}
			}
		}
	}
}

// source reads file fi from disk for content search, which picks the few
// files to read through the identifier postings; an unreadable file reads
// as empty. The corpus does not hold the repository's bytes: they are on
// disk already, and the files the index hashed are the ones there (a
// search updates the index first).
func (c *Corpus) source(fi int) []byte {
	b, err := span.ReadFile(filepath.Join(c.root, filepath.FromSlash(c.files[fi].path)), 0)
	if err != nil {
		return nil
	}
	return b
}

// auxDirs and auxFiles name the parts of a repository that are not its
// code: documentation, examples, benchmarks, release and CI scripts, build
// and setup files.
var (
	auxDirs  = map[string]bool{"doc": true, "docs": true, "example": true, "examples": true, "benchmark": true, "benchmarks": true, "bench": true, "asv_bench": true, "scripts": true, "release": true, ".github": true, ".ci": true, ".circleci": true}
	auxFiles = map[string]bool{"setup.py": true, "conf.py": true, "noxfile.py": true, "fabfile.py": true, "pavement.py": true, "setupegg.py": true, "versioneer.py": true}
)

// IsAuxPath reports whether a repository path is documentation, an example,
// a benchmark, a release or CI script, or a build/setup file.
func IsAuxPath(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		if auxDirs[strings.ToLower(s)] {
			return true
		}
	}
	return auxFiles[strings.ToLower(segs[len(segs)-1])]
}

// markMinorityLanguages marks the files whose language family holds less
// than minorLangShare of the repository's source files: the build, CI and
// packaging scripts of a project written in another language (a setup.py
// beside C++ sources, the shell scripts of a Rust crate) match every task's
// words yet are almost never where its fix goes.
func markMinorityLanguages(files []corpusFile) {
	n := map[string]int{}
	for _, f := range files {
		n[langFamily(f.path)]++
	}
	for i := range files {
		files[i].isMinor = float64(n[langFamily(files[i].path)]) < minorLangShare*float64(len(files))
	}
}

// langFamily names the language family of a path by its extension: C and
// C++ share headers, and JavaScript and TypeScript one code base, so each
// pair counts as one; any other extension is its own family.
func langFamily(p string) string {
	switch e := strings.ToLower(path.Ext(p)); e {
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".inl", ".ipp":
		return "c"
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx":
		return "js"
	case ".sh", ".bash":
		return "sh"
	default:
		return e
	}
}

// IsTestPath reports whether a repository path is a test file: under a
// test/tests/testing directory, or named test_*, *_test, *_tests, conftest,
// *.spec.* or *.test.*.
func IsTestPath(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		switch strings.ToLower(s) {
		case "test", "tests", "testing", "__tests__":
			return true
		}
	}
	base := strings.ToLower(segs[len(segs)-1])
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") ||
		stem == "conftest" || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, ".test") || stem == "tests"
}

// callPairs reads every resolved caller → callee pair of the index in one
// query, so the spread signal walks the call graph in memory. It reads the
// index's calls table directly; an index method returning all definition
// edges would keep the schema private. A pair may come more than once (two
// names resolved to one callee): setCallGraph drops repeats, cheaper than
// a DISTINCT that has SQLite sort the table first.
func callPairs(ctx context.Context, ix *index.Index) ([][2]int64, error) {
	db := ix.DB()
	if db == nil {
		return nil, nil
	}
	var out [][2]int64
	// Read raw: database/sql's per-row work costs more than the query.
	err := db.ScanRaw(ctx, `SELECT caller_id, callee_id FROM calls WHERE caller_id != 0 AND callee_id != 0`, func(v []driver.Value) error {
		a, _ := v[0].(int64)
		b, _ := v[1].(int64)
		out = append(out, [2]int64{a, b})
		return nil
	})
	return out, err
}

// setCallGraph links each definition to its callers and callees.
func (c *Corpus) setCallGraph(pairs [][2]int64) {
	c.calls = make([][]int32, len(c.defs))
	for _, p := range pairs {
		i, ok1 := c.byID[p[0]]
		j, ok2 := c.byID[p[1]]
		if !ok1 || !ok2 || i == j {
			continue
		}
		c.calls[i] = append(c.calls[i], int32(j))
		c.calls[j] = append(c.calls[j], int32(i))
	}
	for i := range c.calls {
		s := c.calls[i]
		slices.Sort(s)
		c.calls[i] = slices.Compact(s)
	}
}
