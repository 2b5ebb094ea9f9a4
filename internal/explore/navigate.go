package explore

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/grit-dev/grit/internal/index"
)

// Navigation limits.
const (
	// maxMatches bounds a go-to-symbol answer: a finder shows a screenful.
	maxMatches = 50
	// maxQuery bounds a finder query; longer ones are a paste, not a name.
	maxQuery = 200
)

// defCache holds every definition of a repository for the file tree and the
// symbol finder: reading them is one scan of the index (tens of
// milliseconds on a large repository), too slow for every keystroke.
// Apply and Undo reset it after re-indexing.
type defCache struct {
	mu      sync.Mutex
	*defSet // nil until loaded
}

// defSet is every definition with the lookups /api/refs needs. It is never
// changed once built: a reset replaces it.
type defSet struct {
	defs   []Def
	byID   map[int64]*Def
	byName map[string]int             // definitions of each name
	top    map[string]map[string]*Def // path → top-level name → definition
}

func (c *defCache) get(ctx context.Context, ix *index.Index) ([]Def, error) {
	set, err := c.set(ctx, ix)
	if err != nil {
		return nil, err
	}
	return set.defs, nil
}

func (c *defCache) set(ctx context.Context, ix *index.Index) (*defSet, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.defSet != nil {
		return c.defSet, nil
	}
	defs, err := ix.AllDefs(ctx)
	if err != nil {
		return nil, err
	}
	set := &defSet{defs: defs, byID: make(map[int64]*Def, len(defs)), byName: map[string]int{}, top: map[string]map[string]*Def{}}
	if set.defs == nil {
		set.defs = []Def{}
	}
	for i := range defs {
		d := &defs[i]
		set.byID[d.ID] = d
		set.byName[d.Name]++
		if d.Parent == "" {
			if set.top[d.Path] == nil {
				set.top[d.Path] = map[string]*Def{}
			}
			if _, dup := set.top[d.Path][d.Name]; !dup {
				set.top[d.Path][d.Name] = d
			}
		}
	}
	c.defSet = set
	return set, nil
}

func (c *defCache) reset() {
	c.mu.Lock()
	c.defSet = nil
	c.mu.Unlock()
}

// TreeFile is one indexed file of the file tree.
type TreeFile struct {
	Path string `json:"path"`
	Lang string `json:"lang"`
	Defs int    `json:"defs"` // definitions the index holds for it
}

// TreeResult is /api/tree's answer: every indexed file, sorted by path.
type TreeResult struct {
	Files []TreeFile `json:"files"`
	Defs  int        `json:"defs"`
}

// Tree lists the indexed files with their definition counts.
func (x *Explorer) Tree(ctx context.Context) (*TreeResult, error) {
	r, err := x.repo()
	if err != nil {
		return nil, err
	}
	files, err := r.ix.Files(ctx)
	if err != nil {
		return nil, err
	}
	defs, err := r.defs.get(ctx, r.ix)
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, d := range defs {
		count[d.Path]++
	}
	out := &TreeResult{Files: make([]TreeFile, 0, len(files)), Defs: len(defs)}
	for _, f := range files {
		out.Files = append(out.Files, TreeFile{Path: f.Path, Lang: f.Lang, Defs: count[f.Path]})
	}
	return out, nil
}

// SymbolMatches is /api/find's answer: definitions whose qualified name
// matches a fuzzy query, best first.
type SymbolMatches struct {
	Query   string `json:"query"`
	Matches []Def  `json:"matches"`
	Total   int    `json:"total"` // matches before the cut to maxMatches
}

// FindSymbols matches q against every definition's qualified name as a
// case-insensitive subsequence, as a code host's go-to-symbol does.
func (x *Explorer) FindSymbols(ctx context.Context, q string) (*SymbolMatches, error) {
	r, err := x.repo()
	if err != nil {
		return nil, err
	}
	q = strings.TrimSpace(q)
	switch {
	case q == "":
		return nil, fmt.Errorf("%w: empty query: type part of a definition's name", ErrBadRequest)
	case len(q) > maxQuery:
		return nil, fmt.Errorf("%w: query of %d bytes (limit %d): type part of a name", ErrBadRequest, len(q), maxQuery)
	}
	defs, err := r.defs.get(ctx, r.ix)
	if err != nil {
		return nil, err
	}
	type scored struct {
		i     int
		score int
	}
	var hits []scored
	for i, d := range defs {
		if s, ok := FuzzyScore(q, d.QName); ok {
			hits = append(hits, scored{i, s})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].score != hits[b].score {
			return hits[a].score > hits[b].score
		}
		return len(defs[hits[a].i].QName) < len(defs[hits[b].i].QName)
	})
	out := &SymbolMatches{Query: q, Matches: []Def{}, Total: len(hits)}
	for k := 0; k < len(hits) && k < maxMatches; k++ {
		out.Matches = append(out.Matches, defs[hits[k].i])
	}
	return out, nil
}

// Fuzzy scoring: what makes one subsequence match better than another.
const (
	fuzzyMatch     = 1  // each matched character
	fuzzyAdjacent  = 4  // a character right after the previous match: runs beat scatter
	fuzzyBoundary  = 6  // a match at a word start ('.', '_', '/', a lower→upper step)
	fuzzyNameStart = 10 // the first character of the last component (the name itself)
	fuzzyExactName = 40 // the query is the whole last component
)

// FuzzyScore reports whether pattern is a case-insensitive subsequence of
// s, and a score that favours runs, word starts and the last component.
// Matching is greedy from the left, which is what finders do and is cheap.
func FuzzyScore(pattern, s string) (int, bool) {
	p := []rune(strings.ToLower(pattern))
	rs := []rune(s)
	if len(p) == 0 || len(p) > len(rs) {
		return 0, false
	}
	last := strings.LastIndexAny(s, "./:") + 1 // the name's first byte
	nameStart := len([]rune(s[:last]))
	score, pi, prev := 0, 0, -2
	for i := 0; i < len(rs) && pi < len(p); i++ {
		if unicode.ToLower(rs[i]) != p[pi] {
			continue
		}
		score += fuzzyMatch
		if i == prev+1 {
			score += fuzzyAdjacent
		}
		if i == 0 || strings.ContainsRune("._/:-", rs[i-1]) || (unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1])) {
			score += fuzzyBoundary
		}
		if i == nameStart {
			score += fuzzyNameStart
		}
		prev = i
		pi++
	}
	if pi < len(p) {
		return 0, false
	}
	if strings.EqualFold(string(rs[nameStart:]), pattern) {
		score += fuzzyExactName
	}
	return score, true
}
