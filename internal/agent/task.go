package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// SubagentType is one kind of subagent the Task tool can start.
type SubagentType struct {
	Name        string
	Description string
	// Tools names the parent's tools the subagent gets; nil means all of
	// them but Task (a subagent does not start subagents).
	Tools []string
	// Model is a PROVIDER:MODEL spec; "" or "inherit" is the parent's model.
	Model string
	// Prompt is added to the parent's system prompt.
	Prompt string
}

//go:embed prompts/explore.md
var explorePrompt string

//go:embed prompts/general.md
var generalPrompt string

// BuiltinSubagents are general-purpose and Explore (read-only, Locate first).
func BuiltinSubagents() []SubagentType {
	return []SubagentType{
		{Name: "general-purpose", Description: "Researches a question, searches code and carries out a multi-step task with the parent's tools.", Prompt: generalPrompt},
		{Name: "Explore", Description: "Fast read-only exploration: finds files and code (Locate, Grep, Glob, Read) and answers questions about the codebase.",
			Tools: []string{"Locate", "Grep", "Glob", "Read"}, Prompt: explorePrompt},
	}
}

//go:embed task.md
var taskMD string

// Task runs a subagent: a sub-loop with its own conversation (its own
// context window) over the parent's workspace, permission gate, asker and
// sandbox, whose final answer alone is the tool result. Its transcript is
// kept beside the parent's session (<session>/subagents/<id>.jsonl) and its
// usage is added to the parent's. Parent is set once the parent Agent
// exists; a Task without one only describes itself (grit context).
type Task struct {
	Parent *Agent
	Types  []SubagentType
	// NewProvider builds the provider of a type with its own model.
	NewProvider func(spec string) (provider.Provider, error)

	mu sync.Mutex // guards runs
	// runs numbers the subagents of the session, for their transcripts.
	runs int
}

func (t *Task) Name() string { return "Task" }
func (t *Task) Description() string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(taskMD))
	b.WriteString("\nTypes:")
	for _, ty := range t.Types {
		fmt.Fprintf(&b, "\n- %s: %s", ty.Name, ty.Description)
	}
	return b.String()
}
func (t *Task) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"description":{"type":"string","description":"The task in 3-5 words"},` +
		`"prompt":{"type":"string","description":"The whole task for the subagent"},` +
		`"subagent_type":{"type":"string","description":"Which type of subagent"}},` +
		`"required":["description","prompt","subagent_type"]}`)
}

type taskInput struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

func (t *Task) typeNames() string {
	names := make([]string, len(t.Types))
	for i, ty := range t.Types {
		names[i] = ty.Name
	}
	return strings.Join(names, ", ")
}

func (t *Task) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	var in taskInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tool.Errorf("Task: invalid input: %v. Send {description, prompt, subagent_type}.", err), nil
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return tool.Errorf("Task needs a prompt: the whole task for the subagent."), nil
	}
	if t.Parent == nil {
		return tool.Result{}, fmt.Errorf("task: no parent agent")
	}
	var ty *SubagentType
	for i := range t.Types {
		if t.Types[i].Name == in.SubagentType {
			ty = &t.Types[i]
		}
	}
	if ty == nil {
		return tool.Errorf("Task: no subagent type %q (expected one of: %s).", in.SubagentType, t.typeNames()), nil
	}
	p := t.Parent.Provider()
	if ty.Model != "" && ty.Model != "inherit" {
		if t.NewProvider == nil {
			return tool.Result{}, fmt.Errorf("task: subagent %s names model %s but no provider factory is set", ty.Name, ty.Model)
		}
		var err error
		if p, err = t.NewProvider(ty.Model); err != nil {
			return tool.Errorf("Task: subagent %s: %v", ty.Name, err), nil
		}
	}
	reg, missing := t.registry(ty)
	if len(missing) > 0 {
		return tool.Errorf("Task: subagent %s names tools this session does not have: %s.", ty.Name, strings.Join(missing, ", ")), nil
	}
	sess, err := t.transcript(p.Name())
	if err != nil {
		return tool.Result{}, err
	}
	if sess != nil {
		defer sess.Close()
	}
	po := t.Parent.opts
	sub, err := New(Options{
		Provider: p, Tools: reg, Env: env, Gate: po.Gate, Asker: po.Asker, Session: sess,
		System:   t.Parent.System() + "\n\n" + strings.TrimSpace(ty.Prompt),
		MaxTurns: po.MaxTurns, MaxTokens: po.MaxTokens,
		OnEvent: func(e Event) {
			if e.Kind == KindToolUse {
				t.Parent.emit(Event{Kind: KindNotice, Text: fmt.Sprintf("Task(%s) ⏺ %s", in.Description, e.ToolName)})
			}
		},
	})
	if err != nil {
		return tool.Result{}, err
	}
	res, runErr := sub.Run(ctx, in.Prompt)
	total, _ := sub.Usage()
	t.Parent.addUsage(p.Name(), total)
	if runErr != nil {
		if ctx.Err() != nil {
			return tool.Result{}, runErr
		}
		return tool.Errorf("The %s subagent failed: %v", ty.Name, runErr), nil
	}
	text := strings.TrimSpace(res.Text)
	if text == "" {
		text = "(the subagent ended without a reply)"
	}
	return tool.Result{Content: text, IsError: res.IsError}, nil
}

// registry is the subagent's tool set: the type's tools (all the parent's
// but Task when none are named), deferred as in the parent, with a
// ToolSearch of its own. missing lists named tools the parent lacks.
func (t *Task) registry(ty *SubagentType) (*tool.Registry, []string) {
	parent := t.Parent.Tools()
	reg := tool.NewRegistry()
	var missing []string
	add := func(name string) {
		tl, ok := parent.Get(name)
		if !ok {
			missing = append(missing, name)
			return
		}
		reg.Add(tl)
		if !parent.Loaded(name) {
			reg.SetDeferred(name) // just added: no error
		}
	}
	if ty.Tools == nil {
		for _, n := range parent.Names() {
			if n != "Task" && n != "ToolSearch" {
				add(n)
			}
		}
	} else {
		for _, n := range ty.Tools {
			add(n)
		}
	}
	if len(reg.Deferred()) > 0 {
		reg.Add(tool.ToolSearch{Registry: reg})
	}
	return reg, missing
}

// transcript creates the subagent's session file beside the parent's, or
// nil when the parent records nothing.
func (t *Task) transcript(model string) (*session.Session, error) {
	ps := t.Parent.opts.Session
	if ps == nil {
		return nil, nil
	}
	st := &session.Store{Dir: filepath.Join(strings.TrimSuffix(ps.Path, ".jsonl"), "subagents")}
	s, err := st.Create(session.Meta{Model: model})
	if err != nil {
		return nil, fmt.Errorf("task: %w", err)
	}
	return s, nil
}

// addUsage counts a subagent's tokens in the conversation's total and in
// the running turn's result, and records them in the session so a resume
// and the cost see them. The last call's usage (the window meter) is the
// parent's own.
func (a *Agent) addUsage(model string, u provider.Usage) {
	if u == (provider.Usage{}) {
		return
	}
	a.mu.Lock()
	a.usage.Add(u)
	a.pendingUsage.Add(u)
	a.mu.Unlock()
	if a.opts.Session != nil {
		a.opts.Session.AppendUsage(model, u) // best effort: the turn goes on
	}
}

// takePendingUsage returns and clears the subagents' usage not yet added
// to the running turn's result.
func (a *Agent) takePendingUsage() provider.Usage {
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.pendingUsage
	a.pendingUsage = provider.Usage{}
	return u
}
