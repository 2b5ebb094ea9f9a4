package fix

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"text/template"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = template.Must(template.ParseFS(promptFS, "prompts/*.tmpl"))

// DefaultPromptBudget is the edit prompt's token budget: what a typical
// function with its context must fit in for a small local model.
const DefaultPromptBudget = 2000

// EstimateTokens approximates a token count (locate.Tokens: about four
// bytes per token for code and English, the usual rule for BPE tokenizers).
func EstimateTokens(s string) int { return locate.Tokens(s) }

// EditPrompt is what the edit prompt shows the model.
type EditPrompt struct {
	Task       string
	Feedback   string // why the previous attempt failed
	TestOutput string // the failing tests' output (its tail)
	Kind       string // "function", "method"
	Name       string
	Path       string
	Lang       string
	Class      string   // the enclosing class's header, "" at top level
	Source     string   // the definition, dedented
	Imports    []string // import statements the definition uses
	Callees    []string // signatures of what it calls
	Callers    []string // "path: signature" of what calls it

	AllowSignature bool
}

// Render renders the system and user prompts. If the user prompt is over
// budget tokens it drops callers, then callees, then imports, then shortens
// the test output (keeping its end, where test failures say what broke); the
// task and the definition are always whole. It returns the token estimate of
// both prompts together.
func (p EditPrompt) Render(budget int) (system, user string, tokens int, err error) {
	if budget <= 0 {
		budget = DefaultPromptBudget
	}
	var sb bytes.Buffer
	if err := prompts.ExecuteTemplate(&sb, "system.tmpl", p); err != nil {
		return "", "", 0, fmt.Errorf("render system prompt: %w", err)
	}
	system = sb.String()
	for {
		var b bytes.Buffer
		if err := prompts.ExecuteTemplate(&b, "edit.tmpl", p); err != nil {
			return "", "", 0, fmt.Errorf("render edit prompt: %w", err)
		}
		user = b.String()
		tokens = EstimateTokens(system) + EstimateTokens(user)
		if tokens <= budget {
			return system, user, tokens, nil
		}
		switch {
		case len(p.Callers) > 0:
			p.Callers = p.Callers[:len(p.Callers)-1]
		case len(p.Callees) > 0:
			p.Callees = p.Callees[:len(p.Callees)-1]
		case len(p.Imports) > 0:
			p.Imports = p.Imports[:len(p.Imports)-1]
		case len(p.TestOutput) > 400:
			over := (tokens - budget) * 4
			keep := max(len(p.TestOutput)-over-16, 400)
			p.TestOutput = "…" + tailBytes(p.TestOutput, keep)
		default:
			return system, user, tokens, nil // the definition alone is over budget: send it whole
		}
	}
}

// tailBytes is the last n bytes of s, starting on a line if one is near.
func tailBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	t := s[len(s)-n:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < 200 {
		t = t[i+1:]
	}
	for len(t) > 0 && t[0]&0xC0 == 0x80 {
		t = t[1:] // never start mid-rune
	}
	return t
}

// gather fills an EditPrompt's context from the index: the enclosing class,
// the imports the definition uses, and the signatures around it.
func gather(ctx context.Context, ix *index.Index, d index.Def, src []byte) EditPrompt {
	p := EditPrompt{Kind: d.Kind, Name: d.Name, Path: d.Path, Lang: d.Lang}
	body := strings.ReplaceAll(string(src[d.Start:d.End]), "\r\n", "\n")
	p.Source = string(edit.Dedent([]byte(leadingIndent(src, d.Start) + body)))
	if d.Parent != "" {
		if ps, err := ix.Lookup(ctx, d.Path+"::"+d.Parent); err == nil && len(ps) > 0 {
			p.Class = firstLine(ps[0].Signature)
		}
	}
	if imps, err := ix.Imports(ctx, d.Path); err == nil {
		for _, im := range imps {
			if usesImport(body, im) {
				p.Imports = append(p.Imports, importLine(d.Lang, im))
			}
		}
	}
	seen := map[string]bool{}
	if es, err := ix.Callees(ctx, d.ID); err == nil {
		for _, e := range es {
			sig := firstLine(e.Callee.Signature)
			if sig == "" || seen[sig] || e.Callee.ID == d.ID {
				continue
			}
			seen[sig] = true
			p.Callees = append(p.Callees, sig)
			if len(p.Callees) == 8 {
				break
			}
		}
	}
	if cs, err := ix.Callers(ctx, d.ID); err == nil {
		for _, c := range cs {
			if c.CallerID == 0 || c.CallerID == d.ID {
				continue
			}
			cd, err := ix.DefByID(ctx, c.CallerID)
			if err != nil {
				continue
			}
			line := cd.Path + ": " + firstLine(cd.Signature)
			if seen[line] {
				continue
			}
			seen[line] = true
			p.Callers = append(p.Callers, line)
			if len(p.Callers) == 5 {
				break
			}
		}
	}
	return p
}

func leadingIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	pre := src[start:off]
	if len(bytes.TrimLeft(pre, " \t")) != 0 {
		return ""
	}
	return string(pre)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

// usesImport reports whether body mentions a name the import binds.
func usesImport(body string, im index.Import) bool {
	var names []string
	switch {
	case im.Alias != "":
		names = []string{im.Alias}
	case len(im.Names) > 0:
		names = im.Names
	default:
		m := strings.Trim(im.Module, `"'`)
		m = m[strings.LastIndexAny(m, "./")+1:]
		names = []string{m}
	}
	for _, n := range names {
		if n != "" && n != "*" && regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`).MatchString(body) {
			return true
		}
	}
	return false
}

func importLine(lang string, im index.Import) string {
	switch lang {
	case "python":
		switch {
		case len(im.Names) > 0:
			return fmt.Sprintf("from %s import %s", im.Module, strings.Join(im.Names, ", "))
		case im.Alias != "":
			return fmt.Sprintf("import %s as %s", im.Module, im.Alias)
		}
		return "import " + im.Module
	case "go":
		if im.Alias != "" {
			return fmt.Sprintf("import %s %q", im.Alias, im.Module)
		}
		return fmt.Sprintf("import %q", im.Module)
	}
	if len(im.Names) > 0 {
		return fmt.Sprintf("import { %s } from %q", strings.Join(im.Names, ", "), im.Module)
	}
	return fmt.Sprintf("import %q", im.Module)
}

// ChooseOption is one candidate of the multiple-choice question.
type ChooseOption struct {
	Letter, Name, Path, Snippet string
	Label                       string // a region's, shown instead of "Name in Path"
}

// renderChoose renders the disambiguation question.
func renderChoose(task string, opts []ChooseOption) (string, error) {
	letters := make([]string, len(opts))
	for i := range opts {
		letters[i] = opts[i].Letter
	}
	var b bytes.Buffer
	err := prompts.ExecuteTemplate(&b, "choose.tmpl", struct {
		Task    string
		Options []ChooseOption
		Letters string
	}{task, opts, strings.Join(letters[:len(letters)-1], ", ") + " or " + letters[len(letters)-1]})
	if err != nil {
		return "", fmt.Errorf("render choice prompt: %w", err)
	}
	return b.String(), nil
}

var answerRE = regexp.MustCompile(`\b([A-E])\b`)

// parseChoice reads the model's letter; -1 if there is none among n options.
func parseChoice(reply string, n int) int {
	reply = strings.TrimSpace(reply)
	if len(reply) == 1 || (len(reply) > 1 && (reply[1] == ')' || reply[1] == '.' || reply[1] == ':')) {
		if i := int(reply[0] - 'A'); i >= 0 && i < n {
			return i
		}
	}
	for _, m := range answerRE.FindAllStringSubmatch(reply, -1) {
		if i := int(m[1][0] - 'A'); i < n {
			return i
		}
	}
	return -1
}
