package search

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"path"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/index"
)

// Signal weights. Each signal is normalised to 0–1 first; the weight says how
// much one full unit of it is worth against the others.
const (
	// WeightSymbol: a definition named in the task is usually what it is about.
	WeightSymbol = 0.8
	// WeightPath: file names are chosen by topic, but a path word in prose is weak evidence.
	WeightPath = 0.4
	// WeightContent: rare task identifiers used inside a definition tie it to the task.
	WeightContent = 0.6
	// WeightLexical: BM25 over all words is the strongest general-purpose relevance signal.
	WeightLexical = 0.9
	// WeightSpread: neighbours of strong hits often hold the fix, but only by association.
	WeightSpread = 0.5
	// WeightRecency: recently touched code is where new bugs live, a mild prior.
	WeightRecency = 0.3
	// WeightTraceback: a frame in the repository is direct evidence of where the failure runs.
	WeightTraceback = 1.0
	// WeightFile: a definition in the best-ranked file is likelier the one
	// to change than an equally scored one in a weak file: a file's score
	// gathers evidence (its path, its other definitions, the graph) that
	// no single definition's own score sees.
	WeightFile = 0.6
	// WeightPackage: a file among the best files gets a small share of the
	// scores of the others in its directory: the fix tends to sit in the
	// package the evidence gathers in (see packageEvidence).
	WeightPackage = 0.2

	// ConstructorShare is what a called class's constructor (__init__,
	// __new__) gets of the class's own symbol score: calling a class runs
	// its constructor, so `Permutation([[0, 1], [0, 1]])` failing points
	// into Permutation.__new__ as much as at the class.
	ConstructorShare = 0.9

	// DispatchShare is what a method named after a class the task names
	// (`_print_SeqFormula` for SeqFormula) gets of the class's symbol
	// score: printers and visitors write a class's behaviour there.
	DispatchShare = 0.8

	// DefinitionBoost multiplies the symbol signal of the site that defines a
	// name written as code in the task, so it ranks above the sites that only use it.
	DefinitionBoost = 2.0
	// TestDemotion scales test files' scores when the task is not about tests:
	// tests mention everything they test, so they would crowd out the code.
	// Documentation, examples, benchmarks and setup scripts (IsAuxPath) are
	// demoted the same way unless the task names them: they mention the
	// whole API and are rarely where a bug is fixed.
	TestDemotion = 0.5

	// CodeTermWeight is how much more a lexical term counts when the task
	// writes it as code (a code span, a snippet, an error message) than as a
	// prose word: identifiers are chosen, prose words are incidental.
	CodeTermWeight = 2.0
	// TitleTermWeight multiplies the lexical weight of the words of the
	// task's first line when it reads as a title (short, followed by more
	// text): an issue's title is its densest statement of what is wrong.
	TitleTermWeight = 1.5
	// ErrorMessageScore is the traceback signal of the definition whose
	// source holds a quoted error message: it is almost always the raise site.
	ErrorMessageScore = 0.9

	// MoreNamesDecay: a file that defines several of the things the task
	// names or describes (MatrixSymbol, Identity and ZeroMatrix for a
	// report about an identity matrix of symbols) is likelier the place
	// than one that defines a single match. A file's symbol signal is its
	// best definition's plus each further distinct name's score times
	// MoreNamesDecay to the power of its place, so a long tail of weak
	// matches in a big module adds at most one more best match's worth.
	MoreNamesDecay = 0.5

	// LexicalFileShare and LexicalSymbolShare split a file's lexical signal
	// between the file as a whole (path and content) and its best definition.
	LexicalFileShare   = 0.7
	LexicalSymbolShare = 0.3
	// DefLexicalFileShare is the file's part of a definition's lexical
	// signal; the rest is the definition's own text. The file part only
	// orders definitions across files, which the file signal (WeightFile)
	// already does; within a file the definition's own words decide.
	DefLexicalFileShare = 0.4

	// ScatteredNameShare is what a multi-word definition name matched
	// by the task's words keeps when those words are scattered over the
	// text rather than written together: "exit code" names ExitCode, but
	// "pluggy" in a pip freeze and "dir" three paragraphs later do not name
	// _PLUGGY_DIR. A long issue covers many names' words by chance.
	ScatteredNameShare = 0.5
	// nameWindow is how far apart (in the task's token stream) consecutive
	// words of a name may be and still count as written together.
	nameWindow = 3

	// TracebackDecay is what each frame further out from the innermost
	// in-repository frame keeps of the traceback signal.
	TracebackDecay = 0.8
	// SpreadSecondHop is what a second hop along the graph keeps.
	SpreadSecondHop = 0.5
)

// Budgets.
const (
	maxQueryBytes    = 100 << 10 // longer task text is cut (and the Note says so)
	maxContentTerms  = 10        // rarest identifiers given to ripgrep
	spreadSeeds      = 10        // definitions whose neighbours get spread
	spreadSeeds2     = 3         // of those, the ones whose neighbours' neighbours do
	fillerFiles      = 10        // best files whose every definition is ranked, evidence or not
	packagePool      = 20        // best files whose scores their directory's other files share
	maxErrorFrags    = 4         // literal fragments of error messages searched
	maxTitleBytes    = 160       // a longer first line is prose, not a title
	maxTermPositions = 64        // positions of one term kept for the name-window check
)

// Run ranks ix's definitions and files for q. ix should be up to date (the
// caller runs ix.Update). An empty or stop-word-only query returns an empty
// Result whose Note says why.
func Run(ctx context.Context, ix *index.Index, q Query) (*Result, error) {
	start := time.Now()
	c, err := Prepare(ctx, ix)
	if err != nil {
		return nil, err
	}
	return c.Search(ctx, ix, q, start)
}

// candidate is one definition's raw signals (0–1 each) and why.
type candidate struct {
	sym, path, content, lex, spread, recency, tb float64
	pkg                                          float64 // files: the package signal (packageEvidence)
	pkgDir                                       string  // files: the directory whose files gave pkg
	lexFile                                      float64 // files: the whole-file BM25 part of lex
	fileCtx                                      float64 // definitions: their file's score over the best file's
	exactDef                                     bool
	symWhy, spreadWhy, tbWhy                     string
	contentTerms                                 []string
}

type queryInfo struct {
	ex         Extracted
	terms      []string           // distinct lexical terms
	termW      map[string]float64 // lexical term → weight (CodeTermWeight for code terms)
	termSet    map[string]bool
	stemSet    map[string]bool
	stemPos    map[string][]int   // stemmed term → its first positions in the task's token stream
	identW     map[string]float64 // exact-case identifier → weight
	identLower map[string]float64
	options    map[string]bool    // option names as code writes them (Extracted.Options), lower case
	pairs      map[string]bool    // "Parent.name" pairs from dotted names and chained calls
	calls      map[string]float64 // called name → weight of where the call is written
	aboutTests bool
	named      map[string]bool // repository files the task writes by path
	frames     []Frame
	ops        map[string]string // special method → the operation in the task that runs it
	note       []string
}

var aboutTestsRE = lazyRegexp(`(?i)\b(fix|update|add|write|improve|rename|repair)\w*\s+(the\s+|a\s+|new\s+|more\s+|this\s+|our\s+)?(unit\s+|regression\s+)?tests?\b|\b(flaky|failing|broken)\s+tests?\s+in\s+(the\s+)?(repo|repository|test\s+suite|ci)\b`)

func (c *Corpus) analyse(q Query) queryInfo {
	text := q.Text
	var qi queryInfo
	if len(text) > maxQueryBytes {
		text = text[:maxQueryBytes]
		qi.note = append(qi.note, "query cut to its first 100 KiB")
	}
	tb := q.Traceback
	if len(tb) > maxQueryBytes {
		tb = tb[len(tb)-maxQueryBytes:] // the innermost frames are at the end
		qi.note = append(qi.note, "traceback cut to its last 100 KiB")
	}
	qi.ex = ExtractIdents(StripFrameLines(text + "\n" + tb))
	qi.termSet = map[string]bool{}
	qi.stemSet = map[string]bool{}
	qi.stemPos = map[string][]int{}
	for p, t := range qi.ex.Tokens {
		if st := stem(t); len(qi.stemPos[st]) < maxTermPositions {
			qi.stemPos[st] = append(qi.stemPos[st], p)
		}
		if !qi.termSet[t] {
			qi.termSet[t] = true
			qi.terms = append(qi.terms, t)
			qi.stemSet[stem(t)] = true
		}
	}
	qi.termW = map[string]float64{}
	for _, t := range qi.ex.CodeToks {
		qi.termW[t] = CodeTermWeight
	}
	if title, rest, ok := strings.Cut(strings.TrimSpace(text), "\n"); ok && len(title) <= maxTitleBytes && strings.TrimSpace(rest) != "" {
		seen := map[string]bool{}
		for _, t := range Tokenize(title) {
			if !seen[t] {
				seen[t] = true
				qi.termW[t] = max(qi.termW[t], 1) * TitleTermWeight
			}
		}
	}
	qi.identW = map[string]float64{}
	qi.identLower = map[string]float64{}
	for _, id := range qi.ex.Idents {
		qi.identW[id.Name] = math.Max(qi.identW[id.Name], id.Weight)
		l := strings.ToLower(id.Name)
		qi.identLower[l] = math.Max(qi.identLower[l], id.Weight)
	}
	qi.options = map[string]bool{}
	for _, o := range qi.ex.Options {
		qi.options[o] = true
	}
	qi.pairs = map[string]bool{}
	for _, d := range qi.ex.Dotted {
		parts := strings.Split(d, ".")
		for j := 1; j < len(parts); j++ {
			qi.pairs[parts[j-1]+"."+parts[j]] = true
		}
	}
	for _, p := range qi.ex.Chained {
		qi.pairs[p] = true
	}
	qi.calls = map[string]float64{}
	for _, id := range qi.ex.Calls {
		qi.calls[id.Name] = id.Weight
	}
	// Only a test file of this repository, named with its directory, makes the
	// task about tests: issue reports name their own test_x.py all the time.
	for _, f := range ResolveFrames(pathFrames(qi.ex.Paths), c.fileSet) {
		if f.Rel != "" && strings.Contains(f.Path, "/") && IsTestPath(f.Rel) {
			qi.aboutTests = true
		}
	}
	if aboutTestsRE().MatchString(text) {
		qi.aboutTests = true
	}
	qi.named = map[string]bool{}
	for _, f := range ResolveFrames(pathFrames(qi.ex.Paths), c.fileSet) {
		if f.Rel != "" {
			qi.named[f.Rel] = true
		}
	}
	frames := ParseTraceback(text)
	n := 0
	for _, f := range frames {
		n = max(n, f.Trace+1)
	}
	for _, f := range ParseTraceback(tb) {
		f.Trace += n
		frames = append(frames, f)
	}
	qi.frames = ResolveFrames(frames, c.fileSet)
	qi.ops = operations(text)
	return qi
}

// stem is a light plural folding for path and name matching ("blueprints" ~ "blueprint").
func stem(t string) string {
	if len(t) > 3 && strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss") {
		return t[:len(t)-1]
	}
	return t
}

// rarity is the term's idf in the file corpus relative to the largest possible, in [0, 1].
func (c *Corpus) rarity(t string) float64 {
	n := float64(c.fileBM25.Len())
	if n < 2 {
		return 1
	}
	maxIDF := math.Log(1 + (n-1+0.5)/1.5)
	df := c.fileBM25.DF(t)
	if df == 0 {
		return 1
	}
	return math.Min(1, c.fileBM25.IDF(t)/maxIDF)
}

// Search ranks the corpus for q. ix answers the graph queries of the spread
// signal; start is when the caller began timing.
func (c *Corpus) Search(ctx context.Context, ix *index.Index, q Query, start time.Time) (*Result, error) {
	// Postings and graph lists may be slices of the corpus file's mapping,
	// which is unmapped once the corpus is unreachable: the corpus must
	// outlive every such slice in use here, even when another goroutine
	// replaces it in the cache meanwhile.
	defer runtime.KeepAlive(c)
	k := q.K
	if k <= 0 {
		k = 10
	}
	qi := c.analyse(q)
	res := &Result{Query: q.Text, Tokens: qi.terms, Frames: qi.frames, Hits: []Hit{}, Files: []FileHit{}}
	if res.Tokens == nil {
		res.Tokens = []string{}
	}
	inRepo := 0
	for _, f := range qi.frames {
		if f.Rel != "" {
			inRepo++
		}
	}
	if len(qi.terms) == 0 && len(qi.ex.Idents) == 0 && inRepo == 0 {
		res.Note = "the query has no searchable words (empty, only stop words, or not text)"
		if strings.TrimSpace(q.Text) == "" && strings.TrimSpace(q.Traceback) == "" {
			res.Note = "empty query: say what to find"
		}
		res.TookMS = Millis(time.Since(start))
		return res, nil
	}
	if strings.TrimSpace(q.Traceback) != "" && len(ParseTraceback(q.Traceback)) == 0 {
		qi.note = append(qi.note, "the --traceback text holds no stack frames; it was searched as words")
	}
	if len(c.defs) == 0 && len(c.files) == 0 {
		res.Note = "the index is empty: no source files were indexed under " + c.root
		res.TookMS = Millis(time.Since(start))
		return res, nil
	}

	cands := make([]candidate, len(c.defs))
	fileC := make([]candidate, len(c.files))

	c.scoreSymbols(qi, cands)
	c.scorePaths(qi, fileC)
	if err := c.scoreContent(ctx, qi, cands, fileC); err != nil {
		return nil, err
	}
	defLex := c.scoreLexical(qi, cands, fileC)
	c.scoreTraceback(qi, cands, fileC)
	if err := c.scoreErrors(ctx, qi, cands, fileC); err != nil {
		return nil, err
	}
	for i, f := range c.files {
		fileC[i].recency = c.recent[f.path]
	}
	// File-level signals reach each of the file's definitions.
	for i := range cands {
		f := &fileC[c.defFile[i]]
		cands[i].path, cands[i].recency = f.path, f.recency
	}
	c.scoreSpread(cands, fileC)
	demoted := func(fi int) bool {
		f := c.files[fi]
		if qi.named[f.path] {
			return false
		}
		return f.isTest && !qi.aboutTests || f.isAux
	}

	// Files: their own signals plus their best definition's symbol match.
	for i := range c.files {
		f := &fileC[i]
		best := -1
		for j := c.files[i].first; j < c.files[i].first+c.files[i].n; j++ {
			if cands[j].sym == 0 {
				continue
			}
			if best < 0 || cands[j].sym > cands[best].sym || cands[j].sym == cands[best].sym && cands[j].exactDef && !cands[best].exactDef {
				best = j
			}
		}
		if best >= 0 {
			f.sym, f.exactDef, f.symWhy = cands[best].sym, cands[best].exactDef, cands[best].symWhy
			if more, n := c.moreNames(cands, i, best); more > 0 {
				sym := math.Min(1, f.sym+more)
				if add := WeightSymbol * (sym - f.sym); add >= 0.005 {
					f.symWhy += fmt.Sprintf("; %d more names it defines match too (+%.2f)", n, add)
				}
				f.sym = sym
			}
		}
	}
	fileScore := make([]float64, len(c.files))
	files := make([]FileHit, 0, 4*k)
	var forder []int
	for i := range fileC {
		fileScore[i] = total(c.signals(&fileC[i], demoted(i)))
		if fileScore[i] > 0 {
			forder = append(forder, i)
		}
	}
	byScore := func(a, b int) bool {
		x, y := forder[a], forder[b]
		if fileScore[x] != fileScore[y] {
			return fileScore[x] > fileScore[y]
		}
		return c.files[x].path < c.files[y].path
	}
	sort.SliceStable(forder, byScore)
	if c.packageEvidence(forder, fileScore, fileC, demoted) {
		for _, i := range forder[:min(len(forder), packagePool)] {
			fileScore[i] = total(c.signals(&fileC[i], demoted(i)))
		}
		sort.SliceStable(forder, byScore)
	}

	// Definitions: each gets its file's standing (the file signal).
	if len(forder) > 0 {
		if top := fileScore[forder[0]]; top > 0 {
			for i := range cands {
				cands[i].fileCtx = math.Max(0, fileScore[c.defFile[i]]/top)
			}
		}
	}
	c.scoreOperations(qi, cands)
	// Each inherits its file's path, lexical and recency signals. Rank
	// those with evidence of their own, and every definition of the best
	// files.
	inTop := map[int]bool{}
	for j := 0; j < len(forder) && j < fillerFiles; j++ {
		inTop[forder[j]] = true
	}
	scores := make([]float64, len(cands))
	var order []int
	for i := range cands {
		x := &cands[i]
		own := x.sym > 0 || x.content > 0 || x.tb > 0 || x.spread > 0 || defLex[i] > 0
		fi := c.defFile[i]
		if !own && !inTop[fi] {
			continue
		}
		if sc := total(c.signals(x, demoted(fi))); sc > 0 {
			scores[i] = sc
			order = append(order, i)
		}
	}
	// Keep everything scoring at least the 4k-th best, so ties at the cut
	// are all ordered by the full tie-break.
	if len(order) > 4*k {
		top := topN(len(order), 4*k, func(j int) float64 { return scores[order[j]] })
		cut := scores[order[top[len(top)-1]]]
		kept := order[:0]
		for _, i := range order {
			if scores[i] >= cut {
				kept = append(kept, i)
			}
		}
		order = kept
	}
	hits := make([]Hit, 0, len(order))
	for _, i := range order {
		sg := c.signals(&cands[i], demoted(c.defFile[i]))
		h := Hit{Def: c.defs[i], Score: scores[i], Signals: sg}
		if q.Explain {
			h.Explain = c.explain(&cands[i], sg)
		}
		hits = append(hits, h)
	}
	sortHits(hits)
	listed := codeFirst(forder, demoted)
	for j := 0; j < len(listed) && j < 4*k; j++ {
		i := listed[j]
		sg := c.signals(&fileC[i], demoted(i))
		fh := FileHit{Path: c.files[i].path, Score: fileScore[i], Signals: sg}
		if q.Explain {
			fh.Explain = c.explain(&fileC[i], sg)
		}
		files = append(files, fh)
	}
	if len(hits) > k {
		hits = hits[:k]
	}
	if len(files) > k {
		files = files[:k]
	}
	res.Hits, res.Files = hits, files
	if len(hits) == 0 && len(files) == 0 {
		qi.note = append(qi.note, "nothing in the index matches the query's words")
	}
	res.Note = strings.Join(qi.note, "; ")
	res.TookMS = Millis(time.Since(start))
	return res, nil
}

// signals weights a candidate's raw signals into contributions.
func (c *Corpus) signals(x *candidate, demote bool) Signals {
	s := Signals{
		Symbol:    WeightSymbol * x.sym,
		Path:      WeightPath * x.path,
		Content:   WeightContent * x.content,
		Lexical:   WeightLexical * x.lex,
		Spread:    WeightSpread * x.spread,
		Recency:   WeightRecency * x.recency,
		Traceback: WeightTraceback * x.tb,
		File:      WeightFile * x.fileCtx,
		Package:   WeightPackage * x.pkg,
	}
	if x.exactDef {
		s.DefBoost = (DefinitionBoost - 1) * s.Symbol
	}
	if demote {
		s.TestPenalty = -(1 - TestDemotion) * total(s)
	}
	return s
}

func total(s Signals) float64 {
	return s.Symbol + s.Path + s.Content + s.Lexical + s.Spread + s.Recency + s.Traceback + s.File + s.Package + s.DefBoost + s.TestPenalty
}

// packageEvidence is the package signal, a score regularisation over
// directories (the cluster hypothesis: relevant files sit together): each
// of the packagePool best files that is not demoted gets the sum of the
// scores of the other such files in its own directory, over packagePool
// times the best file's score. A report about one part of a library
// finds evidence in several modules of the package that implements it,
// and of two files scoring alike the one among them is the likelier
// place of the fix; a lone module of another package that happens to
// share the task's words gets nothing. In a flat package every file gets
// about the same, so the order among them stays. forder is sorted by
// fileScore; it reports whether any file got the signal.
func (c *Corpus) packageEvidence(forder []int, fileScore []float64, fileC []candidate, demoted func(int) bool) bool {
	pool := forder[:min(len(forder), packagePool)]
	if len(pool) < 2 || fileScore[pool[0]] <= 0 {
		return false
	}
	top := fileScore[pool[0]]
	sum := map[string]float64{}
	n := map[string]int{}
	for _, i := range pool {
		if !demoted(i) {
			d := path.Dir(c.files[i].path)
			sum[d] += fileScore[i]
			n[d]++
		}
	}
	got := false
	for _, i := range pool {
		if demoted(i) {
			continue
		}
		d := path.Dir(c.files[i].path)
		if n[d] < 2 {
			continue
		}
		fileC[i].pkg, fileC[i].pkgDir = (sum[d]-fileScore[i])/(packagePool*top), d
		got = true
	}
	return got
}

// codeFirst is the order files are listed in: every file that is not
// demoted, then the demoted ones (tests when the task is not about tests,
// documentation, examples, setup scripts), each part by score. A demoted
// file is rarely where the fix for such a task goes, yet one that mentions
// the task's names in every line can score twice the code it exercises and
// keep its place above it at TestDemotion; listed after the code, it still
// shows what exercises the code without taking a code file's place. The
// scores are unchanged, so the definitions' file signal, the file spread
// and the package signal see the same order as before. forder is sorted
// by score and is not modified.
func codeFirst(forder []int, demoted func(int) bool) []int {
	out := make([]int, 0, len(forder))
	for _, i := range forder {
		if !demoted(i) {
			out = append(out, i)
		}
	}
	for _, i := range forder {
		if demoted(i) {
			out = append(out, i)
		}
	}
	return out
}

// specific is the part of a hit's score that is about the definition itself
// rather than its file: the tie-breaker that puts a symbol match above a
// file-level one.
func specific(s Signals) float64 { return s.Symbol + s.DefBoost + s.Content + s.Traceback }

func sortHits(hits []Hit) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if sa, sb := specific(a.Signals), specific(b.Signals); sa != sb {
			return sa > sb
		}
		if a.Def.Path != b.Def.Path {
			return a.Def.Path < b.Def.Path
		}
		if a.Def.Start != b.Def.Start {
			return a.Def.Start < b.Def.Start
		}
		return a.Def.QName < b.Def.QName
	})
}

// scoreSymbols is signal 1: identifiers of the task against definition names.
//
// A name written in the task scores its context weight (Ident.Weight) times
// its rarity in the repository (a name used in every file says little) times
// how unique the definition is (one of 30 `__init__`s less than the only
// `col_insert`); builtin-looking names are discounted by CommonNameDiscount.
// "Parent.name" written as a dotted name, or both parts named, scores 1.
// Otherwise a multi-part name scores half the square of the share of its
// parts (by idf) that the task mentions. Only definitions reachable from the
// task's names and words are visited.
func (c *Corpus) scoreSymbols(qi queryInfo, cands []candidate) {
	seen := make([]bool, len(c.defs))
	var visit []int
	mark := func(i int) {
		if !seen[i] {
			seen[i] = true
			visit = append(visit, i)
		}
	}
	for name := range qi.identW {
		for _, i := range c.byName[name] {
			mark(i)
		}
	}
	for lower := range qi.identLower {
		for _, i := range c.byLower[lower] {
			mark(i)
		}
	}
	for t := range qi.stemSet {
		for _, i := range c.nameTok[t] {
			mark(int(i))
		}
	}
	for name := range qi.calls {
		for _, i := range c.byName[name] {
			if c.defs[i].Kind == index.KindClass {
				for _, j := range c.constructors(i) {
					mark(j)
				}
			}
		}
	}
	for _, i := range visit {
		c.scoreSymbol(qi, i, &cands[i])
	}
	c.scoreDispatch(qi, cands)
}

// scoreDispatch credits dispatch methods named after a class the task
// names: a printer's or visitor's `_print_SeqFormula`, an `_eval_Foo`
// handler. Such a method is where the class's behaviour in that module is
// written, so it gets DispatchShare of the class's own symbol score.
func (c *Corpus) scoreDispatch(qi queryInfo, cands []candidate) {
	for name, w := range qi.identW {
		ds := c.bySegment[name]
		if len(ds) == 0 || w < SnippetWeight {
			continue
		}
		cls := -1
		for _, i := range c.byName[name] {
			if c.defs[i].Kind == index.KindClass {
				cls = i
				break
			}
		}
		if cls < 0 {
			continue
		}
		v := DispatchShare * c.nameScore(cls, w)
		for _, i := range ds {
			if x := &cands[i]; v > x.sym {
				x.sym, x.exactDef, x.symWhy = v, false, "a dispatch method for "+name+", which the task names"
			}
		}
	}
}

func (c *Corpus) scoreSymbol(qi queryInfo, i int, x *candidate) {
	d := c.defs[i]
	name := d.Name
	w := qi.identW[name]
	why := "named in the task"
	if w == 0 && len(qi.identLower) > 0 {
		if wl := qi.identLower[c.lowerName[i]]; wl > 0 {
			w = 0.5 * wl
			why = "named in the task (other case)"
			if qi.options[c.lowerName[i]] {
				// An option has no case of its own: ImportMode is
				// --import-mode as much as import_mode is.
				w, why = wl, "named by an option the task writes"
			}
		}
	}
	if w > 0 && IsCommonName(name) {
		w *= CommonNameDiscount
	}
	best := 0.0
	if w > 0 {
		best = c.nameScore(i, w)
		x.exactDef = w >= 1
		x.symWhy = why
		if parent := c.parentName[i]; parent != "" {
			if qi.pairs[parent+"."+name] {
				best, x.symWhy, x.exactDef = 1, "written as "+parent+"."+name, true
			} else if wp := qi.identW[parent]; wp >= 1 && w >= 1 && c.parentOf[i] >= 0 {
				if v := 0.9; v > best {
					best, x.symWhy = v, "it and its class "+parent+" are both named"
				}
			}
		}
	}
	if p := c.parentOf[i]; p >= 0 && (name == "__init__" || name == "__new__") && c.defs[p].Kind == index.KindClass {
		if wc := qi.calls[c.defs[p].Name]; wc > 0 {
			if cs := ConstructorShare * c.nameScore(p, wc); cs > best {
				best, x.symWhy, x.exactDef = cs, "constructor of "+c.defs[p].Name+", which the task calls", wc >= 1
			}
		}
	}
	if best == 0 {
		toks := c.nameToks[i]
		if len(toks) >= 2 {
			var hit float64
			var matched []string
			for j, t := range toks {
				if qi.termSet[t] || qi.stemSet[stem(t)] {
					hit += c.nameIDF[i][j]
					if st := stem(t); !slices.Contains(matched, st) {
						matched = append(matched, st)
					}
				}
			}
			if all := c.nameIDFSum[i]; all > 0 && hit > 0 {
				cov := hit / all
				best = 0.5 * cov * cov
				x.symWhy = "its name's words appear in the task"
				if len(matched) >= 2 && !together(qi.stemPos, matched) {
					best *= ScatteredNameShare
					x.symWhy = "its name's words appear in the task, apart"
				}
			}
		}
	}
	x.sym = best
}

// nameScore is the symbol score of definition i for its name written with
// context weight w: discounted by how common the name is in the repository
// (rarity) and by how many definitions share it.
func (c *Corpus) nameScore(i int, w float64) float64 {
	uniq := 1 / (1 + math.Log(float64(len(c.byName[c.defs[i].Name]))))
	return w * (0.35 + 0.65*c.rarity(c.lowerName[i])) * (0.5 + 0.5*uniq)
}

// moreNames is the evidence file fi's other definitions add to its best
// one's symbol score: each further distinct name that matches the task
// adds its score times MoreNamesDecay to the power of its place (best
// first), so the second name adds half its score, the third a quarter. It
// returns the sum and how many names added to it.
func (c *Corpus) moreNames(cands []candidate, fi, best int) (float64, int) {
	f := c.files[fi]
	byName := map[string]float64{} // each other name's best match
	for j := f.first; j < f.first+f.n; j++ {
		if name := c.defs[j].Name; cands[j].sym > 0 && name != c.defs[best].Name {
			byName[name] = max(byName[name], cands[j].sym)
		}
	}
	others := slices.Collect(maps.Values(byName))
	slices.SortFunc(others, func(a, b float64) int { return cmp.Compare(b, a) })
	sum, w := 0.0, MoreNamesDecay
	for _, o := range others {
		sum += w * o
		w *= MoreNamesDecay
	}
	return sum, len(others)
}

// constructors are class i's own __init__ and __new__ methods.
func (c *Corpus) constructors(i int) []int {
	var out []int
	f := c.files[c.defFile[i]]
	for j := i + 1; j < f.first+f.n && c.defs[j].Start < c.defs[i].End; j++ {
		if c.parentOf[j] == i && (c.defs[j].Name == "__init__" || c.defs[j].Name == "__new__") {
			out = append(out, j)
		}
	}
	return out
}

// scorePaths is signal 2: the task's paths, dotted module names and words
// against file paths.
func (c *Corpus) scorePaths(qi queryInfo, fileC []candidate) {
	// Written paths and dotted module names resolve to files outright.
	exact := map[string]float64{}
	for _, p := range qi.ex.Paths {
		for _, f := range ResolveFrames([]Frame{{Path: p}}, c.fileSet) {
			if f.Rel != "" {
				exact[f.Rel] = 1
			}
		}
	}
	for _, d := range qi.ex.Dotted {
		parts := strings.Split(d, ".")
		for l := len(parts); l >= 2; l-- {
			mod := strings.Join(parts[:l], "/")
			found := false
			for _, cand := range []string{mod + ".py", mod + "/__init__.py"} {
				for _, f := range ResolveFrames([]Frame{{Path: cand}}, c.fileSet) {
					if f.Rel != "" && len(strings.Split(f.Rel, "/")) >= 2 {
						exact[f.Rel] = math.Max(exact[f.Rel], 1)
						found = true
					}
				}
				if !found {
					if _, ok := c.fileIdx["src/"+cand]; ok {
						exact["src/"+cand] = 1
						found = true
					}
				}
			}
			if found {
				break
			}
		}
	}
	rar := map[string]float64{} // rarity of the path words the task hits
	for i, f := range c.files {
		x := &fileC[i]
		if v, ok := exact[f.path]; ok {
			x.path = v
			continue
		}
		// Words: the file stem counts 0.7, the directories 0.3, each part
		// weighted by its rarity.
		share := func(toks []string) float64 {
			var hit, all float64
			for _, t := range toks {
				if t == "init" || t == "py" {
					continue
				}
				all += 1
				if qi.termSet[t] || qi.stemSet[stem(t)] {
					r, ok := rar[t]
					if !ok {
						r = c.rarity(t)
						rar[t] = r
					}
					hit += r
				}
			}
			if all == 0 {
				return 0
			}
			return hit / all
		}
		x.path = 0.7*share(f.stemToks) + 0.3*share(f.dirToks)
	}
}

// contentTerms picks the task's rarest code identifiers for content search.
func (c *Corpus) contentTerms(qi queryInfo) []string {
	type tw struct {
		t string
		r float64
	}
	var ts []tw
	for _, id := range qi.ex.Idents {
		if id.Weight < SnippetWeight || len(id.Name) < 3 {
			continue
		}
		l := strings.ToLower(id.Name)
		if c.fileBM25.DF(l) == 0 || isStop(l) {
			continue
		}
		ts = append(ts, tw{id.Name, c.rarity(l)})
	}
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].r != ts[j].r {
			return ts[i].r > ts[j].r
		}
		return ts[i].t < ts[j].t
	})
	var out []string
	for _, t := range ts {
		if len(out) == maxContentTerms {
			break
		}
		out = append(out, t.t)
	}
	return out
}

// scoreContent is signal 3: where the rarest task identifiers occur (whole
// word, exact case), each occurrence credited to its innermost enclosing
// definition and its file. A definition holding the three rarest terms
// scores 1. The search runs in process over the corpus's identifier
// postings, or with ripgrep when the corpus holds no source (large
// repositories).
func (c *Corpus) scoreContent(ctx context.Context, qi queryInfo, cands, fileC []candidate) error {
	terms := c.contentTerms(qi)
	if len(terms) == 0 {
		return nil
	}
	idf := map[string]float64{}
	var idfs []float64
	for _, t := range terms {
		idf[t] = c.fileBM25.IDF(strings.ToLower(t))
		idfs = append(idfs, idf[t])
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(idfs)))
	full := 0.0
	for i := 0; i < len(idfs) && i < 3; i++ {
		full += idfs[i]
	}
	if full == 0 {
		return nil
	}
	defTerms := map[int][]string{}
	fileTerms := map[int][]string{}
	if c.idents != nil {
		for _, t := range terms {
			p := c.idents[t]
			if p == nil {
				continue
			}
			for _, fi := range p.files {
				fileTerms[int(fi)] = append(fileTerms[int(fi)], t)
			}
			for _, di := range p.defs {
				defTerms[int(di)] = append(defTerms[int(di)], t)
			}
		}
	} else {
		matches, err := GrepTerms(ctx, c.root, terms, c.allPaths)
		if err != nil {
			return err
		}
		for _, m := range matches {
			fi, ok := c.fileIdx[m.Path]
			if !ok {
				continue
			}
			fileTerms[fi] = appendNew(fileTerms[fi], m.Term)
			if di := c.innermost(fi, m.Offset); di >= 0 {
				defTerms[di] = appendNew(defTerms[di], m.Term)
			}
		}
	}
	score := func(ts []string) (float64, []string) {
		s := 0.0
		for _, t := range ts {
			s += idf[t]
		}
		sort.Strings(ts)
		return math.Min(1, s/full), ts
	}
	for di, ts := range defTerms {
		cands[di].content, cands[di].contentTerms = score(ts)
	}
	for fi, ts := range fileTerms {
		fileC[fi].content, fileC[fi].contentTerms = score(ts)
	}
	return nil
}

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// errorFragRE splits an error message into its literal parts: quoted
// values, numbers and brackets vary from run to run, the words around them
// are written in the source.
var errorFragRE = lazyRegexp(`'[^']*'|"[^"]*"|` + "`[^`]*`" + `|\b\d+(?:\.\d+)?\b|[(){}\[\]<>:=,]`)

// errorFragments returns the literal fragments of error messages worth
// searching for, longest first: at least two words and 12 characters.
func errorFragments(msgs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		for _, f := range errorFragRE().Split(m, -1) {
			f = strings.TrimSpace(f)
			f = strings.Trim(f, ".!;")
			f = strings.TrimSpace(f)
			if len(f) < 12 || len(strings.Fields(f)) < 2 || seen[f] {
				continue
			}
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	if len(out) > maxErrorFrags {
		out = out[:maxErrorFrags]
	}
	return out
}

// scoreErrors credits the definitions whose source holds a literal fragment
// of an error message quoted in the task (the traceback signal at
// ErrorMessageScore): the code that raises an error is where its message is
// written. Candidate files are those holding the fragment's rarest word.
func (c *Corpus) scoreErrors(ctx context.Context, qi queryInfo, cands, fileC []candidate) error {
	frags := errorFragments(qi.ex.Errors)
	srcs := map[int32][]byte{} // files read from disk, once each per search
	for _, frag := range frags {
		if err := ctx.Err(); err != nil {
			return err
		}
		var offs []ContentMatch
		if c.idents != nil {
			rare := ""
			for _, w := range identRE().FindAllString(frag, -1) {
				if p := c.idents[w]; p != nil && (rare == "" || len(p.files) < len(c.idents[rare].files)) {
					rare = w
				}
			}
			if rare == "" {
				continue
			}
			needle := []byte(frag)
			for _, fi := range c.idents[rare].files {
				src, ok := srcs[fi]
				if !ok {
					src = c.source(int(fi))
					srcs[fi] = src
				}
				for from := 0; from < len(src); {
					j := bytes.Index(src[from:], needle)
					if j < 0 {
						break
					}
					offs = append(offs, ContentMatch{Path: c.files[fi].path, Offset: from + j, Term: frag})
					from += j + len(needle)
				}
			}
		} else {
			ms, err := grepFixed(ctx, c.root, frag, c.allPaths)
			if err != nil {
				return err
			}
			offs = ms
		}
		if len(offs) > 10 {
			continue // a fragment found everywhere is boilerplate, not a raise site
		}
		why := "holds the quoted error message \"" + frag + "\""
		for _, m := range offs {
			fi, ok := c.fileIdx[m.Path]
			if !ok || c.files[fi].isTest && !qi.aboutTests {
				continue // a test's assertion message points at the test, not the code
			}
			if fileC[fi].tb < ErrorMessageScore {
				fileC[fi].tb, fileC[fi].tbWhy = ErrorMessageScore, why
			}
			if di := c.innermost(fi, m.Offset); di >= 0 && cands[di].tb < ErrorMessageScore {
				cands[di].tb, cands[di].tbWhy = ErrorMessageScore, why
			}
		}
	}
	return nil
}

// innermost is the innermost definition of file fi holding byte offset off, or -1.
func (c *Corpus) innermost(fi, off int) int {
	f := c.files[fi]
	best := -1
	for j := f.first; j < f.first+f.n; j++ {
		d := c.defs[j]
		if d.Start > off {
			break
		}
		if off < d.End {
			best = j // later starts are nested deeper
		}
	}
	return best
}

// innermostLine is the innermost definition of file fi spanning 1-based line.
func (c *Corpus) innermostLine(fi, line int) int {
	f := c.files[fi]
	best := -1
	for j := f.first; j < f.first+f.n; j++ {
		d := c.defs[j]
		if d.StartLine > line {
			break
		}
		if line <= d.EndLine {
			best = j
		}
	}
	return best
}

// scoreLexical is signal 4: BM25 of the task's words (code terms weighted
// CodeTermWeight) over files (path and content) and over definitions
// (qualified name and own text), each divided by its best score. A file's
// lexical signal mixes its own score and its best definition's,
// LexicalFileShare : LexicalSymbolShare, so a file holding one very relevant
// function is not lost in a long module; a definition's mixes its file's
// and its own DefLexicalFileShare : the rest. It returns each definition's
// own part.
func (c *Corpus) scoreLexical(qi queryInfo, cands, fileC []candidate) []float64 {
	fs := c.fileBM25.ScoreWeighted(qi.terms, qi.termW)
	ds := c.defBM25.ScoreWeighted(qi.terms, qi.termW)
	fmax, dmax := maxOf(fs), maxOf(ds)
	if dmax > 0 {
		for i := range ds {
			ds[i] /= dmax
		}
	}
	for i := range fileC {
		if fmax > 0 {
			fileC[i].lexFile = fs[i] / fmax
		}
		best := 0.0
		f := c.files[i]
		for j := f.first; j < f.first+f.n; j++ {
			best = math.Max(best, ds[j])
		}
		fileC[i].lex = LexicalFileShare*fileC[i].lexFile + LexicalSymbolShare*best
	}
	for i := range cands {
		cands[i].lex = DefLexicalFileShare*fileC[c.defFile[i]].lexFile + (1-DefLexicalFileShare)*ds[i]
	}
	return ds
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

// scoreTraceback is signal 7: each in-repository frame credits its innermost
// definition and file; the innermost in-repository frame of each trace
// scores 1, each frame further out TracebackDecay times less.
func (c *Corpus) scoreTraceback(qi queryInfo, cands, fileC []candidate) {
	rank := map[int]int{} // trace → in-repo frames seen so far (frames come innermost first)
	for _, f := range qi.frames {
		if f.Rel == "" {
			continue
		}
		fi, ok := c.fileIdx[f.Rel]
		if !ok {
			continue
		}
		s := math.Pow(TracebackDecay, float64(rank[f.Trace]))
		rank[f.Trace]++
		why := "traceback frame"
		if s == 1 {
			why = "innermost traceback frame in the repository"
		}
		if s > fileC[fi].tb {
			fileC[fi].tb, fileC[fi].tbWhy = s, why+" ("+f.Rel+":"+itoa(f.Line)+")"
		}
		if di := c.innermostLine(fi, f.Line); di >= 0 && s > cands[di].tb {
			cands[di].tb, cands[di].tbWhy = s, why+" (line "+itoa(f.Line)+")"
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func pathFrames(paths []string) []Frame {
	fs := make([]Frame, len(paths))
	for i, p := range paths {
		fs[i] = Frame{Path: p}
	}
	return fs
}

// together reports whether the terms occur together somewhere in the
// task's token stream: within a window of nameWindow positions per term
// after the first.
func together(pos map[string][]int, terms []string) bool {
	type occ struct{ p, t int }
	var all []occ
	for ti, t := range terms {
		for _, p := range pos[t] {
			all = append(all, occ{p, ti})
		}
	}
	slices.SortFunc(all, func(a, b occ) int { return a.p - b.p })
	limit := nameWindow * (len(terms) - 1)
	count := make([]int, len(terms))
	have, lo := 0, 0
	for _, o := range all {
		if count[o.t] == 0 {
			have++
		}
		count[o.t]++
		for have == len(terms) {
			if o.p-all[lo].p <= limit {
				return true
			}
			count[all[lo].t]--
			if count[all[lo].t] == 0 {
				have--
			}
			lo++
		}
	}
	return false
}
