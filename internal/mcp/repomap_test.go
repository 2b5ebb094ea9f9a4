package mcp

import (
	"math"
	"testing"
)

func TestPageRank(t *testing.T) {
	// a → b, b has no out-edges. With uniform personalisation p = ½ each:
	//   r_a = (1-d)·½ + d·r_b·½
	//   r_b = (1-d)·½ + d·r_b·½ + d·r_a
	// and r_a + r_b = 1 give r_a = ½ / (1 + d/2).
	d := Damping
	ra := 0.5 / (1 + d/2)
	// Seeding only a: the jump always lands on a, so
	//   r_a = (1-d) + d·r_b and r_b = d·r_a  →  r_a = 1 / (1 + d).
	sa := 1 / (1 + d)
	for _, tc := range []struct {
		name     string
		n        int
		edges    []graphEdge
		personal []float64
		want     []float64
	}{
		{"empty", 0, nil, nil, nil},
		{"one node", 1, nil, nil, []float64{1}},
		{"two nodes uniform", 2, []graphEdge{{0, 1, 1}}, nil, []float64{ra, 1 - ra}},
		{"two nodes, zero personalisation is uniform", 2, []graphEdge{{0, 1, 1}}, []float64{0, 0}, []float64{ra, 1 - ra}},
		{"seeded on a", 2, []graphEdge{{0, 1, 1}}, []float64{3, 0}, []float64{sa, 1 - sa}},
		{"self loops and zero weights ignored", 2, []graphEdge{{0, 1, 1}, {1, 1, 5}, {1, 0, 0}}, nil, []float64{ra, 1 - ra}},
		{"symmetric cycle", 3, []graphEdge{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}}, nil, []float64{1. / 3, 1. / 3, 1. / 3}},
		// A star whose leaves all point at the hub: each leaf gets only the
		// jump (1-d)/4 plus the hub's dangling share d·r_hub/4; the hub gets
		// the rest. r_leaf = (1-d)/4 + d·r_hub/4 and r_hub = 1 - 3·r_leaf.
		{"star", 4, []graphEdge{{1, 0, 1}, {2, 0, 1}, {3, 0, 1}}, nil, func() []float64 {
			leaf := (1 - d + d) / (4 + 3*d) // from r_leaf = (1-d)/4 + d(1-3 r_leaf)/4
			return []float64{1 - 3*leaf, leaf, leaf, leaf}
		}()},
	} {
		got := pageRank(tc.n, tc.edges, tc.personal, Damping)
		if len(got) != len(tc.want) {
			t.Errorf("%s: pageRank = %v, want %v", tc.name, got, tc.want)
			continue
		}
		sum := 0.0
		for i := range got {
			sum += got[i]
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-9 {
				t.Errorf("%s: pageRank = %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		if tc.n > 0 && math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: ranks sum to %v, want 1", tc.name, sum)
		}
	}
}

// TestPageRankDeterministic: the same graph gives bit-identical ranks.
func TestPageRankDeterministic(t *testing.T) {
	var edges []graphEdge
	for i := range 200 {
		edges = append(edges, graphEdge{i % 97, (i * 31) % 97, float64(i%7) + 0.5})
	}
	personal := make([]float64, 97)
	personal[3], personal[50] = 0.7, 0.3
	first := pageRank(97, edges, personal, TaskDamping)
	for range 5 {
		again := pageRank(97, edges, personal, TaskDamping)
		for i := range first {
			if first[i] != again[i] {
				t.Fatalf("pageRank differs at node %d: %v then %v", i, first[i], again[i])
			}
		}
	}
	if first[3] <= first[4] || first[50] <= first[51] {
		t.Errorf("seeded nodes do not lead their neighbours: r3=%v r4=%v r50=%v r51=%v", first[3], first[4], first[50], first[51])
	}
}

func TestTruncateLines(t *testing.T) {
	src := "line one\nline two\nline three\n"
	for _, tc := range []struct {
		tokens      int
		want        string
		wantDropped int
	}{
		{100, src, 0},
		{5, "line one\nline two\n", 1},
		{3, "line one\n", 2},
		{0, "", 3},
	} {
		got, dropped := truncateLines(src, tc.tokens)
		if got != tc.want || dropped != tc.wantDropped {
			t.Errorf("truncateLines(%q, %d) = %q, %d; want %q, %d", src, tc.tokens, got, dropped, tc.want, tc.wantDropped)
		}
	}
}

func TestClampBudget(t *testing.T) {
	for _, tc := range []struct{ in, want int }{
		{0, DefaultBudget}, {-5, DefaultBudget}, {10, MinBudget}, {MinBudget, MinBudget}, {3000, 3000}, {MaxBudget + 1, MaxBudget},
	} {
		if got := clampBudget(tc.in); got != tc.want {
			t.Errorf("clampBudget(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
