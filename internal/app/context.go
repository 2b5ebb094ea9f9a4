package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextfiles"
	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/mcpclient"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// CoreTools are sent with every request; any other tool is deferred: the
// system prompt names it and ToolSearch loads its schema on demand.
var CoreTools = map[string]bool{
	"Bash": true, "Read": true, "Edit": true, "Write": true, "Grep": true, "Glob": true,
	"Locate": true, "EditFunction": true, "Skill": true, "ToolSearch": true, "ExitPlanMode": true,
}

// ContextLayer is a session's context layer: the context files, memory and
// skills in the system prompt (in a fixed order, so the prompt prefix stays
// stable and provider caches hit), the Skill, ToolSearch and Memory tools,
// nested context files on Read, and compaction. Build it with NewContextLayer
// and Install it on an agent.
type ContextLayer struct {
	Files    *contextfiles.Set
	Memories []contextfiles.Memory
	Skills   *contextfiles.Skills
	Commands *contextfiles.Commands // custom slash commands (commands.go)
	// MCP runs MCP prompts as /mcp__server__prompt; nil without servers.
	MCP       *mcpclient.Manager
	Compactor *session.Compactor
	Window    int // tokens; 0 unknown
	Model     string

	root, appendPrompt string
	promptEnv          agent.PromptEnv
	tools              *tool.Registry
	agent              *agent.Agent
	deferred           []string // named in the prompt, fixed at Install
	memoryText         string   // rendered memory section
	warnings           []string
}

// ContextOptions configure NewContextLayer.
type ContextOptions struct {
	Root string // the workspace root (symlinks resolved)
	Cwd  string // "" means Root
	// ConfigOpts locate the user's home and config directory.
	ConfigOpts config.LoadOptions
	// AppendSystemPrompt is --append-system-prompt; it goes last.
	AppendSystemPrompt string
	Model              string
	Window             int // 0 unknown
	// Untrusted leaves out the repository's own skills (.grit/skills,
	// .claude/skills): their files may run code, and the repository has not
	// been trusted with grit trust.
	Untrusted bool
}

// NewContextLayer loads the context files, memory and skills of a session.
func NewContextLayer(o ContextOptions) (*ContextLayer, error) {
	fo := contextfiles.Options{Root: o.Root, Cwd: o.Cwd, Home: o.ConfigOpts.Home, Getenv: o.ConfigOpts.Getenv}
	files, err := contextfiles.Load(fo)
	if err != nil {
		return nil, err
	}
	mems, err := contextfiles.Memories(fo)
	if err != nil {
		return nil, err
	}
	skills, err := contextfiles.FindSkills(fo)
	if err != nil {
		return nil, err
	}
	if o.Untrusted {
		kept := skills.List[:0]
		dropped := 0
		for _, sk := range skills.List {
			if sk.Source == "user" {
				kept = append(kept, sk)
			} else {
				dropped++
			}
		}
		skills.List = kept
		if dropped > 0 {
			skills.Warnings = append(skills.Warnings, fmt.Sprintf("%d skill(s) of this repository not loaded: it is not trusted (run grit trust)", dropped))
		}
	}
	l := &ContextLayer{Files: files, Memories: mems, Skills: skills, Window: o.Window, Model: o.Model,
		root: o.Root, appendPrompt: o.AppendSystemPrompt, promptEnv: agent.DetectPromptEnv(cmp.Or(o.Cwd, o.Root))}
	l.memoryText, l.warnings = contextfiles.RenderMemory(mems)
	if l.Commands, err = contextfiles.FindCommands(fo, repoDefinitionsHonoured(!o.Untrusted)); err != nil {
		return nil, err
	}
	l.warnings = append(l.warnings, l.Commands.Warnings...)
	return l, nil
}

// Warnings are the context layer's problems for the user to see: cut
// files, refused imports, broken skills, cut memory.
func (l *ContextLayer) Warnings() []string {
	out := append(l.Files.Warnings(), l.Skills.Warnings...)
	return append(out, l.warnings...)
}

// Install adds the context layer's tools to reg (Skill when there are
// skills, Memory deferred, ToolSearch when a tool is deferred), wraps Read
// so that a subdirectory's context files come with the first read under it,
// and defers every tool outside CoreTools. Tools named in disallowed are
// left out.
func (l *ContextLayer) Install(reg *tool.Registry, disallowed map[string]bool) {
	l.tools = reg
	add := func(t tool.Tool) {
		if !disallowed[t.Name()] {
			reg.Add(t)
		}
	}
	if len(l.Skills.List) > 0 {
		add(tool.Skill{Catalog: l.Skills})
	}
	var user tool.MemoryFile
	var project tool.MemoryFile
	for _, m := range l.Memories {
		if m.Scope == contextfiles.MemoryUser {
			user = m
		} else {
			project = m
		}
	}
	add(tool.Memory{Project: project, User: user})
	if r, ok := reg.Get("Read"); ok {
		reg.Add(readWithContext{Tool: r, files: l.Files})
	}
	for _, n := range reg.Names() {
		if !CoreTools[n] {
			reg.SetDeferred(n) // n is registered: no error
		}
	}
	l.deferred = reg.Deferred()
	if len(l.deferred) > 0 {
		add(tool.ToolSearch{Registry: reg})
	}
}

// Attach installs the layer on a built agent: its system prompt and its
// compactor (auto-compaction when the window is known).
func (l *ContextLayer) Attach(a *agent.Agent) {
	l.agent = a
	l.Compactor = &session.Compactor{
		Provider: a.Provider,
		Window:   l.Window,
		Overhead: func() int { return session.EstimateTokens(a.System()) + session.EstimateTools(specs(a.Tools())) },
		Reload:   l.Reload,
	}
	a.SetSystem(l.SystemPrompt())
	a.SetCompactor(l.Compactor)
}

// SetModel records a switch of model (/model): its window drives the
// report and when compaction starts.
func (l *ContextLayer) SetModel(model string, window int) {
	l.Model, l.Window = model, window
	if l.Compactor != nil {
		l.Compactor.Window = window
	}
}

// Sections returns the layer's system prompt sections in prompt order.
func (l *ContextLayer) Sections() (files, memory, skills, deferred string) {
	if len(l.deferred) > 0 {
		deferred = "# Deferred tools\n\nThese tools exist but their schemas are not loaded; call ToolSearch (select:Name, or keywords) to load one before using it: " + strings.Join(l.deferred, ", ") + "."
	}
	return l.Files.Render(), l.memoryText, l.Skills.Render(), deferred
}

// SystemPrompt is the whole system prompt: the base prompt, then context
// files, memory, skills and deferred tools, then --append-system-prompt.
func (l *ContextLayer) SystemPrompt() string {
	f, m, s, d := l.Sections()
	return agent.SystemPrompt(l.promptEnv, f, m, s, d, l.appendPrompt)
}

// Reload re-reads context files, memory and skills from disk (after a
// compaction or /clear) and gives the agent the new system prompt.
func (l *ContextLayer) Reload() {
	l.Files.Reload()
	l.memoryText, l.warnings = contextfiles.RenderMemory(l.Memories)
	if sk, err := contextfiles.FindSkills(contextfiles.Options{Root: l.root}); err == nil && sameSkillNames(sk, l.Skills) {
		l.Skills = sk // a new or removed skill would change the Skill tool's catalog: keep the session's set
	}
	if l.agent != nil {
		l.agent.SetSystem(l.SystemPrompt())
	}
}

func sameSkillNames(a, b *contextfiles.Skills) bool {
	return strings.Join(a.SkillNames(), ",") == strings.Join(b.SkillNames(), ",")
}

// Cleared resets the layer after /clear: the metering starts over and the
// files are read again.
func (l *ContextLayer) Cleared() {
	if l.Compactor != nil {
		l.Compactor.Reset()
	}
	l.Reload()
}

// AddMemory adds a note to the project's memory (a "#" line).
func (l *ContextLayer) AddMemory(note string) (string, error) {
	for _, m := range l.Memories {
		if m.Scope == contextfiles.MemoryProject {
			return m.Path, m.Add(note)
		}
	}
	return "", fmt.Errorf("add memory: no project memory in this session")
}

// readWithContext is the Read tool followed, on the first read under a
// directory, by that directory's context files as a system reminder.
type readWithContext struct {
	tool.Tool
	files *contextfiles.Set
}

func (r readWithContext) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	res, err := r.Tool.Run(ctx, env, input)
	if err != nil || res.IsError || env == nil {
		return res, err
	}
	var in struct {
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(input, &in) != nil {
		return res, nil
	}
	rel, rerr := env.Resolve(in.FilePath)
	if rerr != nil {
		return res, nil
	}
	if extra := r.files.ForPath(env.Abs(rel)); extra != "" {
		res.Content += "\n\n" + extra
	}
	return res, nil
}

func specs(reg *tool.Registry) []provider.ToolSpec {
	var out []provider.ToolSpec
	for _, s := range reg.Specs() {
		out = append(out, provider.ToolSpec(s))
	}
	return out
}

// ContextRow is one row of /context.
type ContextRow struct {
	Name    string  `json:"name"`
	Tokens  int     `json:"tokens"`
	Percent float64 `json:"percent"` // of the window; of the total used when the window is unknown
}

// ContextReport is /context and `grit context --json`.
type ContextReport struct {
	Model     string `json:"model"`
	Window    int    `json:"window"` // 0: unknown
	Used      int    `json:"used"`
	Threshold int    `json:"autocompact_threshold"` // 0: no auto-compaction
	// Source is "provider" when the last call's input tokens were counted
	// by the provider (the other rows are then estimates and messages the
	// remainder), else "estimate".
	Source      string               `json:"source"`
	Calibration float64              `json:"calibration"` // provider count / estimate of the last request
	Rows        []ContextRow         `json:"rows"`
	Files       []contextfiles.File  `json:"context_files"`
	Skills      []contextfiles.Skill `json:"skills"`
	Deferred    []string             `json:"deferred_tools"`
	Warnings    []string             `json:"warnings,omitempty"`
}

// Report breaks the next request down by row; the rows add up to the
// window when it is known (to the tokens used otherwise, or when over).
func (l *ContextLayer) Report(messages []provider.Message, last provider.Usage) ContextReport {
	scale := 1.0
	if l.Compactor != nil {
		scale = l.Compactor.Scale()
	}
	est := func(n int) int { return int(math.Round(float64(n) * scale)) }
	f, m, s, d := l.Sections()
	system := l.SystemPrompt()
	base := len(system) - len(f) - len(m) - len(s) - len(d)
	var tools []provider.ToolSpec
	if l.tools != nil {
		tools = specs(l.tools)
	}
	rows := []ContextRow{
		{Name: "system prompt", Tokens: est(int(math.Ceil(float64(base) / session.BytesPerToken)))},
		{Name: "tools", Tokens: est(session.EstimateTools(tools))},
		{Name: "deferred tools", Tokens: est(session.EstimateTokens(d))},
		{Name: "context files", Tokens: est(session.EstimateTokens(f))},
		{Name: "memory", Tokens: est(session.EstimateTokens(m))},
		{Name: "skills", Tokens: est(session.EstimateTokens(s))},
	}
	fixed := 0
	for _, r := range rows {
		fixed += r.Tokens
	}
	rep := ContextReport{Model: l.Model, Window: l.Window, Threshold: session.Threshold(l.Window), Source: "estimate", Calibration: scale,
		Files: l.Files.Files(), Skills: l.Skills.List, Deferred: l.deferred, Warnings: l.Warnings()}
	msgTokens := est(session.EstimateMessages(messages))
	if l.Compactor != nil {
		if used, counted := l.Compactor.Used(messages, last); counted {
			rep.Source = "provider"
			msgTokens = max(used-fixed, 0)
		}
	}
	rows = append(rows, ContextRow{Name: "messages", Tokens: msgTokens})
	rep.Used = fixed + msgTokens
	if l.Window > 0 {
		buffer := min(session.Reserve(l.Window), max(l.Window-rep.Used, 0))
		free := max(l.Window-rep.Used-buffer, 0)
		rows = append(rows, ContextRow{Name: "autocompact buffer", Tokens: buffer}, ContextRow{Name: "free space", Tokens: free})
	}
	denom := max(l.Window, rep.Used, 1)
	for i := range rows {
		rows[i].Percent = math.Round(1000*float64(rows[i].Tokens)/float64(denom)) / 10
	}
	rep.Rows = rows
	// Lists are [] in JSON, never null.
	if rep.Files == nil {
		rep.Files = []contextfiles.File{}
	}
	if rep.Skills == nil {
		rep.Skills = []contextfiles.Skill{}
	}
	if rep.Deferred == nil {
		rep.Deferred = []string{}
	}
	return rep
}

// Write prints the report as a table.
func (r ContextReport) Write(w io.Writer) {
	window := "unknown window (set providers.<name>.contextWindow in settings)"
	if r.Window > 0 {
		window = fmt.Sprintf("%s of %s tokens (%.0f%%)", thousands(r.Used), thousands(r.Window), 100*float64(r.Used)/float64(r.Window))
	}
	fmt.Fprintf(w, "Context · %s · %s · counts: %s, calibration %.2f\n", r.Model, window, r.Source, r.Calibration)
	for _, row := range r.Rows {
		fmt.Fprintf(w, "  %-20s %9s %6.1f%%\n", row.Name, thousands(row.Tokens), row.Percent)
	}
	if r.Threshold > 0 {
		fmt.Fprintf(w, "Auto-compaction at %s tokens.\n", thousands(r.Threshold))
	}
	for _, f := range r.Files {
		trunc := ""
		if f.Truncated {
			trunc = ", cut at the size cap"
		}
		fmt.Fprintf(w, "  context file %s (%s, %s bytes%s)\n", f.Path, f.Scope, thousands(f.Bytes), trunc)
	}
	if len(r.Skills) > 0 {
		names := make([]string, len(r.Skills))
		for i, s := range r.Skills {
			names[i] = s.Name
		}
		fmt.Fprintf(w, "  skills: %s\n", strings.Join(names, ", "))
	}
	if len(r.Deferred) > 0 {
		fmt.Fprintf(w, "  deferred tools: %s\n", strings.Join(r.Deferred, ", "))
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Price is a model's price in USD per million tokens.
type Price struct {
	Input, Output, CacheRead, CacheWrite float64
}

// prices of known models, by model name prefix (the provider's list
// prices at the time of writing; cache writes at the 5-minute rate).
var prices = []struct {
	prefix string
	price  Price
}{
	{"anthropic:claude-opus-4-5", Price{5, 25, 0.5, 6.25}},
	{"anthropic:claude-opus-4", Price{15, 75, 1.5, 18.75}},
	{"anthropic:claude-sonnet-4", Price{3, 15, 0.3, 3.75}},
	{"anthropic:claude-3-7-sonnet", Price{3, 15, 0.3, 3.75}},
	{"anthropic:claude-haiku-4-5", Price{1, 5, 0.1, 1.25}},
	{"anthropic:claude-3-5-haiku", Price{0.8, 4, 0.08, 1}},
	{"openai:gpt-4o-mini", Price{0.15, 0.6, 0.075, 0}},
	{"openai:gpt-4o", Price{2.5, 10, 1.25, 0}},
	{"openai:gpt-4.1-nano", Price{0.1, 0.4, 0.025, 0}},
	{"openai:gpt-4.1-mini", Price{0.4, 1.6, 0.1, 0}},
	{"openai:gpt-4.1", Price{2, 8, 0.5, 0}},
	{"openai:gpt-5-nano", Price{0.05, 0.4, 0.005, 0}},
	{"openai:gpt-5-mini", Price{0.25, 2, 0.025, 0}},
	{"openai:gpt-5", Price{1.25, 10, 0.125, 0}},
	{"ollama:", Price{}}, // local: free
}

// PriceOf returns the price of model ("PROVIDER:MODEL"), by the longest
// known prefix.
func PriceOf(model string) (Price, bool) {
	best := -1
	for i, p := range prices {
		if strings.HasPrefix(model, p.prefix) && (best < 0 || len(p.prefix) > len(prices[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return Price{}, false
	}
	return prices[best].price, true
}

// CostUSD is what u cost on model, when its price is known.
func CostUSD(model string, u provider.Usage) (float64, bool) {
	p, ok := PriceOf(model)
	if !ok {
		return 0, false
	}
	return (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadTokens)*p.CacheRead + float64(u.CacheWriteTokens)*p.CacheWrite) / 1e6, true
}

// UsageReport is /usage.
type UsageReport struct {
	Model string         `json:"model"`
	Usage provider.Usage `json:"usage"`
	// CacheShare is the share of input tokens read from the cache.
	CacheShare float64 `json:"cache_share"`
	CostUSD    float64 `json:"total_cost_usd"`
	CostKnown  bool    `json:"cost_known"`
}

// Usage reports total, the session's calls on model (the agent counts
// compaction's summary calls in it).
func (l *ContextLayer) Usage(total provider.Usage) UsageReport {
	r := UsageReport{Model: l.Model, Usage: total}
	if in := total.InputTokens + total.CacheReadTokens + total.CacheWriteTokens; in > 0 {
		r.CacheShare = float64(total.CacheReadTokens) / float64(in)
	}
	r.CostUSD, r.CostKnown = CostUSD(l.Model, total)
	return r
}

// Write prints the usage report.
func (r UsageReport) Write(w io.Writer) {
	u := r.Usage
	in := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens
	fmt.Fprintf(w, "Usage · %s\n  input   %s tokens (%s read from cache: %.0f%%, %s written to it, %s uncached)\n  output  %s tokens\n",
		r.Model, thousands(in), thousands(u.CacheReadTokens), 100*r.CacheShare, thousands(u.CacheWriteTokens), thousands(u.InputTokens), thousands(u.OutputTokens))
	if r.CostKnown {
		fmt.Fprintf(w, "  cost    $%.4f\n", r.CostUSD)
	} else {
		fmt.Fprintf(w, "  cost    unknown (no price for %s)\n", r.Model)
	}
}

// knownWindows are context windows by model prefix, for models whose
// provider does not say.
var knownWindows = []struct {
	prefix string
	window int
}{
	{"anthropic:", 200_000},
	{"openai:gpt-4.1", 1_047_576},
	{"openai:gpt-5", 400_000},
	{"openai:gpt-4o", 128_000},
}

// ContextWindow is the window of model: the settings' providers.<kind>.contextWindow,
// else what an Ollama server reports for it, else a known model's, else 0 (unknown).
func ContextWindow(ctx context.Context, model string, settings config.Settings, p provider.Provider) int {
	kind, _, _ := strings.Cut(model, ":")
	if ps, ok := settings.Providers[kind]; ok && ps.ContextWindow > 0 {
		return ps.ContextWindow
	}
	if nc, ok := p.(interface {
		NumCtx(context.Context) (int, error)
	}); ok {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		if n, err := nc.NumCtx(ctx); err == nil && n > 0 {
			return n
		}
	}
	for _, k := range knownWindows {
		if strings.HasPrefix(model, k.prefix) {
			return k.window
		}
	}
	return 0
}

// AttachContext builds the context layer of an opened agent session and
// installs it: tools, system prompt, compactor. Warnings go to o.Warnf.
func AttachContext(ctx context.Context, s *AgentSession, o AgentOptions) (*ContextLayer, error) {
	disallowed := map[string]bool{}
	for _, r := range splitToolList(o.DisallowedTools) {
		if !strings.Contains(r, "(") {
			disallowed[r] = true
		}
	}
	l, err := NewContextLayer(ContextOptions{
		Root: s.Root, Cwd: s.Cwd, ConfigOpts: o.ConfigOpts, AppendSystemPrompt: o.AppendSystemPrompt,
		Model: s.Model, Window: ContextWindow(ctx, s.Model, s.Settings, s.Agent.Provider()),
		Untrusted: !s.Trusted,
	})
	if err != nil {
		return nil, err
	}
	l.MCP = s.MCP
	l.Install(s.Agent.Tools(), disallowed)
	l.Attach(s.Agent)
	if o.Warnf != nil {
		for _, w := range l.Warnings() {
			o.Warnf("%s", w)
		}
	}
	return l, nil
}

// ContextFor is `grit context`: the context layer of a new session in the
// workspace (with a saved session's conversation when o.Resume or
// o.Continue names one), without starting a model.
func ContextFor(ctx context.Context, o AgentOptions) (ContextReport, error) {
	root, err := workspaceRoot(o.Root)
	if err != nil {
		return ContextReport{}, err
	}
	// What a session would load: an untrusted repository's own settings and
	// skills are left out, as AgentSession leaves them out.
	settings, src, status, err := LoadSettings(root, o.ConfigOpts, o.TrustPath)
	if err != nil {
		return ContextReport{}, err
	}
	model := o.Model
	if model == "" {
		model = settings.Model
	}
	if model == "" {
		model = config.DefaultModel
	}
	env, err := tool.NewEnv(root, nil)
	if err != nil {
		return ContextReport{}, err
	}
	s := &AgentSession{Settings: settings, Model: model, Root: env.Root}
	env.Index = s.index // opened only if a tool ran; listing the tools does not
	defer s.Close()
	reg := tool.Default(env)
	types, _ := subagentTypes(env.Root, o.ConfigOpts, status.Honoured())
	reg.Add(&agent.Task{Types: types})
	if m, _ := mcpServers(ctx, env.Root, src, status.Honoured(), "", reg, nil); m != nil {
		defer m.Close()
	}
	var p provider.Provider
	if kind, _, _ := strings.Cut(model, ":"); kind == "ollama" {
		p, _ = s.newProvider(model) // for the window Ollama reports; no model call
	}
	l, err := NewContextLayer(ContextOptions{Root: env.Root, Cwd: launchDir(env.Root), ConfigOpts: o.ConfigOpts, AppendSystemPrompt: o.AppendSystemPrompt,
		Model: model, Window: ContextWindow(ctx, model, settings, p), Untrusted: !status.Honoured()})
	if err != nil {
		return ContextReport{}, err
	}
	l.Install(reg, nil)
	var msgs []provider.Message
	var last provider.Usage
	if o.Resume != "" || o.Continue {
		st, err := session.NewStore(o.DataHome, env.Root)
		if err != nil {
			return ContextReport{}, err
		}
		id := o.Resume
		if id == "" {
			if id, err = st.Latest(); err != nil {
				return ContextReport{}, err
			}
		}
		tr, err := st.Read(id)
		if err != nil {
			return ContextReport{}, err
		}
		msgs = tr.Messages()
		// The last usage counts the last request only if no compaction came after it.
		for _, r := range tr.Records {
			switch {
			case r.Type == session.TypeUsage && r.Usage != nil:
				last = *r.Usage
			case r.Type == session.TypeCompact:
				last = provider.Usage{}
			}
		}
		if last != (provider.Usage{}) {
			// The count covers every message but the final reply.
			l.Compactor = &session.Compactor{Window: l.Window}
			l.Compactor.Observe(max(len(msgs)-1, 0), last)
		}
	}
	return l.Report(msgs, last), nil
}

// SkillList is /skills: the session's skills, sorted by name.
func (l *ContextLayer) SkillList() []contextfiles.Skill {
	out := append([]contextfiles.Skill(nil), l.Skills.List...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// InitReport is what `grit init` found, and the AGENTS.md it writes.
type InitReport struct {
	Path        string       `json:"path"`
	Files       int          `json:"files"`
	Languages   []LangCount  `json:"languages"`
	Dirs        []DirSummary `json:"dirs"`
	Test        string       `json:"test_command,omitempty"`
	Build       string       `json:"build_command,omitempty"`
	EntryPoints []string     `json:"entry_points"`
	Text        string       `json:"text"`
	Written     bool         `json:"written"`
	Stats       index.Stats  `json:"index"`
}

// LangCount is a language and its file count.
type LangCount struct {
	Lang  string `json:"lang"`
	Files int    `json:"files"`
}

// DirSummary is one top-level directory: its files and languages.
type DirSummary struct {
	Dir       string   `json:"dir"`
	Files     int      `json:"files"`
	Languages []string `json:"languages"`
}

// ErrExists means grit init would overwrite a file.
var ErrExists = errors.New("file exists")

// InitAgentsMD indexes root and writes a starting AGENTS.md from what the
// index knows: layout, languages, the test and build commands and the entry
// points. An existing AGENTS.md is kept unless force (ErrExists); with
// dryRun nothing is written.
func InitAgentsMD(ctx context.Context, root string, force, dryRun bool) (InitReport, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return InitReport{}, err
	}
	rep := InitReport{Path: filepath.Join(abs, "AGENTS.md")}
	if _, err := os.Stat(rep.Path); err == nil && !force && !dryRun {
		return rep, fmt.Errorf("%s: %w (pass --force to replace it)", rep.Path, ErrExists)
	}
	ix, st, err := UpdateIndex(ctx, abs, index.Options{})
	if err != nil {
		return rep, fmt.Errorf("index %s: %w", abs, err)
	}
	defer ix.Close()
	rep.Stats = st
	files, err := ix.Files(ctx)
	if err != nil {
		return rep, err
	}
	rep.Files = len(files)
	langs := map[string]int{}
	dirs := map[string]*DirSummary{}
	dirLangs := map[string]map[string]bool{}
	for _, f := range files {
		langs[f.Lang]++
		top := "."
		if i := strings.IndexByte(f.Path, '/'); i > 0 {
			top = f.Path[:i]
		}
		d := dirs[top]
		if d == nil {
			d = &DirSummary{Dir: top}
			dirs[top], dirLangs[top] = d, map[string]bool{}
		}
		d.Files++
		dirLangs[top][f.Lang] = true
	}
	for l, n := range langs {
		rep.Languages = append(rep.Languages, LangCount{l, n})
	}
	sort.Slice(rep.Languages, func(i, j int) bool {
		a, b := rep.Languages[i], rep.Languages[j]
		return a.Files > b.Files || a.Files == b.Files && a.Lang < b.Lang
	})
	for name, d := range dirs {
		d.Languages = sortedSet(dirLangs[name])
		rep.Dirs = append(rep.Dirs, *d)
	}
	sort.Slice(rep.Dirs, func(i, j int) bool { return rep.Dirs[i].Dir < rep.Dirs[j].Dir })
	rep.Test = fix.DetectTest(abs)
	rep.Build = detectBuild(abs)
	rep.EntryPoints = entryPoints(ctx, ix, files)
	rep.Text = renderAgentsMD(filepath.Base(abs), rep)
	if dryRun {
		return rep, nil
	}
	if err := edit.WriteFileAtomic(rep.Path, []byte(rep.Text), 0o644); err != nil {
		return rep, fmt.Errorf("write %s: %w", rep.Path, err)
	}
	rep.Written = true
	return rep, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// detectBuild guesses the build command by marker files; "" if none.
func detectBuild(root string) string {
	has := func(name string) bool { _, err := os.Stat(filepath.Join(root, name)); return err == nil }
	switch {
	case has("go.mod"):
		return "go build ./..."
	case has("Cargo.toml"):
		return "cargo build"
	case has("package.json"):
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if b, err := os.ReadFile(filepath.Join(root, "package.json")); err == nil && json.Unmarshal(b, &pkg) == nil && pkg.Scripts["build"] != "" {
			return "npm run build"
		}
		return "npm install"
	case has("Makefile"):
		return "make"
	case has("pyproject.toml"), has("setup.py"):
		return "python3 -m pip install -e ."
	}
	return ""
}

// entryPoints lists the program entry points the index and the layout
// show: Go and Rust main functions, Python __main__.py and main scripts.
func entryPoints(ctx context.Context, ix *index.Index, files []index.File) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if defs, err := ix.Lookup(ctx, "main"); err == nil {
		for _, d := range defs {
			if d.Kind == index.KindFunction && d.Parent == "" && (d.Lang == "go" || d.Lang == "rust" || d.Lang == "c" || d.Lang == "cpp") {
				add(d.Path)
			}
		}
	}
	for _, f := range files {
		switch path.Base(f.Path) {
		case "__main__.py", "manage.py":
			add(f.Path)
		case "main.py", "app.py", "cli.py":
			if !strings.Contains(f.Path, "/") {
				add(f.Path)
			}
		}
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// maxInitDirs bounds the layout section of a generated AGENTS.md.
const maxInitDirs = 25

func renderAgentsMD(name string, r InitReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# AGENTS.md — %s\n\nInstructions for coding agents working in this repository (written by `grit init` from the index; edit freely).\n\n", name)
	b.WriteString("## Commands\n\n")
	if r.Test != "" {
		fmt.Fprintf(&b, "- Test: `%s` — run it after every change and before finishing.\n", r.Test)
	} else {
		b.WriteString("- Test: no test command detected; write the one to use here.\n")
	}
	if r.Build != "" {
		fmt.Fprintf(&b, "- Build: `%s`\n", r.Build)
	}
	b.WriteString("\n## Languages\n\n")
	for _, l := range r.Languages {
		fmt.Fprintf(&b, "- %s: %d files\n", l.Lang, l.Files)
	}
	b.WriteString("\n## Layout\n\n")
	for i, d := range r.Dirs {
		if i == maxInitDirs {
			fmt.Fprintf(&b, "- ... %d more directories\n", len(r.Dirs)-maxInitDirs)
			break
		}
		dir := d.Dir + "/"
		if d.Dir == "." {
			dir = "(root)"
		}
		fmt.Fprintf(&b, "- `%s` — %d files (%s)\n", dir, d.Files, strings.Join(d.Languages, ", "))
	}
	if len(r.EntryPoints) > 0 {
		b.WriteString("\n## Entry points\n\n")
		for _, e := range r.EntryPoints {
			fmt.Fprintf(&b, "- `%s`\n", e)
		}
	}
	b.WriteString("\n## Conventions\n\n- Follow the existing style of the file you edit; keep changes small.\n- Read a file before editing it; run the tests after.\n")
	return b.String()
}
