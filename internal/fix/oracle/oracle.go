// Package oracle is a stand-in model for measuring the fix pipeline's
// ceiling: a perfect editor that knows the gold patch but answers only from
// what the pipeline shows it. Shown a function, it returns that function as
// the gold patch leaves it (with the patch's new helpers and imports next to
// it, when the prompt offers those blocks); shown lines outside any function
// (a region), it returns those lines as the patch leaves them; asked to
// choose, it picks the first offered option the patch changes; anything
// else it refuses. It reads
// nothing but the request (the system prompt and the messages), so whatever
// it answers, the pipeline put in front of it. Bench runs it over a SWE-bench
// style instance file (`grit bench fix --oracle`).
//
// An Oracle is safe for use by one pipeline run at a time.
package oracle

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/provider"
)

// Answers the oracle gives (Exchange.Answer).
const (
	AnswerGold    = "gold"    // the function's post-patch text
	AnswerChoice  = "choice"  // a letter of an offered option the patch changes
	AnswerRefusal = "refusal" // nothing it was shown lets it answer
)

// Exchange is one request the oracle answered: what it was shown and what it
// said.
type Exchange struct {
	Kind    string   `json:"kind"` // "edit", "choose", "other"
	Path    string   `json:"path,omitempty"`
	Name    string   `json:"name,omitempty"` // the function shown (its QName when found)
	Options []string `json:"options,omitempty"`
	Answer  string   `json:"answer"`
	Why     string   `json:"why,omitempty"`
	Extras  int      `json:"extras,omitempty"` // NEW FUNCTION and IMPORTS blocks added
}

// Oracle is the stand-in model.
type Oracle struct {
	gold *Gold
	Log  []Exchange
	// sentImports are the import lines it gave in IMPORTS blocks: its own
	// words, which it may find again in lines it is shown.
	sentImports []string
	// sentHelpers are the new functions it gave in NEW FUNCTION blocks
	// (normalized): an insertion next to a region that holds one was
	// made already.
	sentHelpers []string
}

// New returns an oracle that knows gold.
func New(gold *Gold) *Oracle { return &Oracle{gold: gold} }

// Name implements provider.Provider.
func (o *Oracle) Name() string { return "oracle" }

var (
	editHeadRE  = regexp.MustCompile("(?m)^Rewrite this (\\w+) from (.+?)(?:, inside `(.*)`)?:$")
	editNameRE  = regexp.MustCompile("(?m)^Return the whole rewritten `([^`]+)`")
	chooseRE    = regexp.MustCompile(`(?m)^Which function(?:, or which lines outside a function,)? should change`)
	optionRE    = regexp.MustCompile(`(?m)^([A-Z])\) (\S+) in (\S+)$`)
	classNameRE = regexp.MustCompile(`\b(?:class|struct|union|enum|interface|trait|impl(?:<[^>]*>)?(?:\s+[\w:<>, ]+\s+for)?)\s+([A-Za-z_]\w*)`)
	// blockEnds are the lines that may follow the shown definition's code block.
	blockEnds = []string{"\n```\n\nImports it uses:", "\n```\n\nIt calls", "\n```\n\nIt is called by:", "\n```\n\nReturn the whole rewritten"}
)

// Send implements provider.Provider: it answers from req alone.
func (o *Oracle) Send(ctx context.Context, req *provider.Request, _ func(provider.Event)) (*provider.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var user string
	for _, m := range req.Messages {
		if m.Role == provider.RoleUser {
			user = m.Text() // the last user turn is the question
		}
	}
	var ex Exchange
	var reply string
	switch {
	case regionHeadRE.MatchString(user):
		ex, reply = o.editRegion(user)
	case editHeadRE.MatchString(user):
		ex, reply = o.edit(req.System, user)
	case chooseRE.MatchString(user):
		ex, reply = o.choose(user)
	default:
		ex = Exchange{Kind: "other", Answer: AnswerRefusal, Why: "not a question it knows"}
	}
	if ex.Answer == AnswerRefusal {
		reply = refusal(req.System)
	}
	o.Log = append(o.Log, ex)
	return &provider.Response{
		Model:      "oracle",
		Content:    []provider.Block{{Type: provider.BlockText, Text: reply}},
		StopReason: provider.StopEndTurn,
		Usage:      provider.Usage{InputTokens: (len(req.System) + len(user) + 3) / 4, OutputTokens: (len(reply) + 3) / 4},
	}, nil
}

// declineWord is how a prompt lets the model say the function shown needs no
// change; the oracle uses it when the system prompt offers it.
const declineWord = "NO CHANGE"

func refusal(system string) string {
	if strings.Contains(system, declineWord) {
		return declineWord
	}
	return "I cannot make this change from what I was shown."
}

// edit answers an edit prompt: the shown function's post-patch text.
func (o *Oracle) edit(system, user string) (Exchange, string) {
	m := editHeadRE.FindStringSubmatch(user)
	ex := Exchange{Kind: "edit", Path: m[2], Answer: AnswerRefusal}
	if nm := editNameRE.FindStringSubmatch(user); nm != nil {
		ex.Name = nm[1]
	}
	shown, ok := shownSource(user, m[0])
	if !ok {
		ex.Why = "no code block after the header"
		return ex, ""
	}
	gf := o.gold.Files[ex.Path]
	if gf == nil {
		ex.Why = "the patch does not change this file"
		return ex, ""
	}
	class := ""
	if c := classNameRE.FindStringSubmatch(m[3]); c != nil {
		class = c[1]
	}
	d, ok := gf.find(ex.Name, class, shown)
	if !ok {
		ex.Why = "the shown text is not a function of the file before the patch"
		return ex, ""
	}
	ex.Name = d.QName
	var helpers []AddedDef
	if strings.Contains(system, "NEW FUNCTION after") {
		helpers = gf.helpersOf(d)
	}
	post, changed := gf.PostOf(d)
	if !changed {
		if len(helpers) == 0 {
			ex.Why = "the patch does not change this function"
			return ex, ""
		}
		// The patch adds functions next to this one and changes none of
		// its scope: return it as it is, with them.
		post, _ = gf.preText(d)
	}
	lang := fenceLang(user, m[0])
	var b strings.Builder
	b.WriteString("```" + lang + "\n" + dedentAt(gf.Post, post) + "\n```\n")
	if pre, _ := gf.preText(d); strings.Contains(system, removedSentence) && 2*lines(post) < lines(pre) {
		// The prompt asks for a sentence when code goes: a perfect editor gives one.
		b.WriteString("\nRemoved the code this change makes redundant.\n")
	}
	for _, a := range helpers {
		after := a.After
		if after == "" {
			after = d.Name
		}
		fmt.Fprintf(&b, "\nNEW FUNCTION after %s\n```%s\n%s\n```\n", after, lang, dedentAt(gf.Post, a.Text))
		o.sentHelpers = append(o.sentHelpers, normalize(gf.Lang, []byte(a.Text)))
		ex.Extras++
	}
	if strings.Contains(system, "IMPORTS") {
		if imps := gf.AddedImports(); len(imps) > 0 {
			o.sentImports = append(o.sentImports, imps...)
			fmt.Fprintf(&b, "\nIMPORTS\n```%s\n%s\n```\n", lang, strings.Join(imps, "\n"))
			ex.Extras++
		}
	}
	ex.Answer = AnswerGold
	return ex, b.String()
}

// removedSentence is how the edit prompt asks for a reason when code goes.
const removedSentence = "if you removed code"

// lines counts s's non-blank lines.
func lines(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// shownSource is the code block that follows the prompt's header line.
func shownSource(user, head string) (string, bool) {
	i := strings.Index(user, head)
	rest := user[i+len(head):]
	open := strings.Index(rest, "```")
	if open < 0 {
		return "", false
	}
	rest = rest[open:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return "", false
	}
	rest = rest[nl+1:]
	end := -1
	for _, e := range blockEnds {
		if j := strings.Index(rest, e); j >= 0 && (end < 0 || j < end) {
			end = j
		}
	}
	if end < 0 {
		return "", false
	}
	return rest[:end], true
}

// fenceLang is the language tag of the shown code block.
func fenceLang(user, head string) string {
	rest := user[strings.Index(user, head)+len(head):]
	i := strings.Index(rest, "```")
	if i < 0 {
		return ""
	}
	l, _, _ := strings.Cut(rest[i+3:], "\n")
	return strings.TrimSpace(l)
}

// dedentAt is a definition's text (as it starts in src, after its line's
// indentation) dedented as a whole.
func dedentAt(src []byte, t string) string {
	i := strings.Index(string(src), t)
	ind := ""
	if i >= 0 {
		j := strings.LastIndexByte(string(src[:i]), '\n') + 1
		if strings.TrimSpace(string(src[j:i])) == "" {
			ind = string(src[j:i])
		}
	}
	return strings.TrimRight(string(edit.Dedent([]byte(ind+t))), " \t\n")
}

// find is the function of the file before the patch that the prompt showed:
// named name, in class (when given), with the shown text.
func (gf *GoldFile) find(name, class, shown string) (index.Def, bool) {
	want := normalize(gf.Lang, []byte(shown))
	for _, d := range gf.PreDefs {
		if !isFunc(d) || d.Name != name {
			continue
		}
		if class != "" && d.Parent != "" && lastPart(d.Parent) != class {
			continue
		}
		if normalize(gf.Lang, []byte(text(gf.Pre, d))) == want {
			return d, true
		}
	}
	return index.Def{}, false
}

// preText is d's text before the patch.
func (gf *GoldFile) preText(d index.Def) (string, bool) { return text(gf.Pre, d), true }

func lastPart(q string) string { return q[strings.LastIndexAny(q, ".:")+1:] }

// helpersOf are the functions the patch adds that go with function d: those
// of its scope nearest to it among the edited functions of that scope (the
// last edited one before them, else the first after), so each is added once;
// when the patch edits no function of the scope, all of the scope's.
func (gf *GoldFile) helpersOf(d index.Def) []AddedDef {
	var ed []index.Def
	for _, e := range gf.Edited() {
		if e.Parent == d.Parent {
			ed = append(ed, e)
		}
	}
	var out []AddedDef
	for _, a := range gf.Added() {
		if !isFunc(a.Def) || a.Def.Parent != d.Parent {
			continue
		}
		owner := -1
		if anchor, ok := counterpartByName(gf, a.After, d.Parent); ok {
			for i, e := range ed {
				if e.Start <= anchor.Start {
					owner = i
				}
			}
		}
		if owner < 0 && len(ed) > 0 {
			owner = 0
		}
		if len(ed) == 0 || (owner >= 0 && ed[owner].Start == d.Start) {
			out = append(out, a) // with no edited function in the scope, any shown one carries it
		}
	}
	return out
}

// counterpartByName is the pre-patch definition named name in scope parent.
func counterpartByName(gf *GoldFile, name, parent string) (index.Def, bool) {
	for _, d := range gf.PreDefs {
		if d.Name == name && d.Parent == parent {
			return d, true
		}
	}
	return index.Def{}, false
}

// choose answers a multiple-choice question: the first offered option whose
// function the patch changes.
func (o *Oracle) choose(user string) (Exchange, string) {
	ex := Exchange{Kind: "choose", Answer: AnswerRefusal, Why: "no offered option is changed by the patch"}
	for _, opt := range options(user) {
		ex.Options = append(ex.Options, opt.path+":"+opt.name)
	}
	for _, opt := range options(user) {
		gf := o.gold.Files[opt.path]
		if gf == nil {
			continue
		}
		if opt.region {
			if o.regionTouched(gf, opt.from, opt.to, opt.snippet) {
				ex.Answer, ex.Path, ex.Name, ex.Why = AnswerChoice, opt.path, opt.name, ""
				return ex, opt.letter
			}
			continue
		}
		for _, d := range gf.Edited() {
			if d.QName == opt.name {
				ex.Answer, ex.Path, ex.Name, ex.Why = AnswerChoice, opt.path, opt.name, ""
				return ex, opt.letter
			}
		}
	}
	return ex, ""
}
