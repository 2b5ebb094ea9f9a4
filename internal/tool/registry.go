package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"text/template"
)

// Spec is a tool as the model sees it: the provider turns it into its wire
// format (the field names are the Anthropic Messages API's).
type Spec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// SpecOf returns t's Spec.
func SpecOf(t Tool) Spec {
	return Spec{Name: t.Name(), Description: t.Description(), InputSchema: t.Schema()}
}

// Registry holds the tools of a session by name, in registration order. A
// deferred tool is known by name only (Specs leaves it out, Deferred lists
// it) until Load brings its full Spec in: ToolSearch builds on this so that
// rarely used tools cost no prompt tokens. A Registry is safe for concurrent use.
type Registry struct {
	mu       sync.RWMutex
	order    []string
	tools    map[string]Tool
	deferred map[string]bool // name → still deferred (not loaded)
	loaded   []string        // deferred tools loaded since, in load order
}

// NewRegistry returns a registry of tools. A later tool with the name of an
// earlier one replaces it.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{tools: make(map[string]Tool), deferred: make(map[string]bool)}
	for _, t := range tools {
		r.Add(t)
	}
	return r
}

// Add registers t, replacing a tool of the same name.
func (r *Registry) Add(t Tool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[t.Name()]; !ok {
		r.order = append(r.order, t.Name())
	}
	r.tools[t.Name()] = t
}

// Get returns the tool called name, deferred or not.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

// All returns every tool, deferred ones included, in registration order.
func (r *Registry) All() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.tools[n])
	}
	return out
}

// Names returns every tool's name in registration order.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.order...)
}

// Specs returns the Specs to send to the model: every tool that was never
// deferred, in registration order, then the deferred tools loaded since, in
// the order they were loaded. Loading a tool appends it, so the tools sent
// before keep their place and a provider's cached prefix stays valid.
func (r *Registry) Specs() []Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Spec, 0, len(r.order))
	for _, n := range r.order {
		if _, wasDeferred := r.deferred[n]; !wasDeferred {
			out = append(out, SpecOf(r.tools[n]))
		}
	}
	for _, n := range r.loaded {
		out = append(out, SpecOf(r.tools[n]))
	}
	return out
}

// SetDeferred marks the tool called name as deferred: it stays callable
// through Get but its Spec is withheld until Load. Unknown names are an error.
func (r *Registry) SetDeferred(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[name]; !ok {
		return fmt.Errorf("defer tool %q: %w", name, r.unknown(name))
	}
	r.deferred[name] = true
	for i, n := range r.loaded {
		if n == name {
			r.loaded = append(r.loaded[:i:i], r.loaded[i+1:]...)
			break
		}
	}
	return nil
}

// Deferred returns the names of the tools still deferred, sorted: the
// prompt lists them so the model knows it can load them.
func (r *Registry) Deferred() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for n, d := range r.deferred {
		if d {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Loaded reports whether the tool called name is registered and its Spec
// is sent (it was never deferred, or has been loaded).
func (r *Registry) Loaded(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.tools[name]
	return ok && !r.deferred[name]
}

// Load brings a deferred tool's Spec into Specs. Loading a tool that is
// already loaded is a no-op; an unknown name is an error.
func (r *Registry) Load(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[name]; !ok {
		return fmt.Errorf("load tool %q: %w", name, r.unknown(name))
	}
	if r.deferred[name] {
		r.deferred[name] = false
		r.loaded = append(r.loaded, name)
	}
	return nil
}

func (r *Registry) unknown(name string) error {
	return fmt.Errorf("no such tool (expected one of: %s)", strings.Join(r.order, ", "))
}

// Default returns the tools for env: Bash, Read, Edit, Write, Grep, Glob,
// and, when env has an index, Locate and EditFunction; then TodoWrite,
// BashOutput, KillShell and WebFetch (without a summarizer: the agent's
// replaces it).
func Default(env *Env) *Registry {
	tools := []Tool{Bash{}, Read{}, Edit{}, Write{}, Grep{}, Glob{}}
	if env != nil && env.Index != nil {
		tools = append(tools, Locate{}, EditFunction{})
	}
	tools = append(tools, TodoWrite{}, BashOutput{}, KillShell{}, WebFetch{})
	return NewRegistry(tools...)
}

// docData are the numbers the tool descriptions quote, so the text the
// model reads cannot drift from the code.
var docData = struct {
	ReadLimit, LineCut                  int
	BashTimeout, BashMaxTimeout         int
	OutputCap, GlobCap, GrepDefaultHead int
	SearchDefault                       int
}{
	ReadLimit: readDefaultLimit, LineCut: readLineCut,
	BashTimeout: bashDefaultTimeoutMS, BashMaxTimeout: bashMaxTimeoutMS,
	OutputCap: bashMaxOutput, GlobCap: globCap, GrepDefaultHead: grepDefaultHead,
	SearchDefault: searchDefault,
}

// render executes a tool's embedded .md description as a template over
// docData, once, when the description is first asked for (not at start-up:
// every grit command would pay for it). A broken template is a bug in the
// binary; the golden test catches it.
func render(name, text string) func() string {
	return sync.OnceValue(func() string {
		t := template.Must(template.New(name).Option("missingkey=error").Parse(text))
		var b bytes.Buffer
		if err := t.Execute(&b, docData); err != nil {
			panic(fmt.Sprintf("tool description %s: %v", name, err))
		}
		return strings.TrimSpace(b.String())
	})
}

// decode unmarshals a tool's input; a malformed one is the model's to fix.
func decode(name string, input json.RawMessage, v any) error {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	if err := json.Unmarshal(input, v); err != nil {
		return fixf(nil, "%s: invalid input: %v. Send a JSON object matching the tool's schema.", name, err)
	}
	return nil
}
