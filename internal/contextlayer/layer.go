// Package contextlayer is what a session's model is told besides the
// conversation: the context files, memory and skills in the system prompt
// (Layer), the context and usage reports (/context, /usage), each model's
// window, and the starting AGENTS.md that `grit init` writes. It sits beside
// contextfiles (which reads the files) and agent (whose tools and prompt it
// fills); the composition root (app) builds it.
package contextlayer

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextfiles"
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

// Layer is a session's context layer: the context files, memory and
// skills in the system prompt (in a fixed order, so the prompt prefix stays
// stable and provider caches hit), the Skill, ToolSearch and Memory tools,
// nested context files on Read, and compaction. Build it with New
// and Install it on an agent.
type Layer struct {
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

// Options configure New.
type Options struct {
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

// New loads the context files, memory and skills of a session.
func New(o Options) (*Layer, error) {
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
	l := &Layer{Files: files, Memories: mems, Skills: skills, Window: o.Window, Model: o.Model,
		root: o.Root, appendPrompt: o.AppendSystemPrompt, promptEnv: agent.DetectPromptEnv(cmp.Or(o.Cwd, o.Root))}
	l.memoryText, l.warnings = contextfiles.RenderMemory(mems)
	// The repository's own commands, like its skills, only when trusted.
	if l.Commands, err = contextfiles.FindCommands(fo, !o.Untrusted); err != nil {
		return nil, err
	}
	l.warnings = append(l.warnings, l.Commands.Warnings...)
	return l, nil
}

// Warnings are the context layer's problems for the user to see: cut
// files, refused imports, broken skills, cut memory.
func (l *Layer) Warnings() []string {
	out := append(l.Files.Warnings(), l.Skills.Warnings...)
	return append(out, l.warnings...)
}

// Install adds the context layer's tools to reg (Skill when there are
// skills, Memory deferred, ToolSearch when a tool is deferred), wraps Read
// so that a subdirectory's context files come with the first read under it,
// and defers every tool outside CoreTools. Tools named in disallowed are
// left out.
func (l *Layer) Install(reg *tool.Registry, disallowed map[string]bool) {
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
func (l *Layer) Attach(a *agent.Agent) {
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
func (l *Layer) SetModel(model string, window int) {
	l.Model, l.Window = model, window
	if l.Compactor != nil {
		l.Compactor.Window = window
	}
}

// Sections returns the layer's system prompt sections in prompt order.
func (l *Layer) Sections() (files, memory, skills, deferred string) {
	if len(l.deferred) > 0 {
		deferred = "# Deferred tools\n\nThese tools exist but their schemas are not loaded; call ToolSearch (select:Name, or keywords) to load one before using it: " + strings.Join(l.deferred, ", ") + "."
	}
	return l.Files.Render(), l.memoryText, l.Skills.Render(), deferred
}

// SystemPrompt is the whole system prompt: the base prompt, then context
// files, memory, skills and deferred tools, then --append-system-prompt.
func (l *Layer) SystemPrompt() string {
	f, m, s, d := l.Sections()
	return agent.SystemPrompt(l.promptEnv, f, m, s, d, l.appendPrompt)
}

// Reload re-reads context files, memory and skills from disk (after a
// compaction or /clear) and gives the agent the new system prompt.
func (l *Layer) Reload() {
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
func (l *Layer) Cleared() {
	if l.Compactor != nil {
		l.Compactor.Reset()
	}
	l.Reload()
}

// AddMemory adds a note to the project's memory (a "#" line).
func (l *Layer) AddMemory(note string) (string, error) {
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

// Report is /context and `grit context --json`.
type Report struct {
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
func (l *Layer) Report(messages []provider.Message, last provider.Usage) Report {
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
	rep := Report{Model: l.Model, Window: l.Window, Threshold: session.Threshold(l.Window), Source: "estimate", Calibration: scale,
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
func (r Report) Write(w io.Writer) {
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
func (l *Layer) Usage(total provider.Usage) UsageReport {
	r := UsageReport{Model: l.Model, Usage: total}
	if in := total.InputTokens + total.CacheReadTokens + total.CacheWriteTokens; in > 0 {
		r.CacheShare = float64(total.CacheReadTokens) / float64(in)
	}
	r.CostUSD, r.CostKnown = provider.CostUSD(l.Model, total)
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

// WindowOf is the window of model: the settings' providers.<kind>.contextWindow,
// else what an Ollama server reports for it, else a known model's, else 0 (unknown).
func WindowOf(ctx context.Context, model string, settings config.Settings, p provider.Provider) int {
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

// SkillList is /skills: the session's skills, sorted by name.
func (l *Layer) SkillList() []contextfiles.Skill {
	out := append([]contextfiles.Skill(nil), l.Skills.List...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ReportFor is Report for a saved session's transcript (nil for a new
// session): its conversation, and the usage of its last request unless a
// compaction came after it.
func (l *Layer) ReportFor(tr *session.Transcript) Report {
	if tr == nil {
		return l.Report(nil, provider.Usage{})
	}
	msgs := tr.Messages()
	var last provider.Usage
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
	return l.Report(msgs, last)
}
