package mcp

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/search"
	"github.com/grit-dev/grit/internal/tool"
)

//go:embed tools/*.md
var toolDocs embed.FS

// Limits of the locate tool: the locate service's.
const (
	DefaultK = locate.DefaultK
	MaxK     = locate.MaxK
)

// description is a tool's embedded description file.
func description(name string) string {
	b, err := toolDocs.ReadFile("tools/" + name + ".md")
	if err != nil {
		panic(fmt.Sprintf("mcp: tool %s has no description file: %v", name, err)) // a build defect, caught by every test
	}
	return strings.TrimSpace(string(b))
}

// budgetBounds is the schema of every budget argument.
var budgetBounds = tool.Bounds(0, MaxBudget)

// Tool inputs. Their json and jsonschema tags are the tools' schemas
// (tool.SchemaFor, as for the agent's tools).
type (
	locateIn struct {
		Task          string `json:"task" jsonschema:"what you want to find or change, in words: an issue, a bug report, a failing test's name"`
		Traceback     string `json:"traceback,omitempty" jsonschema:"a traceback or test output; its frames inside the repository weigh heavily"`
		K             int    `json:"k,omitempty" jsonschema:"how many candidates (default 10, at most 50)"`
		IncludeSource bool   `json:"include_source,omitempty" jsonschema:"also return each candidate's source, best first, as far as the budget allows"`
		Budget        int    `json:"budget,omitempty" jsonschema:"token budget of the answer: the best candidates that fit, and a note of the ranks cut (default 2000)"`
	}
	fileIn struct {
		File   string `json:"file" jsonschema:"a file path relative to the repository root (or absolute inside it)"`
		Budget int    `json:"budget,omitempty" jsonschema:"token budget of the answer (default 2000)"`
	}
	nameIn struct {
		Name   string `json:"name" jsonschema:"a definition: bare (get), qualified (Session.get) or path::qname (requests/sessions.py::Session.get)"`
		Budget int    `json:"budget,omitempty" jsonschema:"token budget of the answer (default 2000)"`
	}
	repoMapIn struct {
		Task   string `json:"task,omitempty" jsonschema:"what you are working on; the map is centred on the code it points at (omit for the whole repository)"`
		Budget int    `json:"budget,omitempty" jsonschema:"token budget of the map (default 2000)"`
	}
	editIn struct {
		Name                 string `json:"name" jsonschema:"the definition to replace: qualified (Session.get) or path::qname when the name is ambiguous"`
		NewSource            string `json:"new_source" jsonschema:"the whole new definition: decorators, signature line, docstring and body"`
		AllowSignatureChange bool   `json:"allow_signature_change,omitempty" jsonschema:"set when the task requires new parameters or a new return type"`
		AllowShorter         bool   `json:"allow_shorter,omitempty" jsonschema:"set when the task is to remove code, so a much shorter definition is intended"`
		Budget               int    `json:"budget,omitempty" jsonschema:"token budget of the answer, which holds the diff (default 2000)"`
	}
)

// handler is a tool body: it returns the answer's text, or a *toolError for a
// mistake the client can correct, or another error for a broken environment.
type handler[In any] func(ctx context.Context, in In) (string, error)

// toolError is a mistake the client can correct; its message says how.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

func fixf(format string, args ...any) error { return &toolError{fmt.Sprintf(format, args...)} }

// add registers one tool.
func add[In any](s *Server, name, title string, readOnly bool, schema *jsonschema.Schema, h handler[In]) {
	t := &sdk.Tool{
		Name:        name,
		Title:       title,
		Description: description(name),
		InputSchema: schema,
		Annotations: &sdk.ToolAnnotations{Title: title, ReadOnlyHint: readOnly, OpenWorldHint: new(bool)},
	}
	if readOnly {
		t.Annotations.IdempotentHint = true
	}
	sdk.AddTool(s.server, t, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error) {
		text, err := h(ctx, in)
		var te *toolError
		switch {
		case errors.As(err, &te):
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: te.msg}}}, nil, nil
		case errors.Is(err, errOutside):
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "refused: " + err.Error()}}}, nil, nil
		case err != nil:
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
	})
}

func (s *Server) addTools() {
	add(s, "locate", "Locate code for a task", true, tool.SchemaFor[locateIn](func(p map[string]*jsonschema.Schema) {
		tool.Bounds(0, MaxK)(p["k"])
		budgetBounds(p["budget"])
	}), s.locate)
	fileSchema := func() *jsonschema.Schema {
		return tool.SchemaFor[fileIn](func(p map[string]*jsonschema.Schema) { budgetBounds(p["budget"]) })
	}
	nameSchema := func() *jsonschema.Schema {
		return tool.SchemaFor[nameIn](func(p map[string]*jsonschema.Schema) { budgetBounds(p["budget"]) })
	}
	add(s, "symbols", "Definitions of a file", true, fileSchema(), s.symbols)
	add(s, "definition", "Source of a definition", true, nameSchema(), s.definition)
	add(s, "callers", "Call sites of a definition", true, nameSchema(), s.callers)
	add(s, "callees", "What a definition calls", true, nameSchema(), s.callees)
	add(s, "edges", "Imports and importers of a file", true, fileSchema(), s.edges)
	add(s, "repo_map", "Map of the repository", true, tool.SchemaFor[repoMapIn](func(p map[string]*jsonschema.Schema) {
		budgetBounds(p["budget"])
	}), s.repoMap)
	if s.opts.AllowEdits {
		add(s, "edit_function", "Replace one definition", false, tool.SchemaFor[editIn](func(p map[string]*jsonschema.Schema) {
			budgetBounds(p["budget"])
		}), s.editFunction)
	}
}

// ---- locate ----

func (s *Server) locate(ctx context.Context, in locateIn) (string, error) {
	req := locate.Request{Task: in.Task, Traceback: in.Traceback, K: in.K, Explain: true}
	if req.Empty() {
		return "", fixf("locate needs a task: say in words what you are looking for (and pass any traceback as traceback).")
	}
	k := req.N()
	ix, release, err := s.read(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	res, err := locate.Run(ctx, ix, req)
	if err != nil {
		return "", err
	}
	a := newAnswer(in.Budget)
	a.must(fmt.Sprintf("locate: %s for the task (of %d asked; ranked by %s in %.0f ms)\n",
		plural(len(res.Hits), "candidate", "candidates"), k, "symbol, path, content, lexical, spread, recency and traceback signals", res.TookMS))
	if res.Note != "" {
		a.must("note: " + res.Note + "\n")
	}
	if len(res.Frames) > 0 {
		var fr []string
		for _, f := range res.Frames {
			if f.Rel != "" {
				fr = append(fr, fmt.Sprintf("%s:%d %s", f.Rel, f.Line, f.Func))
			}
		}
		if len(fr) > 0 {
			a.add("traceback frames in the repository (innermost first): " + strings.Join(fr, "; ") + "\n")
		}
	}
	if len(res.Hits) == 0 {
		a.must("No definition matches. Try other words (names of functions, classes, error messages), or repo_map for an overview.\n")
		return a.text(), nil
	}
	// The candidates get what the header left (at least a token, as 0
	// would mean no limit); their sources then share what is left after them.
	req.Budget = max(a.room(), 1)
	texts := req.Fit(res.Hits, func(rank int, h search.Hit) string { return "\n" + hitText(rank, h) })
	sourcesCut, linesCut := 0, 0
	for i, h := range res.Hits {
		if i >= len(texts) || !a.add(texts[i]) {
			a.cutf("%s (ranks %d-%d)", plural(len(res.Hits)-i, "more candidate", "more candidates"), i+1, len(res.Hits))
			break
		}
		if !in.IncludeSource {
			continue
		}
		src, err := ix.Source(ctx, h.Def)
		if err != nil {
			a.add(fmt.Sprintf("   (source unavailable: %v)\n", err))
			continue
		}
		block := fence(h.Def, string(src))
		if a.add(block) {
			continue
		}
		// The best candidates' code matters most: show the head of one that
		// does not fit whole, if a useful part of it does.
		if room := a.room() - 20; room >= 120 {
			head, dropped := truncateLines(string(src), room)
			if head != "" && a.add(fence(h.Def, head+fmt.Sprintf("… (%d more lines: call definition with %s::%s)\n", dropped, h.Def.Path, h.Def.QName))) {
				linesCut += dropped
				continue
			}
		}
		sourcesCut++
	}
	if linesCut > 0 {
		a.cutf("%s of a long source", plural(linesCut, "line", "lines"))
	}
	if sourcesCut > 0 {
		a.cutf("the source of %s", plural(sourcesCut, "candidate", "candidates"))
	}
	if len(res.Files) > 0 && len(a.cut) == 0 {
		var fs []string
		for i, f := range res.Files {
			if i == 5 {
				break
			}
			fs = append(fs, fmt.Sprintf("%s %.2f", f.Path, f.Score))
		}
		a.add("\nbest files: " + strings.Join(fs, ", ") + "\n")
	}
	return a.text(), nil
}

// hitText is one ranked candidate: where, what, its score and why.
func hitText(rank int, h search.Hit) string {
	d := h.Def
	var b strings.Builder
	fmt.Fprintf(&b, "%d. %s::%s  %s, lines %d-%d, bytes [%d,%d)  score %.3f\n", rank, d.Path, d.QName, d.Kind, d.StartLine, d.EndLine, d.Start, d.End, h.Score)
	if d.Signature != "" {
		fmt.Fprintf(&b, "   %s\n", oneLine(d.Signature))
	}
	if sig := signalsText(h.Signals); sig != "" {
		fmt.Fprintf(&b, "   signals: %s\n", sig)
	}
	for i, e := range h.Explain {
		if i == 3 {
			break
		}
		fmt.Fprintf(&b, "   %s\n", e)
	}
	return b.String()
}

// signalsText lists the non-zero signal contributions in a fixed order.
func signalsText(s search.Signals) string {
	var out []string
	for _, x := range s.List() {
		if x.Value != 0 {
			out = append(out, fmt.Sprintf("%s %+.3f", x.Name, x.Value))
		}
	}
	return strings.Join(out, ", ")
}

func fence(d index.Def, src string) string {
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	return fmt.Sprintf("```%s %s:%d\n%s```\n", d.Lang, d.Path, d.StartLine, src)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ---- symbols ----

func (s *Server) indexedFile(ctx context.Context, ix *index.Index, file string) (string, error) {
	rel, err := s.repoPath(file)
	if err != nil {
		return "", err
	}
	if _, err := ix.File(ctx, rel); err != nil {
		if errors.Is(err, index.ErrNotIndexed) {
			if _, serr := s.fsys.Stat(rel); serr != nil {
				return "", fixf("%s: no such file in the repository %s. Paths are relative to its root.", rel, s.root)
			}
			return "", fixf("%s is not in the index (an unsupported language, ignored, binary or too large).", rel)
		}
		return "", err
	}
	return rel, nil
}

func (s *Server) symbols(ctx context.Context, in fileIn) (string, error) {
	ix, rel, release, err := s.readIndexedFile(ctx, in.File)
	if err != nil {
		return "", err
	}
	defer release()
	defs, err := ix.Symbols(ctx, rel)
	if err != nil {
		return "", err
	}
	a := newAnswer(in.Budget)
	lang := ""
	if len(defs) > 0 {
		lang = defs[0].Lang + ", "
	}
	a.must(fmt.Sprintf("%s: %s%s in source order (lines, byte range [start,end), kind, qualified name, signature)\n", rel, lang, plural(len(defs), "definition", "definitions")))
	for i, d := range defs {
		if !a.add(defLine(d)) {
			a.cutf("%s (from line %d)", plural(len(defs)-i, "more definition", "more definitions"), d.StartLine)
			break
		}
	}
	return a.text(), nil
}

// defLine is one definition in a listing, indented by nesting depth.
func defLine(d index.Def) string {
	depth := strings.Count(d.QName, ".")
	sig := oneLine(d.Signature)
	if sig == "" {
		sig = d.Name
	}
	return fmt.Sprintf("%s%d-%d [%d,%d) %s %s: %s\n", strings.Repeat("  ", depth), d.StartLine, d.EndLine, d.Start, d.End, d.Kind, d.QName, sig)
}

// ---- definition ----

// lookup finds the definitions called name; none is a tool error that says
// how to find one.
func (s *Server) lookup(ctx context.Context, ix *index.Index, name string) ([]index.Def, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fixf("give a name: bare (get), qualified (Session.get) or path::qname.")
	}
	if p, q, ok := strings.Cut(name, "::"); ok {
		rel, err := s.repoPath(p)
		if err != nil {
			return nil, err
		}
		name = rel + "::" + q
	}
	defs, err := ix.Lookup(ctx, name)
	if err != nil && !errors.Is(err, index.ErrNotFound) {
		return nil, fmt.Errorf("look up %s: %w", name, err)
	}
	if len(defs) == 0 {
		return nil, fixf("No definition named %s in the index. Names are bare (get), qualified (Session.get) or path::qname; use locate or symbols to find the right one.", name)
	}
	return defs, nil
}

// readIndexedFile takes the index for reading and resolves file to an indexed
// repository path; the caller must call release once done with the index.
func (s *Server) readIndexedFile(ctx context.Context, file string) (*index.Index, string, func(), error) {
	ix, release, err := s.read(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	rel, err := s.indexedFile(ctx, ix, file)
	if err != nil {
		release()
		return nil, "", nil, err
	}
	return ix, rel, release, nil
}

// readDefs takes the index for reading and looks name up; the caller must
// call release once done with the index.
func (s *Server) readDefs(ctx context.Context, name string) (*index.Index, []index.Def, func(), error) {
	ix, release, err := s.read(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	defs, err := s.lookup(ctx, ix, name)
	if err != nil {
		release()
		return nil, nil, nil, err
	}
	return ix, defs, release, nil
}

func defHeader(d index.Def) string {
	return fmt.Sprintf("%s::%s  %s, lines %d-%d, bytes [%d,%d)", d.Path, d.QName, d.Kind, d.StartLine, d.EndLine, d.Start, d.End)
}

func (s *Server) definition(ctx context.Context, in nameIn) (string, error) {
	ix, defs, release, err := s.readDefs(ctx, in.Name)
	if err != nil {
		return "", err
	}
	defer release()
	a := newAnswer(in.Budget)
	if len(defs) > 1 {
		a.must(fmt.Sprintf("%s is ambiguous: %d definitions. Call again with one path::qname for just that one.\n", in.Name, len(defs)))
		for i, d := range defs {
			if !a.add("  " + defHeader(d) + "\n") {
				a.cutf("%s", plural(len(defs)-i, "more definition", "more definitions"))
				break
			}
		}
	}
	shown := 0
	for _, d := range defs {
		src, err := ix.Source(ctx, d)
		if errors.Is(err, index.ErrStale) {
			return "", fixf("%s changed while it was being read; call again.", d.Path)
		}
		if err != nil {
			return "", err
		}
		head := "\n" + defHeader(d) + "\n"
		if d.Doc != "" && len(defs) == 1 {
			head += "doc: " + oneLine(d.Doc) + "\n"
		}
		if a.add(head + fence(d, string(src))) {
			shown++
			continue
		}
		if shown == 0 {
			// The one asked for does not fit whole: show its head.
			room := a.room() - estimateTokens(head) - 30
			part, dropped := truncateLines(string(src), max(room, 0))
			a.must(head + fence(d, part+fmt.Sprintf("… (%d more lines)\n", dropped)))
			a.cutf("the last %s of %s", plural(dropped, "line", "lines"), d.QName)
			shown++
			continue
		}
		a.cutf("the source of %s", plural(len(defs)-shown, "more definition", "more definitions"))
		break
	}
	return a.text(), nil
}

// ---- callers / callees ----

// lineReader returns a file's line n, trimmed, reading each file once.
type lineReader struct {
	s     *Server
	files map[string][]string
}

func (r *lineReader) line(path string, n int) string {
	if r.files == nil {
		r.files = map[string][]string{}
	}
	lines, ok := r.files[path]
	if !ok {
		if data, err := r.s.readFile(path); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		r.files[path] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	l := strings.TrimSpace(lines[n-1])
	if len(l) > 160 {
		l = l[:160] + "…"
	}
	return l
}

func (s *Server) callers(ctx context.Context, in nameIn) (string, error) {
	ix, defs, release, err := s.readDefs(ctx, in.Name)
	if err != nil {
		return "", err
	}
	defer release()
	a := newAnswer(in.Budget)
	if len(defs) > 1 {
		a.must(fmt.Sprintf("%s names %d definitions; callers of each below (narrow with path::qname).\n", in.Name, len(defs)))
	}
	lr := &lineReader{s: s}
	for di, d := range defs {
		calls, err := ix.Callers(ctx, d.ID)
		if err != nil {
			return "", err
		}
		encl := map[string]bool{}
		for _, c := range calls {
			encl[c.Path+"::"+c.Caller] = true
		}
		if !a.add(fmt.Sprintf("\ncallers of %s: %s in %s\n", defHeader(d), plural(len(calls), "call site", "call sites"), plural(len(encl), "definition", "definitions"))) {
			a.cutf("the callers of %s", plural(len(defs)-di, "more definition", "more definitions"))
			break
		}
		for i, c := range calls {
			caller := c.Caller
			if caller == "" {
				caller = "<module level>"
			}
			if !a.add(fmt.Sprintf("  %s:%d in %s | %s\n", c.Path, c.Line, caller, lr.line(c.Path, c.Line))) {
				a.cutf("%s of %s", plural(len(calls)-i, "more call site", "more call sites"), d.QName)
				break
			}
		}
	}
	a.add("(calls are resolved statically, by name, imports and enclosing class; calls through variables or reflection are not seen)\n")
	return a.text(), nil
}

func (s *Server) callees(ctx context.Context, in nameIn) (string, error) {
	ix, defs, release, err := s.readDefs(ctx, in.Name)
	if err != nil {
		return "", err
	}
	defer release()
	a := newAnswer(in.Budget)
	if len(defs) > 1 {
		a.must(fmt.Sprintf("%s names %d definitions; callees of each below (narrow with path::qname).\n", in.Name, len(defs)))
	}
	for di, d := range defs {
		edges, err := ix.Callees(ctx, d.ID)
		if err != nil {
			return "", err
		}
		calls, err := ix.Calls(ctx, d.Path)
		if err != nil {
			return "", err
		}
		resolved := map[string]bool{}
		for _, e := range edges {
			resolved[e.Callee.Name] = true
		}
		unres := map[string]int{}
		for _, c := range calls {
			if c.CallerID == d.ID && !resolved[c.Callee] {
				unres[c.Callee]++
			}
		}
		if !a.add(fmt.Sprintf("\ncallees of %s: %s in the repository\n", defHeader(d), plural(len(edges), "definition", "definitions"))) {
			a.cutf("the callees of %s", plural(len(defs)-di, "more definition", "more definitions"))
			break
		}
		for i, e := range edges {
			c := e.Callee
			if !a.add(fmt.Sprintf("  %s::%s  %s, lines %d-%d, %s: %s\n", c.Path, c.QName, c.Kind, c.StartLine, c.EndLine, plural(e.Count, "call", "calls"), oneLine(c.Signature))) {
				a.cutf("%s of %s", plural(len(edges)-i, "more callee", "more callees"), d.QName)
				break
			}
		}
		if len(unres) > 0 {
			names := make([]string, 0, len(unres))
			for n := range unres {
				names = append(names, n)
			}
			sort.Strings(names)
			var parts []string
			for _, n := range names {
				parts = append(parts, fmt.Sprintf("%s ×%d", n, unres[n]))
			}
			if !a.add("  not resolved in the repository (library, builtin or dynamic): " + strings.Join(parts, ", ") + "\n") {
				a.cutf("%s", plural(len(names), "unresolved callee name", "unresolved callee names"))
			}
		}
	}
	return a.text(), nil
}

// ---- edges ----

func (s *Server) edges(ctx context.Context, in fileIn) (string, error) {
	ix, rel, release, err := s.readIndexedFile(ctx, in.File)
	if err != nil {
		return "", err
	}
	defer release()
	imps, err := ix.Imports(ctx, rel)
	if err != nil {
		return "", err
	}
	from, err := ix.EdgesFrom(ctx, rel)
	if err != nil {
		return "", err
	}
	to, err := ix.EdgesTo(ctx, rel)
	if err != nil {
		return "", err
	}
	a := newAnswer(in.Budget)
	a.must(fmt.Sprintf("edges of %s: %s, refers to %s, referred to by %s\n", rel,
		plural(len(imps), "import", "imports"), plural(len(from), "file", "files"), plural(len(to), "file", "files")))
	a.must("(weight: how much of one file's vocabulary is defined in the other; rare, telling names weigh more)\n")
	section := func(title string, n int, line func(i int) string, what string) {
		if n == 0 {
			return
		}
		if !a.add("\n" + title + "\n" + line(0)) {
			a.cutf("%s", plural(n, what, what+"s"))
			return
		}
		for i := 1; i < n; i++ {
			if !a.add(line(i)) {
				a.cutf("%s", plural(n-i, "more "+what, "more "+what+"s"))
				return
			}
		}
	}
	section("refers to (heaviest first):", len(from), func(i int) string {
		e := from[i]
		return fmt.Sprintf("  %s  weight %.2f  names: %s\n", e.To, e.Weight, names(e.Names))
	}, "outgoing edge")
	section("referred to by (heaviest first):", len(to), func(i int) string {
		e := to[i]
		return fmt.Sprintf("  %s  weight %.2f  names: %s\n", e.From, e.Weight, names(e.Names))
	}, "incoming edge")
	section("imports:", len(imps), func(i int) string {
		im := imps[i]
		target := "external"
		if im.Resolved != "" {
			target = im.Resolved
		}
		what := im.Module
		if len(im.Names) > 0 {
			what += " (" + strings.Join(im.Names, ", ") + ")"
		}
		if im.Alias != "" {
			what += " as " + im.Alias
		}
		return fmt.Sprintf("  line %d: %s -> %s\n", im.Line, what, target)
	}, "import")
	return a.text(), nil
}

func names(ns []string) string {
	if len(ns) > 8 {
		return strings.Join(ns[:8], ", ") + fmt.Sprintf(", … (%d more)", len(ns)-8)
	}
	return strings.Join(ns, ", ")
}
