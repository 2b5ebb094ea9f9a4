// Package bench measures the localiser on SWE-bench instances: it loads the
// dev set (dev.jsonl), checks out each instance's repository at its base
// commit from local mirrors, indexes and searches it, and scores file, module
// and function Acc@k (LocAgent's definition), MRR and latency, with a BM25
// file ranker as the peer baseline.
//
// The metric follows LocAgent evaluation/eval_metric.py: an instance scores at
// k when #{p in pred[:k] : p in gold} == min(len(gold), k); instances with an
// empty gold list at a level are skipped there. A Runner is not safe for
// concurrent use.
package bench

import (
	"errors"
	"sort"
	"strings"
)

// Record is one dev.jsonl instance.
type Record struct {
	InstanceID       string   `json:"instance_id"`
	Split            string   `json:"split"` // lite, verified, both
	Repo             string   `json:"repo"`  // owner/name
	BaseCommit       string   `json:"base_commit"`
	ProblemStatement string   `json:"problem_statement"`
	GoldFiles        []string `json:"gold_files"`
	GoldEntities     []string `json:"gold_entities_locagent"`
	GoldModules      []string `json:"gold_modules_locagent"`
	InLocAgent274    *bool    `json:"in_locagent_274"`
	Language         string   `json:"language"` // dev_poly.jsonl's; "" in dev.jsonl
}

// Lite274 reports whether r is one of LocAgent's 274 Lite instances.
func (r Record) Lite274() bool { return r.InLocAgent274 != nil && *r.InLocAgent274 }

// LoadRecords reads a dev.jsonl file.
func LoadRecords(path string) ([]Record, error) {
	return ReadJSONL(path, func(r *Record) error {
		if r.InstanceID == "" || r.Repo == "" || r.BaseCommit == "" {
			return errors.New("record lacks instance_id, repo or base_commit")
		}
		return nil
	})
}

// Prediction is a localiser's ranked output for one instance, in LocAgent's
// format: files "path", modules "path:Class" / "path:function", entities
// "path:Class.method" / "path:function".
type Prediction struct {
	InstanceID string   `json:"instance_id"`
	Files      []string `json:"found_files"`
	Modules    []string `json:"found_modules"`
	Entities   []string `json:"found_entities"`
}

// Levels and the k reported at each.
var (
	FileK     = []int{1, 3, 5}
	ModuleK   = []int{5, 10}
	FunctionK = []int{5, 10}
)

// HitAt reports whether pred scores at k against gold (LocAgent acc_at_k).
// Gold entries may use "::" (dev.jsonl) or ":" (LocAgent) between path and name.
func HitAt(pred, gold []string, k int) bool {
	g := map[string]bool{}
	for _, x := range gold {
		g[normLoc(x)] = true
	}
	n := 0
	for i, p := range pred {
		if i >= k {
			break
		}
		if g[normLoc(p)] {
			n++
		}
	}
	return n == min(len(gold), k)
}

// ReciprocalRank is 1/rank of the first gold item in pred, 0 when none.
func ReciprocalRank(pred, gold []string) float64 {
	g := map[string]bool{}
	for _, x := range gold {
		g[normLoc(x)] = true
	}
	for i, p := range pred {
		if g[normLoc(p)] {
			return 1 / float64(i+1)
		}
	}
	return 0
}

func normLoc(s string) string { return strings.Replace(s, "::", ":", 1) }

// Acc is Acc@k at one level over a set of instances.
type Acc struct {
	N   int             `json:"n"`   // instances scored (non-empty gold)
	At  map[int]float64 `json:"at"`  // k → percentage
	MRR float64         `json:"mrr"` // mean reciprocal rank of the first gold item
}

// Score computes Acc@ks for (pred, gold) pairs, skipping empty gold lists.
func Score(preds, golds [][]string, ks []int) Acc {
	a := Acc{At: map[int]float64{}}
	hits := map[int]int{}
	rr := 0.0
	for i := range golds {
		if len(golds[i]) == 0 {
			continue
		}
		a.N++
		for _, k := range ks {
			if HitAt(preds[i], golds[i], k) {
				hits[k]++
			}
		}
		rr += ReciprocalRank(preds[i], golds[i])
	}
	for _, k := range ks {
		if a.N > 0 {
			a.At[k] = 100 * float64(hits[k]) / float64(a.N)
		}
	}
	if a.N > 0 {
		a.MRR = rr / float64(a.N)
	}
	return a
}

// Table is the three levels' accuracy over one set of instances.
type Table struct {
	Instances int `json:"instances"`
	File      Acc `json:"file"`
	Module    Acc `json:"module"`
	Function  Acc `json:"function"`
}

// Evaluate scores preds (by instance id; a missing prediction scores 0)
// against recs.
func Evaluate(recs []Record, preds map[string]Prediction) Table {
	var pf, pm, pe, gf, gm, ge [][]string
	for _, r := range recs {
		p := preds[r.InstanceID]
		pf = append(pf, p.Files)
		pm = append(pm, p.Modules)
		pe = append(pe, p.Entities)
		gf = append(gf, r.GoldFiles)
		gm = append(gm, r.GoldModules)
		ge = append(ge, r.GoldEntities)
	}
	return Table{
		Instances: len(recs),
		File:      Score(pf, gf, FileK),
		Module:    Score(pm, gm, ModuleK),
		Function:  Score(pe, ge, FunctionK),
	}
}

// Macro is the mean of tables (one per repository), each weighing the same:
// at each level and k the mean over the tables that score that level
// (Acc.N > 0), Acc.N then counting those tables.
func Macro(tables []Table) Table {
	out := Table{}
	level := func(get func(Table) Acc) Acc {
		a := Acc{At: map[int]float64{}}
		for _, t := range tables {
			x := get(t)
			if x.N == 0 {
				continue
			}
			a.N++
			a.MRR += x.MRR
			for k, v := range x.At {
				a.At[k] += v
			}
		}
		if a.N > 0 {
			a.MRR /= float64(a.N)
			for k := range a.At {
				a.At[k] /= float64(a.N)
			}
		}
		return a
	}
	for _, t := range tables {
		out.Instances += t.Instances
	}
	out.File = level(func(t Table) Acc { return t.File })
	out.Module = level(func(t Table) Acc { return t.Module })
	out.Function = level(func(t Table) Acc { return t.Function })
	return out
}

// Filter returns the records keep accepts.
func Filter(recs []Record, keep func(Record) bool) []Record {
	var out []Record
	for _, r := range recs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// Repos lists the distinct repositories of recs, sorted.
func Repos(recs []Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		if !seen[r.Repo] {
			seen[r.Repo] = true
			out = append(out, r.Repo)
		}
	}
	sort.Strings(out)
	return out
}

// Dedup keeps the first occurrence of each item: LocAgent's metric counts
// repeats, so a ranked list must not hold any.
func Dedup(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
