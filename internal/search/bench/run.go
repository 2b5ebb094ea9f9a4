package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/search"
)

// Options configure a benchmark run.
type Options struct {
	Data       string // dev.jsonl
	Repos      string // directory holding the mirrors
	Work       string // cache of extracted trees (one per repository)
	Limit      int    // first N records after filtering; 0 means all
	RepoFilter string // keep repositories whose owner/name contains this
	K          int    // definitions asked of the search; 0 means 50
	// DumpDefs is how many of the best definitions each --out line carries
	// with their signals (0: none), so a function-ranking rule can be
	// simulated on them; the predictions still use the best K.
	DumpDefs int
	// Open opens (creating) the index of a tree; app.OpenIndex in production.
	Open func(ctx context.Context, root string) (*index.Index, error)
	// Lang names the language of a source file, "" for any other file (the
	// index's parser): the BM25 peer's documents, and an instance's
	// language when its record has none.
	Lang func(path string) string
	// Out, if set, receives one JSON line per instance.
	Out io.Writer
	// Progress, if set, receives one line per instance.
	Progress func(msg string)
}

// Report is a benchmark run's result.
type Report struct {
	Instances int           `json:"instances"`
	Sets      []SetReport   `json:"sets"` // lite-274, all, verified-only (the held-out view)
	Took      time.Duration `json:"took_ns"`
	Failed    []string      `json:"failed,omitempty"` // instances that could not run, with why (scored as misses)
	// MissingBlobs counts, over the instances, files left out of their trees
	// because the mirror lacks their blobs.
	MissingBlobs int `json:"missing_blobs,omitempty"`
}

// SetReport is one instance set's scores: overall (micro: each instance
// weighs the same), as the mean of its repositories' (macro: each
// repository weighs the same), per repository and per language.
type SetReport struct {
	Name      string       `json:"name"`
	Grit      Table        `json:"grit"`
	BM25      Table        `json:"bm25"`       // file level only
	GritMacro Table        `json:"grit_macro"` // its Acc.N count repositories, not instances
	BM25Macro Table        `json:"bm25_macro"`
	Latency   Latency      `json:"latency"`
	Repos     []RepoReport `json:"repos"`
	Languages []LangReport `json:"languages"`
}

// LangReport is one language's share of a set.
type LangReport struct {
	Language string  `json:"language"`
	Repos    int     `json:"repos"`
	Grit     Table   `json:"grit"`
	BM25     Table   `json:"bm25"`
	Latency  Latency `json:"latency"`
}

// RepoReport is one repository's share of a set.
type RepoReport struct {
	Repo    string  `json:"repo"`
	Grit    Table   `json:"grit"`
	BM25    Table   `json:"bm25"`
	Latency Latency `json:"latency"`
}

// Latency summarises search times (warm index and corpus) in milliseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	Max float64 `json:"max_ms"`
}

// InstanceResult is one JSONL line: what was predicted, the gold, and where
// the gold ranked.
type InstanceResult struct {
	InstanceID   string   `json:"instance_id"`
	Repo         string   `json:"repo"`
	Split        string   `json:"split"`
	Lite274      bool     `json:"in_locagent_274"`
	Files        []string `json:"found_files"`
	Modules      []string `json:"found_modules"`
	Entities     []string `json:"found_entities"`
	BM25Files    []string `json:"bm25_files"`
	GoldFiles    []string `json:"gold_files"`
	GoldEntities []string `json:"gold_entities"`
	FileRank     int      `json:"gold_file_rank"` // 1-based rank of the first gold file, 0 if absent
	BM25Rank     int      `json:"bm25_gold_file_rank"`
	FileHit1     bool     `json:"file_hit_1"`
	FuncHit10    bool     `json:"function_hit_10"`
	SearchMS     float64  `json:"search_ms"`
	IndexMS      float64  `json:"index_ms"`
	Tokens       int      `json:"query_tokens"`
	Frames       int      `json:"frames"`
	Note         string   `json:"note,omitempty"`
	// MissingBlobs counts the files of the base commit the mirror lacks
	// (left out of the tree); Error says why an instance could not run (it
	// then scores 0).
	MissingBlobs int    `json:"missing_blobs,omitempty"`
	Error        string `json:"error,omitempty"`
	// FileScores are the best files' scores and per-signal contributions
	// (at most dumpFiles), so a ranking rule can be simulated on them.
	FileScores []FileScore `json:"file_scores,omitempty"`
	// DefScores are the best definitions' entities, scores and signals
	// (Options.DumpDefs of them).
	DefScores []DefScore `json:"def_scores,omitempty"`
}

// DefScore is one ranked definition in InstanceResult: its path, the gold's
// entity name for it (path:Scope.Name, "" when it is in no function), its
// length in lines, score and signals.
type DefScore struct {
	Path    string         `json:"path"`
	Entity  string         `json:"entity"`
	Lines   int            `json:"lines"`
	Score   float64        `json:"score"`
	Signals search.Signals `json:"signals"`
}

// FileScore is one ranked file's score and signals in InstanceResult.
type FileScore struct {
	Path    string         `json:"path"`
	Score   float64        `json:"score"`
	Signals search.Signals `json:"signals"`
}

// dumpFiles is how many of the best files an InstanceResult carries with their signals.
const dumpFiles = 20

// Run runs the benchmark.
func Run(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	if o.Open == nil || o.Lang == nil {
		return nil, fmt.Errorf("bench: no index opener or language namer")
	}
	if o.K <= 0 {
		o.K = 50
	}
	recs, err := LoadRecords(o.Data)
	if err != nil {
		return nil, err
	}
	if o.RepoFilter != "" {
		recs = Filter(recs, func(r Record) bool { return strings.Contains(r.Repo, o.RepoFilter) })
	}
	if o.Limit > 0 && len(recs) > o.Limit {
		recs = recs[:o.Limit]
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no instances left to run (check --repo-filter and --limit)")
	}
	jobs := make([]Job, len(recs))
	for i, r := range recs {
		jobs[i] = Job{Repo: r.Repo, Commit: r.BaseCommit, ID: r.InstanceID}
	}
	order, mirrors, err := Plan(ctx, o.Repos, jobs)
	if err != nil {
		return nil, err
	}
	ru := &run{o: o, rep: &Report{Instances: len(recs)}, total: len(order),
		preds: map[string]Prediction{}, bm25: map[string]Prediction{}, lat: map[string]float64{},
		baseline: newBM25Baseline(), co: &Checkouts{Work: o.Work, Mirrors: mirrors, Open: o.Open}}
	defer ru.co.Close()
	if o.Out != nil {
		ru.enc = json.NewEncoder(o.Out)
	}
	for n, i := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := ru.instance(ctx, n, recs[i]); err != nil {
			return nil, err
		}
	}
	ru.rep.Sets = scoreSets(recs, ru.preds, ru.bm25, ru.lat, o.Lang)
	ru.rep.Took = time.Since(start)
	return ru.rep, nil
}

// run is one benchmark run's state as it goes from instance to instance.
type run struct {
	o        Options
	rep      *Report
	total    int
	preds    map[string]Prediction // Grit's, by instance
	bm25     map[string]Prediction // the BM25 peer's
	lat      map[string]float64    // search milliseconds
	baseline *bm25Baseline
	co       *Checkouts
	enc      *json.Encoder // nil without Out
}

// fail records an instance that cannot run: it stays in the scores (as a
// miss), in Failed and in Out, with its reason.
func (ru *run) fail(n int, r Record, stage string, err error, missing int) error {
	why := fmt.Sprintf("%s: %v", stage, err)
	ru.rep.Failed = append(ru.rep.Failed, r.InstanceID+": "+why)
	if ru.o.Progress != nil {
		ru.o.Progress(fmt.Sprintf("[%d/%d] %s failed: %s", n+1, ru.total, r.InstanceID, why))
	}
	if ru.enc == nil {
		return nil
	}
	ir := InstanceResult{InstanceID: r.InstanceID, Repo: r.Repo, Split: r.Split, Lite274: r.Lite274(),
		GoldFiles: r.GoldFiles, GoldEntities: r.GoldEntities, MissingBlobs: missing, Error: why}
	if err := ru.enc.Encode(ir); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// instance checks out the n-th instance r, brings its index up to date,
// searches, and records Grit's and the peer's predictions. An error ends
// the run; an instance that cannot run is recorded by fail.
func (ru *run) instance(ctx context.Context, n int, r Record) error {
	tree, moved, err := ru.co.Checkout(ctx, r.Repo, r.BaseCommit)
	if moved {
		ru.baseline.reset()
	}
	if err != nil {
		return ru.fail(n, r, "checkout", err, 0)
	}
	missing := len(tree.Missing())
	ru.rep.MissingBlobs += missing
	ix, err := ru.co.Index(ctx)
	if err != nil {
		return err
	}
	t0 := time.Now()
	if _, err := ix.Update(ctx); err != nil {
		return ru.fail(n, r, "index", err, missing)
	}
	if _, err := search.Prepare(ctx, ix); err != nil {
		return ru.fail(n, r, "prepare", err, missing)
	}
	indexMS := float64(time.Since(t0).Microseconds()) / 1000
	t1 := time.Now()
	res, err := search.Run(ctx, ix, search.Query{Text: r.ProblemStatement, K: max(ru.o.K, ru.o.DumpDefs)})
	took := float64(time.Since(t1).Microseconds()) / 1000
	if err != nil {
		return ru.fail(n, r, "search", err, missing)
	}
	all := res.Hits
	res.Hits = res.Hits[:min(len(res.Hits), ru.o.K)]
	p, err := predict(ctx, ix, r.InstanceID, res)
	if err != nil {
		return ru.fail(n, r, "predictions", err, missing)
	}
	ru.preds[r.InstanceID] = p
	ru.lat[r.InstanceID] = took
	bfiles, err := ru.baseline.rank(tree.Dir, r.ProblemStatement, ru.o.Lang)
	if err != nil { // Grit's result stands; the peer scores 0 here
		ru.rep.Failed = append(ru.rep.Failed, fmt.Sprintf("%s: bm25: %v", r.InstanceID, err))
	}
	ru.bm25[r.InstanceID] = Prediction{InstanceID: r.InstanceID, Files: bfiles}
	ir := InstanceResult{
		InstanceID: r.InstanceID, Repo: r.Repo, Split: r.Split, Lite274: r.Lite274(),
		Files: p.Files, Modules: p.Modules, Entities: p.Entities, BM25Files: top(bfiles, 10),
		GoldFiles: r.GoldFiles, GoldEntities: r.GoldEntities,
		FileRank: firstRank(p.Files, r.GoldFiles), BM25Rank: firstRank(bfiles, r.GoldFiles),
		FileHit1: HitAt(p.Files, r.GoldFiles, 1), FuncHit10: len(r.GoldEntities) > 0 && HitAt(p.Entities, r.GoldEntities, 10),
		SearchMS: took, IndexMS: indexMS, Tokens: len(res.Tokens), Frames: len(res.Frames), Note: res.Note,
		MissingBlobs: missing,
	}
	for j, f := range res.Files {
		if j == dumpFiles {
			break
		}
		ir.FileScores = append(ir.FileScores, FileScore{Path: f.Path, Score: f.Score, Signals: f.Signals})
	}
	if ru.o.DumpDefs > 0 {
		names, _, err := entities(ctx, ix, all)
		if err != nil {
			return ru.fail(n, r, "predictions", err, missing)
		}
		for j, h := range all {
			ds := DefScore{Path: h.Def.Path, Lines: h.Def.EndLine - h.Def.StartLine + 1, Score: h.Score, Signals: h.Signals}
			if names[j] != "" {
				ds.Entity = h.Def.Path + ":" + names[j]
			}
			ir.DefScores = append(ir.DefScores, ds)
		}
	}
	if ru.enc != nil {
		if err := ru.enc.Encode(ir); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	if ru.o.Progress != nil {
		ru.o.Progress(fmt.Sprintf("[%d/%d] %s file@1=%v rank=%d bm25rank=%d func@10=%v %.1fms (index %.0fms)%s",
			n+1, ru.total, r.InstanceID, ir.FileHit1, ir.FileRank, ir.BM25Rank, ir.FuncHit10, took, indexMS, missingNote(missing)))
	}
	return nil
}

// scoreSets scores Grit and the BM25 peer on each instance set: overall,
// per repository (and their macro mean) and per language.
func scoreSets(recs []Record, preds, bm25 map[string]Prediction, lat map[string]float64, lang func(string) string) []SetReport {
	sets := []struct {
		name string
		keep func(Record) bool
	}{
		{"lite-274", Record.Lite274},
		{"all", func(Record) bool { return true }},
		{"verified-only", func(r Record) bool { return r.Split == "verified" }},
	}
	var out []SetReport
	for _, s := range sets {
		rs := Filter(recs, s.keep)
		if len(rs) == 0 {
			continue
		}
		sr := SetReport{Name: s.name, Grit: Evaluate(rs, preds), BM25: fileOnly(Evaluate(rs, bm25)), Latency: latency(rs, lat)}
		for _, repo := range Repos(rs) {
			rr := Filter(rs, func(r Record) bool { return r.Repo == repo })
			sr.Repos = append(sr.Repos, RepoReport{Repo: repo, Grit: Evaluate(rr, preds), BM25: fileOnly(Evaluate(rr, bm25)), Latency: latency(rr, lat)})
		}
		var gt, bt []Table
		for _, rr := range sr.Repos {
			gt, bt = append(gt, rr.Grit), append(bt, rr.BM25)
		}
		sr.GritMacro, sr.BM25Macro = Macro(gt), fileOnly(Macro(bt))
		for _, l := range languages(rs, lang) {
			lr := Filter(rs, func(r Record) bool { return recordLang(r, lang) == l })
			sr.Languages = append(sr.Languages, LangReport{Language: l, Repos: len(Repos(lr)),
				Grit: Evaluate(lr, preds), BM25: fileOnly(Evaluate(lr, bm25)), Latency: latency(lr, lat)})
		}
		out = append(out, sr)
	}
	return out
}

func missingNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d files left out: blobs missing from the mirror)", n)
}

func top(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

func fileOnly(t Table) Table {
	t.Module, t.Function = Acc{}, Acc{}
	return t
}

func firstRank(pred, gold []string) int {
	rr := ReciprocalRank(pred, gold)
	if rr == 0 {
		return 0
	}
	return int(1/rr + 0.5)
}

func latency(recs []Record, lat map[string]float64) Latency {
	var xs []float64
	for _, r := range recs {
		if v, ok := lat[r.InstanceID]; ok {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return Latency{}
	}
	sort.Float64s(xs)
	pct := func(p float64) float64 {
		i := int(p*float64(len(xs))+0.5) - 1 // nearest rank
		return xs[max(0, min(len(xs)-1, i))]
	}
	return Latency{N: len(xs), P50: pct(0.50), P95: pct(0.95), Max: xs[len(xs)-1]}
}

// predict turns a search result into LocAgent's three ranked lists. A
// definition counts as the function LocAgent would name for a change inside
// it: a method directly in a class is "Class.method", anything nested in a
// function is its outermost function; classes and variables name no
// function. Modules are the top-level class or function holding the hit.
func predict(ctx context.Context, ix *index.Index, id string, res *search.Result) (Prediction, error) {
	p := Prediction{InstanceID: id}
	for _, f := range res.Files {
		p.Files = append(p.Files, f.Path)
	}
	names, modules, err := entities(ctx, ix, res.Hits)
	if err != nil {
		return p, err
	}
	for i, h := range res.Hits {
		if names[i] != "" {
			p.Entities = append(p.Entities, h.Def.Path+":"+names[i])
		}
		if modules[i] != "" {
			p.Modules = append(p.Modules, h.Def.Path+":"+modules[i])
		}
	}
	p.Files, p.Modules, p.Entities = Dedup(p.Files), Dedup(p.Modules), Dedup(p.Entities)
	return p, nil
}

// entities names each hit as the gold does: its entity (entityName, "" when
// it is in no function) and its module, the outermost class or function
// around it ("" when there is none).
func entities(ctx context.Context, ix *index.Index, hits []search.Hit) (names, modules []string, err error) {
	byFile := map[string]map[string]index.Def{}
	names, modules = make([]string, len(hits)), make([]string, len(hits))
	for i, h := range hits {
		d := h.Def
		m, ok := byFile[d.Path]
		if !ok {
			syms, err := ix.Symbols(ctx, d.Path)
			if err != nil {
				return nil, nil, err
			}
			m = map[string]index.Def{}
			for _, s := range syms {
				if _, dup := m[s.QName]; !dup {
					m[s.QName] = s
				}
			}
			byFile[d.Path] = m
		}
		chain := []index.Def{d}
		for cur := d; cur.Parent != ""; {
			par, ok := m[cur.Parent]
			if !ok || len(chain) > 32 {
				break
			}
			chain = append(chain, par)
			cur = par
		}
		names[i] = entityName(chain)
		topDef := chain[len(chain)-1]
		if topDef.Kind == index.KindClass || topDef.Kind == index.KindFunction || topDef.Kind == index.KindMethod {
			modules[i] = topDef.Name
		}
	}
	return names, modules, nil
}

// entityName is the gold's function name for chain (the definition first,
// then its enclosing definitions outwards), or "": the outermost function or
// method, named Scope.Name when it has a scope (the last part of its parent,
// so Python's A.B.m is B.m; a receiver type defined in another file, as in
// Go or out-of-class C++, still names it), else Name.
func entityName(chain []index.Def) string {
	outer := -1
	for i, d := range chain {
		if d.Kind == index.KindFunction || d.Kind == index.KindMethod {
			outer = i
		}
	}
	if outer < 0 {
		return ""
	}
	d := chain[outer]
	if d.Parent == "" {
		return d.Name
	}
	return d.Parent[strings.LastIndexByte(d.Parent, '.')+1:] + "." + d.Name
}

// recordLang is r's language: its record's, else its first gold file's.
func recordLang(r Record, lang func(string) string) string {
	if r.Language != "" {
		return r.Language
	}
	for _, f := range r.GoldFiles {
		if l := lang(f); l != "" {
			return l
		}
	}
	return "unknown"
}

// languages lists the distinct languages of recs, sorted.
func languages(recs []Record, lang func(string) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		if l := recordLang(r, lang); !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// bm25Baseline is the README's plain BM25 file ranker, in every language:
// each source file (path and contents; a file the index's parser has a
// language for) is a document, the problem statement the query. Tokenized
// files are cached by content so consecutive commits are cheap.
type bm25Baseline struct {
	cache map[string]map[string]int // path + size + content hash → tf
}

func newBM25Baseline() *bm25Baseline { return &bm25Baseline{cache: map[string]map[string]int{}} }

func (b *bm25Baseline) reset() { b.cache = map[string]map[string]int{} }

func (b *bm25Baseline) rank(dir, query string, lang func(string) string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".grit") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			if rel = filepath.ToSlash(rel); lang(rel) != "" {
				paths = append(paths, rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	m := search.NewBM25()
	used := map[string]map[string]int{}
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		key := p + "\x00" + contentKey(src)
		tf, ok := b.cache[key]
		if !ok {
			tf = map[string]int{}
			for _, t := range search.PlainTokenize(p + "\n" + string(src)) {
				tf[t]++
			}
		}
		used[key] = tf
		n := 0
		for _, c := range tf {
			n += c
		}
		m.AddTF(tf, n)
	}
	b.cache = used
	scores := m.Score(search.PlainTokenize(query))
	idx := make([]int, len(paths))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, c int) bool {
		if scores[idx[a]] != scores[idx[c]] {
			return scores[idx[a]] > scores[idx[c]]
		}
		return paths[idx[a]] < paths[idx[c]]
	})
	var out []string
	for _, i := range idx {
		if scores[i] <= 0 || len(out) == 50 {
			break
		}
		out = append(out, paths[i])
	}
	return out, nil
}

func contentKey(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
