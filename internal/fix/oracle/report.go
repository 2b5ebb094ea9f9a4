package oracle

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is `grit bench fix --oracle --json`.
type Report struct {
	Instances  int            `json:"instances"`
	Total      Counts         `json:"total"`
	Stages     map[string]int `json:"stages"` // instances short or in error, by stage
	Repos      []Group        `json:"repos"`
	Languages  []Group        `json:"languages"`
	Prompt     Dist           `json:"prompt_tokens_per_attempt"`
	OverBudget int            `json:"attempts_over_budget"` // edit prompts over the token budget (sent whole)
	// RegionEdits are the accepted edits of regions (lines outside any
	// function), in RegionInstances instances.
	RegionEdits     int      `json:"region_edits"`
	RegionInstances int      `json:"region_instances"`
	Budget          int      `json:"budget"`
	PerInst         Dist     `json:"attempts_per_instance"`
	Questions       Dist     `json:"questions_per_instance"` // multiple-choice questions (choose, next) per instance
	Errors          []string `json:"errors,omitempty"`       // instances that could not run, with why
	Took            float64  `json:"took_s"`
}

// Counts are one group's outcomes.
type Counts struct {
	N          int            `json:"n"`
	Exact      int            `json:"exact"`
	Equivalent int            `json:"equivalent"` // not exact, the same but for whitespace and comments
	Short      int            `json:"short"`
	Errors     int            `json:"errors"`
	Stages     map[string]int `json:"stages"`
}

// ExactRate and CeilingRate are percentages of N: exact, and exact or equivalent.
func (c Counts) ExactRate() float64   { return pct(c.Exact, c.N) }
func (c Counts) CeilingRate() float64 { return pct(c.Exact+c.Equivalent, c.N) }

// Group is one repository's or language's counts.
type Group struct {
	Name string `json:"name"`
	Counts
}

// Dist summarises a count over attempts or instances.
type Dist struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	Median int     `json:"median"`
	P95    int     `json:"p95"`
	Max    int     `json:"max"`
	Hist   []int   `json:"hist,omitempty"` // attempts per instance: how many instances made 0, 1, 2, ...
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

func (c *Counts) add(r Result) {
	c.N++
	if c.Stages == nil {
		c.Stages = map[string]int{}
	}
	switch r.Outcome {
	case OutcomeExact:
		c.Exact++
	case OutcomeEquivalent:
		c.Equivalent++
	case OutcomeShort:
		c.Short++
		c.Stages[r.Stage]++
	default:
		c.Errors++
		c.Stages["error:"+r.Stage]++
	}
}

// Summarize aggregates the instances' results.
func Summarize(results []Result, budget int) *Report {
	rep := &Report{Instances: len(results), Budget: budget, Stages: map[string]int{}}
	repos, langs := map[string]*Counts{}, map[string]*Counts{}
	var prompts, per, questions []int
	for _, r := range results {
		q := 0
		for _, ex := range r.Exchanges {
			if ex.Kind == "choose" {
				q++
			}
		}
		questions = append(questions, q)
		rep.Total.add(r)
		for _, m := range []struct {
			m   map[string]*Counts
			key string
		}{{repos, r.Repo}, {langs, r.Language}} {
			if m.m[m.key] == nil {
				m.m[m.key] = &Counts{}
			}
			m.m[m.key].add(r)
		}
		if r.Outcome == OutcomeError {
			rep.Errors = append(rep.Errors, fmt.Sprintf("%s: %s: %s", r.InstanceID, r.Stage, r.Detail))
		}
		regions := 0
		for _, a := range r.Attempts {
			prompts = append(prompts, a.PromptTokens)
			if a.PromptTokens > budget {
				rep.OverBudget++
			}
			if a.Region && a.Accepted {
				regions++
			}
		}
		rep.RegionEdits += regions
		if regions > 0 {
			rep.RegionInstances++
		}
		per = append(per, len(r.Attempts))
	}
	rep.Stages = rep.Total.Stages
	rep.Repos, rep.Languages = groups(repos), groups(langs)
	rep.Prompt = dist(prompts, false)
	rep.PerInst = dist(per, true)
	rep.Questions = dist(questions, true)
	return rep
}

func groups(m map[string]*Counts) []Group {
	var out []Group
	for k, c := range m {
		out = append(out, Group{Name: k, Counts: *c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func dist(xs []int, hist bool) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	sum := 0
	for _, x := range s {
		sum += x
	}
	d := Dist{N: len(s), Mean: float64(sum) / float64(len(s)), Median: s[len(s)/2], P95: s[min(len(s)-1, int(0.95*float64(len(s))+0.5)-1)], Max: s[len(s)-1]}
	if hist {
		d.Hist = make([]int, d.Max+1)
		for _, x := range s {
			d.Hist[x]++
		}
	}
	return d
}

// stageOrder is the order stages are printed in: the pipeline's.
var stageOrder = []string{StageNotLocated, StageNotOffered, StageRejected, StageMulti, StageOutside}

// Print writes the report as text.
func (rep *Report) Print(w io.Writer) {
	t := rep.Total
	fmt.Fprintf(w, "%d instances", rep.Instances)
	if rep.Took > 0 {
		fmt.Fprintf(w, " in %.0fs", rep.Took)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "ceiling: exact %d (%.1f%%), exact or equivalent %d (%.1f%%), short %d, errors %d\n\n",
		t.Exact, t.ExactRate(), t.Exact+t.Equivalent, t.CeilingRate(), t.Short, t.Errors)
	fmt.Fprintln(w, "where it fell short:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range stageOrder {
		fmt.Fprintf(tw, "  %s\t%d\t%.1f%%\n", s, t.Stages[s], pct(t.Stages[s], t.N))
	}
	var errs []string
	for s := range t.Stages {
		if strings.HasPrefix(s, "error:") {
			errs = append(errs, s)
		}
	}
	sort.Strings(errs)
	for _, s := range errs {
		fmt.Fprintf(tw, "  %s\t%d\t%.1f%%\n", s, t.Stages[s], pct(t.Stages[s], t.N))
	}
	tw.Flush()
	for _, g := range []struct {
		title string
		gs    []Group
	}{{"repository", rep.Repos}, {"language", rep.Languages}} {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%s\tn\texact\tequiv\tceiling %%\t%s\terrors\t\n", g.title, abbrevStages())
		for _, x := range g.gs {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f\t%s\t%d\t\n", x.Name, x.N, x.Exact, x.Equivalent, x.CeilingRate(), stageCells(x.Stages), x.Errors)
		}
		tw.Flush()
	}
	p := rep.Prompt
	fmt.Fprintf(w, "\nprompt tokens per attempt: %d attempts, mean %.0f, median %d, p95 %d, max %d; %d over the %d-token budget (sent whole)\n",
		p.N, p.Mean, p.Median, p.P95, p.Max, rep.OverBudget, rep.Budget)
	fmt.Fprintf(w, "region edits (lines outside any function) accepted: %d, in %d instances\n", rep.RegionEdits, rep.RegionInstances)
	a := rep.PerInst
	fmt.Fprintf(w, "attempts per instance: mean %.2f, median %d, max %d; instances by attempts %v\n", a.Mean, a.Median, a.Max, a.Hist)
	q := rep.Questions
	fmt.Fprintf(w, "multiple-choice questions per instance: mean %.2f, median %d, max %d; instances by questions %v\n", q.Mean, q.Median, q.Max, q.Hist)
	if len(rep.Errors) > 0 {
		fmt.Fprintf(w, "\n%d instances could not run:\n", len(rep.Errors))
		for _, e := range rep.Errors {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

func abbrevStages() string {
	return strings.Join([]string{"not located", "not offered", "rejected", "multi", "outside"}, "\t")
}

func stageCells(m map[string]int) string {
	var cells []string
	for _, s := range stageOrder {
		cells = append(cells, fmt.Sprint(m[s]))
	}
	return strings.Join(cells, "\t")
}

// LoadResults reads the per-instance lines a run wrote with --out, to
// report them again.
func LoadResults(path string) ([]Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	var out []Result
	for n, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var r Result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no results", path)
	}
	return out, nil
}
