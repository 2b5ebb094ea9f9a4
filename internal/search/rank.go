package search

import (
	"context"
	"math"
	"path"
	"regexp"
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

	// DefinitionBoost multiplies the symbol signal of the site that defines a
	// name written as code in the task, so it ranks above the sites that only use it.
	DefinitionBoost = 2.0
	// TestDemotion scales test files' scores when the task is not about tests:
	// tests mention everything they test, so they would crowd out the code.
	TestDemotion = 0.5

	// LexicalFileShare and LexicalSymbolShare split the lexical signal between
	// the file as a whole (path and content) and the definition's own text.
	LexicalFileShare   = 0.7
	LexicalSymbolShare = 0.3

	// TracebackDecay is what each frame further out from the innermost
	// in-repository frame keeps of the traceback signal.
	TracebackDecay = 0.8
	// SpreadSecondHop is what a second hop along the graph keeps.
	SpreadSecondHop = 0.5
)

// Budgets.
const (
	maxQueryBytes   = 100 << 10 // longer task text is cut (and the Note says so)
	maxContentTerms = 10        // rarest identifiers given to ripgrep
	spreadSeeds     = 10        // definitions whose neighbours get spread
	spreadSeeds2    = 3         // of those, the ones whose neighbours' neighbours do
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
	exactDef                                     bool
	symWhy, spreadWhy, tbWhy                     string
	contentTerms                                 []string
}

type queryInfo struct {
	ex         Extracted
	terms      []string // distinct lexical terms
	termSet    map[string]bool
	stemSet    map[string]bool
	identW     map[string]float64 // exact-case identifier → weight
	identLower map[string]float64
	pairs      map[string]bool // "Parent.name" pairs from dotted names
	aboutTests bool
	frames     []Frame
	note       []string
}

var aboutTestsRE = regexp.MustCompile(`(?i)\b(fix|update|add|write|improve|rename|repair)\w*\s+(the\s+|a\s+|new\s+|more\s+|this\s+|our\s+)?(unit\s+|regression\s+)?tests?\b|\b(flaky|failing|broken)\s+tests?\s+in\s+(the\s+)?(repo|repository|test\s+suite|ci)\b`)

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
	for _, t := range qi.ex.Tokens {
		if !qi.termSet[t] {
			qi.termSet[t] = true
			qi.terms = append(qi.terms, t)
			qi.stemSet[stem(t)] = true
		}
	}
	qi.identW = map[string]float64{}
	qi.identLower = map[string]float64{}
	for _, id := range qi.ex.Idents {
		qi.identW[id.Name] = math.Max(qi.identW[id.Name], id.Weight)
		l := strings.ToLower(id.Name)
		qi.identLower[l] = math.Max(qi.identLower[l], id.Weight)
	}
	qi.pairs = map[string]bool{}
	for _, d := range qi.ex.Dotted {
		parts := strings.Split(d, ".")
		for j := 1; j < len(parts); j++ {
			qi.pairs[parts[j-1]+"."+parts[j]] = true
		}
	}
	// Only a test file of this repository, named with its directory, makes the
	// task about tests: issue reports name their own test_x.py all the time.
	for _, f := range ResolveFrames(pathFrames(qi.ex.Paths), c.fileSet) {
		if f.Rel != "" && strings.Contains(f.Path, "/") && IsTestPath(f.Rel) {
			qi.aboutTests = true
		}
	}
	if aboutTestsRE.MatchString(text) {
		qi.aboutTests = true
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
		res.TookMS = ms(time.Since(start))
		return res, nil
	}
	if strings.TrimSpace(q.Traceback) != "" && len(ParseTraceback(q.Traceback)) == 0 {
		qi.note = append(qi.note, "the --traceback text holds no stack frames; it was searched as words")
	}
	if len(c.defs) == 0 && len(c.files) == 0 {
		res.Note = "the index is empty: no source files were indexed under " + c.root
		res.TookMS = ms(time.Since(start))
		return res, nil
	}

	cands := make([]candidate, len(c.defs))
	fileC := make([]candidate, len(c.files))

	c.scoreSymbols(qi, cands)
	c.scorePaths(qi, fileC)
	if err := c.scoreContent(ctx, qi, cands, fileC); err != nil {
		return nil, err
	}
	c.scoreLexical(qi, cands, fileC)
	c.scoreTraceback(qi, cands, fileC)
	for i, f := range c.files {
		fileC[i].recency = c.recent[f.path]
	}
	// File-level signals reach each of the file's definitions.
	for i := range cands {
		f := &fileC[c.defFile[i]]
		cands[i].path = f.path
		cands[i].recency = f.recency
	}
	c.scoreSpread(cands, fileC)

	// Score every definition, then order only the ones that can make the cut.
	hits := make([]Hit, 0, 4*k)
	scores := make([]float64, len(cands))
	var order []int
	for i := range cands {
		s := c.signals(&cands[i], c.files[c.defFile[i]].isTest && !qi.aboutTests)
		if scores[i] = total(s); scores[i] > 0 {
			order = append(order, i)
		}
	}
	if len(order) > 4*k {
		// Keep everything scoring at least the 4k-th best, so ties at the
		// cut are all sorted by the full tie-break.
		tmp := make([]float64, len(order))
		for j, i := range order {
			tmp[j] = scores[i]
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(tmp)))
		cut := tmp[4*k-1]
		kept := order[:0]
		for _, i := range order {
			if scores[i] >= cut {
				kept = append(kept, i)
			}
		}
		order = kept
	}
	for _, i := range order {
		s := c.signals(&cands[i], c.files[c.defFile[i]].isTest && !qi.aboutTests)
		h := Hit{Def: c.defs[i], Score: scores[i], Signals: s}
		if q.Explain {
			h.Explain = c.explain(&cands[i], s)
		}
		hits = append(hits, h)
	}
	sortHits(hits)
	// Files: their own signals plus their best definition's symbol match.
	for i := range c.files {
		f := &fileC[i]
		best := -1
		for j := c.files[i].first; j < c.files[i].first+c.files[i].n; j++ {
			if best < 0 || cands[j].sym > cands[best].sym || cands[j].sym == cands[best].sym && cands[j].exactDef && !cands[best].exactDef {
				best = j
			}
		}
		if best >= 0 && cands[best].sym > 0 {
			f.sym, f.exactDef, f.symWhy = cands[best].sym, cands[best].exactDef, cands[best].symWhy
		}
	}
	files := make([]FileHit, 0, len(fileC))
	for i := range fileC {
		s := c.signals(&fileC[i], c.files[i].isTest && !qi.aboutTests)
		score := total(s)
		if score <= 0 {
			continue
		}
		fh := FileHit{Path: c.files[i].path, Score: score, Signals: s}
		if q.Explain {
			fh.Explain = c.explain(&fileC[i], s)
		}
		files = append(files, fh)
	}
	sort.SliceStable(files, func(i, j int) bool {
		if files[i].Score != files[j].Score {
			return files[i].Score > files[j].Score
		}
		return files[i].Path < files[j].Path
	})
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
	res.TookMS = ms(time.Since(start))
	return res, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

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
	return s.Symbol + s.Path + s.Content + s.Lexical + s.Spread + s.Recency + s.Traceback + s.DefBoost + s.TestPenalty
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
// A name written in the task scores its context weight (1 in code, ProseWeight
// in prose) times its rarity in the repository (a name used in every file says
// little) times how unique the definition is (one of 30 `__init__`s less than
// the only `col_insert`). "Parent.name" written as a dotted name, or both
// parts named, scores 1. Otherwise a multi-part name scores half the share of
// its parts that the task mentions.
func (c *Corpus) scoreSymbols(qi queryInfo, cands []candidate) {
	for i, d := range c.defs {
		x := &cands[i]
		name := d.Name
		lower := strings.ToLower(name)
		w := qi.identW[name]
		why := "named in the task"
		if w == 0 {
			if wl := qi.identLower[lower]; wl > 0 {
				w = 0.5 * wl
				why = "named in the task (other case)"
			}
		}
		best := 0.0
		if w > 0 {
			uniq := 1 / (1 + math.Log(float64(len(c.byName[name]))))
			best = w * (0.35 + 0.65*c.rarity(lower)) * (0.5 + 0.5*uniq)
			x.exactDef = w >= 1
			x.symWhy = why
		}
		parent := ""
		if p := c.parentOf[i]; p >= 0 {
			parent = c.defs[p].Name
		} else {
			parent = strings.TrimSuffix(path.Base(d.Path), path.Ext(d.Path))
		}
		if parent != "" && w > 0 {
			if qi.pairs[parent+"."+name] {
				best, x.symWhy, x.exactDef = 1, "written as "+parent+"."+name, true
			} else if wp := qi.identW[parent]; wp >= 1 && w >= 1 && c.parentOf[i] >= 0 {
				if v := 0.9; v > best {
					best, x.symWhy = v, "it and its class "+parent+" are both named"
				}
			}
		}
		if best == 0 {
			toks := c.nameToks[i]
			if len(toks) >= 2 {
				var hit, all float64
				for _, t := range toks {
					idf := c.defBM25.IDF(t)
					all += idf
					if qi.termSet[t] || qi.stemSet[stem(t)] {
						hit += idf
					}
				}
				if all > 0 && hit > 0 {
					cov := hit / all
					best = 0.5 * cov * cov
					x.symWhy = "its name's words appear in the task"
				}
			}
		}
		x.sym = best
	}
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
	for i, f := range c.files {
		x := &fileC[i]
		if v, ok := exact[f.path]; ok {
			x.path = v
			continue
		}
		// Words: the file stem counts 0.7, the directories 0.3, each part
		// weighted by its rarity.
		segs := strings.Split(strings.TrimSuffix(f.path, path.Ext(f.path)), "/")
		stemToks := nameTokens(segs[len(segs)-1])
		var dirToks []string
		for _, s := range segs[:len(segs)-1] {
			dirToks = append(dirToks, nameTokens(s)...)
		}
		share := func(toks []string) float64 {
			var hit, all float64
			for _, t := range toks {
				if t == "init" || t == "py" {
					continue
				}
				r := c.rarity(t)
				all += 1
				if qi.termSet[t] || qi.stemSet[stem(t)] {
					hit += r
				}
			}
			if all == 0 {
				return 0
			}
			return hit / all
		}
		x.path = 0.7*share(stemToks) + 0.3*share(dirToks)
	}
}

// contentTerms picks the task's rarest code identifiers for ripgrep.
func (c *Corpus) contentTerms(qi queryInfo) []string {
	type tw struct {
		t string
		r float64
	}
	var ts []tw
	for _, id := range qi.ex.Idents {
		if id.Weight < 1 || len(id.Name) < 3 {
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

// scoreContent is signal 3: ripgrep for the rarest task identifiers, each
// match credited to its innermost enclosing definition and its file. A
// definition holding the three rarest terms scores 1.
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
	matches, err := GrepTerms(ctx, c.root, terms, c.allPaths)
	if err != nil {
		return err
	}
	defTerms := map[int]map[string]bool{}
	fileTerms := map[int]map[string]bool{}
	for _, m := range matches {
		fi, ok := c.fileIdx[m.Path]
		if !ok {
			continue
		}
		if fileTerms[fi] == nil {
			fileTerms[fi] = map[string]bool{}
		}
		fileTerms[fi][m.Term] = true
		if di := c.innermost(fi, m.Offset); di >= 0 {
			if defTerms[di] == nil {
				defTerms[di] = map[string]bool{}
			}
			defTerms[di][m.Term] = true
		}
	}
	score := func(set map[string]bool) (float64, []string) {
		s := 0.0
		var ts []string
		for t := range set {
			s += idf[t]
			ts = append(ts, t)
		}
		sort.Strings(ts)
		return math.Min(1, s/full), ts
	}
	for di, set := range defTerms {
		cands[di].content, cands[di].contentTerms = score(set)
	}
	for fi, set := range fileTerms {
		fileC[fi].content, fileC[fi].contentTerms = score(set)
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

// scoreLexical is signal 4: BM25 of the task's words over files (path and
// content) and over definitions (qualified name and own text), each divided
// by its best score, mixed LexicalFileShare : LexicalSymbolShare.
func (c *Corpus) scoreLexical(qi queryInfo, cands, fileC []candidate) {
	fs := c.fileBM25.Score(qi.terms)
	ds := c.defBM25.Score(qi.terms)
	fmax, dmax := maxOf(fs), maxOf(ds)
	for i := range fileC {
		if fmax > 0 {
			fileC[i].lex = fs[i] / fmax
		}
	}
	for i := range cands {
		v := 0.0
		if fmax > 0 {
			v += LexicalFileShare * fs[c.defFile[i]] / fmax
		}
		if dmax > 0 {
			v += LexicalSymbolShare * ds[i] / dmax
		}
		cands[i].lex = v
	}
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
