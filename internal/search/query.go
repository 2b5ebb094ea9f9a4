package search

// Query analysis: what the task text says, read once per search.

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

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
	areas      []string        // the title's "area:" prefix, normalised (titleAreas)
	frames     []Frame
	ops        map[string]string // special method → the operation in the task that runs it
	note       []string
}

// titleAreaRE is a title that starts by naming the part of the project it
// is about, as commit subjects do: "grpclb: fallback …",
// "credentials/alts: …", "[CustomParseFormat] …".
var titleAreaRE = lazyRegexp(`^\s*\[?([\w./-]+(?:\s*,\s*[\w./-]+)*)\]?\s*:?\s+\S`)

// commitTypes are the Conventional Commits kinds ("fix: …", "docs: …"):
// a title starting with one says what kind of change, not where.
var commitTypes = map[string]bool{
	"fix": true, "feat": true, "feature": true, "chore": true, "docs": true, "doc": true, "refactor": true,
	"test": true, "tests": true, "perf": true, "build": true, "ci": true, "style": true, "revert": true,
}

// titleAreas returns the area names a title starts with ("grpclb" in
// "grpclb: fallback …"), normalised by areaKey, or nil. Only a prefix
// ended by a colon or in brackets counts.
func titleAreas(title string) []string {
	m := titleAreaRE().FindStringSubmatch(title)
	if m == nil || !strings.Contains(title[:len(m[0])], ":") && !strings.HasPrefix(strings.TrimSpace(title), "[") {
		return nil
	}
	var out []string
	for _, a := range strings.Split(m[1], ",") {
		if k := areaKey(strings.Trim(strings.TrimSpace(a), "./")); k != "" && !commitTypes[k] {
			out = append(out, k)
		}
	}
	return out
}

// areaKey folds a name for comparing an area with paths: lower case,
// without separators (CustomParseFormat, custom_parse_format and
// custom-parse-format are one); "/" stays, so path parts fold alike.
func areaKey(s string) string {
	return areaFold.Replace(strings.ToLower(s))
}

// areaFold drops the separators areaKey ignores (built once: it runs on
// every path of the repository when a title names an area).
var areaFold = strings.NewReplacer("-", "", "_", "", ".", "")

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
	stripped := StripBoilerplate(text)
	if title, _, _ := strings.Cut(strings.TrimSpace(stripped), "\n"); len(title) <= maxTitleBytes {
		qi.areas = titleAreas(title)
	}
	qi.ex = ExtractIdents(StripFrameLines(stripped + "\n" + tb))
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
	for _, t := range c.compounds(stripped) {
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
	if title, rest, ok := strings.Cut(strings.TrimSpace(stripped), "\n"); ok && len(title) <= maxTitleBytes && strings.TrimSpace(rest) != "" {
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
	// Only words asking for test work make the task about tests: a report
	// that names or links a test file (a reproducer, the test that shows the
	// bug, a diff of one) still wants the code that test exercises fixed.
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

// compounds are the words the task writes apart that the code writes
// joined: "time zone" for timezone, "file name" for filename, "log in"
// for login. Two words next to each other (a space or a hyphen apart)
// give their join when the repository uses it as a word.
func (c *Corpus) compounds(text string) []string {
	var out []string
	seen := map[string]bool{}
	locs := identRE().FindAllStringIndex(text, -1)
	for i := 1; i < len(locs); i++ {
		gap := text[locs[i-1][1]:locs[i][0]]
		if gap != " " && gap != "-" {
			continue
		}
		a, b := text[locs[i-1][0]:locs[i-1][1]], text[locs[i][0]:locs[i][1]]
		if !plainWord(a) || !plainWord(b) {
			continue
		}
		j := strings.ToLower(a + b)
		if len(j) < minCompoundLen || seen[j] || c.fileBM25.DF(j) == 0 {
			continue
		}
		seen[j] = true
		out = append(out, j)
	}
	return out
}

// plainWord reports whether w is a prose word (letters, not code-shaped).
func plainWord(w string) bool {
	if codeShaped(w) || strings.Contains(w, "_") {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
