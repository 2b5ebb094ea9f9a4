package mcp

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
)

// Ranking constants of repo_map.
const (
	// Damping is the chance a reader follows a reference rather than jumping
	// to a random file: the classic 0.85, for the map of a whole repository.
	Damping = 0.85
	// TaskDamping is the same chance when the jump goes back to the task's
	// files: at 0.85 rank drains from the task's files into the utilities
	// everything imports, so half the time the reader returns to the task,
	// which keeps the seeds and their neighbours first.
	TaskDamping = 0.5
	// pageRankIterations bounds the power iteration; it stops earlier once
	// the total change falls under pageRankTolerance.
	pageRankIterations = 200
	pageRankTolerance  = 1e-12
	// mapSeedHits is how many search hits seed the personalisation: enough to
	// cover the files a task touches, few enough that noise does not.
	mapSeedHits = 20
	// mapDefsPerFile is how many definitions a file shows: its most
	// referenced ones, so the map stays a map and not a listing.
	mapDefsPerFile = 6
)

// graphEdge is a weighted directed edge between node indices.
type graphEdge struct {
	from, to int
	w        float64
}

// pageRank returns the personalised PageRank of a weighted directed graph of
// n nodes: with probability d a walker follows an out-edge in
// proportion to its weight, otherwise (and always from a node with no
// out-edges) it jumps to a node drawn from personal. personal need not be
// normalised; if it sums to zero the jump is uniform (plain PageRank). The
// result sums to 1. The computation is deterministic: edges are summed in the
// order given and the iteration count is bounded.
func pageRank(n int, edges []graphEdge, personal []float64, d float64) []float64 {
	if n == 0 {
		return nil
	}
	p := make([]float64, n)
	sum := 0.0
	for i := range n {
		if i < len(personal) && personal[i] > 0 {
			p[i] = personal[i]
			sum += personal[i]
		}
	}
	if sum == 0 {
		for i := range p {
			p[i] = 1
		}
		sum = float64(n)
	}
	for i := range p {
		p[i] /= sum
	}
	out := make([]float64, n)
	for _, e := range edges {
		if e.w > 0 && e.from != e.to {
			out[e.from] += e.w
		}
	}
	r := append([]float64(nil), p...)
	next := make([]float64, n)
	for range pageRankIterations {
		dangling := 0.0
		for i, o := range out {
			if o == 0 {
				dangling += r[i]
			}
		}
		for i := range next {
			next[i] = (1-d)*p[i] + d*dangling*p[i]
		}
		for _, e := range edges {
			if e.w > 0 && e.from != e.to {
				next[e.to] += d * r[e.from] * e.w / out[e.from]
			}
		}
		delta := 0.0
		for i := range r {
			delta += math.Abs(next[i] - r[i])
		}
		r, next = next, r
		if delta < pageRankTolerance {
			break
		}
	}
	return r
}

// fileGraph is the file reference graph as repo_map ranks it.
type fileGraph struct {
	gen      uint64
	files    []index.File                // sorted by path; a file's node is its index here
	node     map[string]int              // path → node
	edges    []graphEdge                 // sorted by from, then to
	incoming map[string][]index.FileEdge // path → the edges into it
}

// fileGraph returns the file graph of the index's current generation,
// loading it only when the index changed since the last call. s.mu must be
// held for reading.
func (s *Server) fileGraph(ctx context.Context, ix *index.Index) (*fileGraph, error) {
	s.graphMu.Lock()
	defer s.graphMu.Unlock()
	gen := s.generation()
	if s.graph != nil && s.graph.gen == gen {
		return s.graph, nil
	}
	files, err := ix.Files(ctx)
	if err != nil {
		return nil, err
	}
	g := &fileGraph{gen: gen, files: files, node: make(map[string]int, len(files)), incoming: map[string][]index.FileEdge{}}
	for i, f := range files {
		g.node[f.Path] = i
	}
	all, err := ix.AllEdges(ctx)
	if err != nil {
		return nil, err
	}
	// Sum in node order, so that the floating-point result does not depend
	// on the order the index returns edges in.
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].From != all[j].From {
			return all[i].From < all[j].From
		}
		return all[i].To < all[j].To
	})
	g.edges = make([]graphEdge, 0, len(all))
	for _, e := range all {
		f, ok1 := g.node[e.From]
		t, ok2 := g.node[e.To]
		if ok1 && ok2 {
			g.edges = append(g.edges, graphEdge{f, t, e.Weight})
			g.incoming[e.To] = append(g.incoming[e.To], e)
		}
	}
	s.graph = g
	return g, nil
}

func (s *Server) repoMap(ctx context.Context, in repoMapIn) (string, error) {
	ix, release, err := s.read(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	g, err := s.fileGraph(ctx, ix)
	if err != nil {
		return "", err
	}
	files, node, edges, incoming := g.files, g.node, g.edges, g.incoming
	a := newAnswer(in.Budget)
	if len(files) == 0 {
		a.must(fmt.Sprintf("repo map of %s: no source file is indexed (no supported language, or everything is ignored).\n", s.root))
		return a.text(), nil
	}

	personal := make([]float64, len(files))
	hitScore := map[int64]float64{}
	seeded := false
	task := strings.TrimSpace(in.Task)
	if task != "" {
		res, err := locate.Run(ctx, ix, locate.Request{Task: task, K: mapSeedHits})
		if err != nil {
			return "", err
		}
		for _, h := range res.Hits {
			if i, ok := node[h.Def.Path]; ok && h.Score > 0 {
				personal[i] += h.Score
				hitScore[h.Def.ID] = h.Score
				seeded = true
			}
		}
		for _, f := range res.Files {
			if i, ok := node[f.Path]; ok && f.Score > 0 {
				personal[i] += f.Score
				seeded = true
			}
		}
	}
	damping := Damping
	if seeded {
		damping = TaskDamping
	}
	rank := pageRank(len(files), edges, personal, damping)
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		if rank[order[x]] != rank[order[y]] {
			return rank[order[x]] > rank[order[y]]
		}
		return files[order[x]].Path < files[order[y]].Path
	})

	how := "ranked by PageRank over the file reference graph (no task given: the most referenced code first)"
	switch {
	case task != "" && seeded:
		how = "ranked by PageRank over the file reference graph, personalised to the files the task's search hits are in"
	case task != "":
		how = "the task matched no code, so ranked by plain PageRank over the file reference graph"
	}
	a.must(fmt.Sprintf("repo map of %s: %s, %s; each file's most referenced definitions (⋮ marks omitted ones)\n",
		s.root, plural(len(files), "file", "files"), how))
	for k, i := range order {
		f := files[i]
		block, err := s.mapFile(ctx, ix, f.Path, rank[i], incoming[f.Path], rank, node, hitScore)
		if err != nil {
			return "", err
		}
		if !a.add(block) {
			a.cutf("%s (ranks %d-%d)", plural(len(order)-k, "more file", "more files"), k+1, len(order))
			break
		}
	}
	return a.text(), nil
}

// mapFile renders one file of the map: its path and rank, then its key
// definitions' signatures in source order, indented by nesting.
func (s *Server) mapFile(ctx context.Context, ix *index.Index, path string, r float64, in []index.FileEdge, rank []float64, node map[string]int, hitScore map[int64]float64) (string, error) {
	defs, err := ix.Symbols(ctx, path)
	if err != nil {
		return "", err
	}
	// How much the rest of the repository uses each name defined here,
	// weighted by the rank of the files that use it.
	refs := map[string]float64{}
	for _, e := range in {
		for _, n := range e.Names {
			refs[n] += rank[node[e.From]] * e.Weight / float64(len(e.Names))
		}
	}
	type scored struct {
		i     int
		hit   float64
		ref   float64
		depth int
	}
	cand := make([]scored, len(defs))
	for i, d := range defs {
		cand[i] = scored{i, hitScore[d.ID], refs[d.Name], strings.Count(d.QName, ".")}
	}
	sort.SliceStable(cand, func(x, y int) bool {
		a, b := cand[x], cand[y]
		switch {
		case a.hit != b.hit:
			return a.hit > b.hit
		case a.ref != b.ref:
			return a.ref > b.ref
		case a.depth != b.depth:
			return a.depth < b.depth
		}
		return a.i < b.i
	})
	keep := map[int]bool{}
	byQName := map[string]int{}
	for i, d := range defs {
		if _, ok := byQName[d.QName]; !ok {
			byQName[d.QName] = i
		}
	}
	for _, c := range cand {
		if len(keep) >= mapDefsPerFile {
			break
		}
		keep[c.i] = true
		// A method is shown under its class, for context.
		if p := defs[c.i].Parent; p != "" {
			if j, ok := byQName[p]; ok {
				keep[j] = true
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s (rank %.4f)\n", path, r)
	skipped := false
	for i, d := range defs {
		if !keep[i] {
			skipped = true
			continue
		}
		if skipped {
			b.WriteString("  ⋮\n")
			skipped = false
		}
		sig := oneLine(d.Signature)
		if sig == "" {
			sig = d.Kind + " " + d.Name
		}
		fmt.Fprintf(&b, "  %s%s\n", strings.Repeat("  ", strings.Count(d.QName, ".")), sig)
	}
	if skipped {
		b.WriteString("  ⋮\n")
	}
	if len(defs) > len(keep) {
		fmt.Fprintf(&b, "  (%d of %d definitions shown: symbols %s lists all)\n", len(keep), len(defs), path)
	}
	return b.String(), nil
}
