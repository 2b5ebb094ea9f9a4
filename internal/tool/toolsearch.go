package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// searchDefault is how many tools one ToolSearch query loads by default.
const searchDefault = 5

//go:embed toolsearch.md
var toolSearchMD string

var toolSearchDesc = render("toolsearch.md", toolSearchMD)

// Scores of a ToolSearch keyword match, per query term.
const (
	scoreExactName = 10 // the term is the tool's whole name
	scoreNamePart  = 5  // the term is one word of the name (CamelCase, _ or - split)
	scoreInName    = 3  // the term occurs inside the name
	scoreInDesc    = 1  // per occurrence in the description, at most maxDescHits
	maxDescHits    = 3
)

// ToolSearch loads deferred tools of Registry: their Specs are sent from
// the next request on.
type ToolSearch struct {
	Registry *Registry
}

type toolSearchInput struct {
	Query      string `json:"query" jsonschema:"Keywords, or select:Name1,Name2 for exact names"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"Most tools to load (default 5)"`
}

func (ToolSearch) Name() string        { return "ToolSearch" }
func (ToolSearch) Description() string { return toolSearchDesc() }
func (ToolSearch) Schema() json.RawMessage {
	return rawSchema[toolSearchInput](nil)
}

func (t ToolSearch) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(input))
}

func (t ToolSearch) run(input json.RawMessage) (Result, error) {
	var in toolSearchInput
	if err := decode("ToolSearch", input, &in); err != nil {
		return Result{}, err
	}
	if t.Registry == nil {
		return Result{}, fmt.Errorf("ToolSearch has no registry")
	}
	q := strings.TrimSpace(in.Query)
	if q == "" {
		return Result{}, fixf(nil, "ToolSearch needs a query: keywords, or select:Name for exact names. Deferred tools: %s.", namesOrNone(t.Registry.Deferred()))
	}
	var names []string
	if sel, ok := strings.CutPrefix(q, "select:"); ok {
		var unknown []string
		for _, n := range strings.FieldsFunc(sel, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
			if _, ok := t.Registry.Get(n); ok {
				names = append(names, n)
			} else {
				unknown = append(unknown, n)
			}
		}
		if len(unknown) > 0 {
			return Result{}, fixf(nil, "No tool is called %s. Deferred tools: %s.", strings.Join(unknown, ", "), namesOrNone(t.Registry.Deferred()))
		}
	} else {
		max := in.MaxResults
		if max <= 0 {
			max = searchDefault
		}
		names = t.match(q, max)
		if len(names) == 0 {
			return Result{Content: fmt.Sprintf("No deferred tool matches %q. Deferred tools: %s.", q, namesOrNone(t.Registry.Deferred()))}, nil
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Loaded %d tool(s); call them from your next reply:\n", len(names))
	for _, n := range names {
		if err := t.Registry.Load(n); err != nil {
			return Result{}, err
		}
		tl, _ := t.Registry.Get(n)
		desc, _, _ := strings.Cut(tl.Description(), "\n")
		fmt.Fprintf(&b, "- %s: %s\n", n, desc)
	}
	return Result{Content: strings.TrimRight(b.String(), "\n")}, nil
}

// match ranks the still-deferred tools for the query's terms, best first.
func (t ToolSearch) match(q string, max int) []string {
	terms := strings.Fields(strings.ToLower(q))
	type scored struct {
		name  string
		score int
	}
	var hits []scored
	for _, n := range t.Registry.Deferred() {
		tl, _ := t.Registry.Get(n)
		name, desc := strings.ToLower(n), strings.ToLower(tl.Description())
		parts := nameParts(n)
		score := 0
		for _, term := range terms {
			switch {
			case name == term:
				score += scoreExactName
			case listHas(parts, term):
				score += scoreNamePart
			case strings.Contains(name, term):
				score += scoreInName
			}
			score += scoreInDesc * min(strings.Count(desc, term), maxDescHits)
		}
		if score > 0 {
			hits = append(hits, scored{n, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	var out []string
	for i := 0; i < len(hits) && i < max; i++ {
		out = append(out, hits[i].name)
	}
	return out
}

// nameParts splits a tool name into lowercase words: "mcp__github__CreateIssue"
// → mcp, github, create, issue.
func nameParts(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = nil
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

func listHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func namesOrNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}
