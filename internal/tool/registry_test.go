package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grit-dev/grit/internal/index"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func fullEnv() *Env {
	return &Env{Root: "/", Index: func(context.Context) (*index.Index, error) { return nil, errors.New("no index in this test") }}
}

// TestSpecsGolden pins the rendered descriptions and schemas the model sees.
func TestSpecsGolden(t *testing.T) {
	var b bytes.Buffer
	for _, s := range Default(fullEnv()).Specs() {
		var schema bytes.Buffer
		if err := json.Indent(&schema, s.InputSchema, "", "  "); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", s.Name, err)
		}
		b.WriteString("=== " + s.Name + "\n" + s.Description + "\n--- schema\n" + schema.String() + "\n\n")
	}
	golden := filepath.Join("testdata", "specs.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("rendered specs differ from %s (-want +got; go test -update to accept):\n%s", golden, diff)
	}
}

// TestSpecsTokenBudget: every tool's description and schema together stay
// small enough for a local model's window (the whole prompt < 3,000 tokens).
func TestSpecsTokenBudget(t *testing.T) {
	const budget = 2200
	total := 0
	for _, s := range Default(fullEnv()).Specs() {
		n := (len(s.Name) + len(s.Description) + len(s.InputSchema) + 3) / 4
		t.Logf("%-13s ~%4d tokens (%d chars description, %d chars schema)", s.Name, n, len(s.Description), len(s.InputSchema))
		total += n
	}
	t.Logf("all tools    ~%4d tokens (budget %d)", total, budget)
	if total > budget {
		t.Errorf("tool descriptions and schemas take ~%d tokens, over the budget of %d", total, budget)
	}
}

func TestSchemas(t *testing.T) {
	want := map[string][]string{
		"Bash":         {"command", "timeout", "description", "run_in_background"},
		"Read":         {"file_path", "offset", "limit"},
		"Edit":         {"file_path", "old_string", "new_string", "replace_all"},
		"Write":        {"file_path", "content"},
		"Grep":         {"pattern", "path", "glob", "type", "output_mode", "-i", "-n", "-A", "-B", "-C", "head_limit", "multiline"},
		"Glob":         {"pattern", "path"},
		"Locate":       {"task", "traceback", "k", "budget"},
		"EditFunction": {"name", "new_source"},
		"TodoWrite":    {"todos"},
		"BashOutput":   {"bash_id", "filter"},
		"KillShell":    {"shell_id"},
		"WebFetch":     {"url", "prompt"},
	}
	reg := Default(fullEnv())
	if got := strings.Join(reg.Names(), " "); got != "Bash Read Edit Write Grep Glob Locate EditFunction TodoWrite BashOutput KillShell WebFetch" {
		t.Errorf("Default names = %s", got)
	}
	for _, tl := range reg.All() {
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tl.Schema(), &s); err != nil {
			t.Fatalf("%s schema: %v", tl.Name(), err)
		}
		var got []string
		for k := range s.Properties {
			got = append(got, k)
		}
		if diff := cmp.Diff(want[tl.Name()], got, sortStrings); s.Type != "object" || diff != "" {
			t.Errorf("%s schema properties (-want +got):\n%s", tl.Name(), diff)
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s requires %q, which is not a property", tl.Name(), r)
			}
		}
	}
	kinds := map[string]Kind{"Bash": KindExecute, "Edit": KindEdit, "Write": KindEdit, "EditFunction": KindEdit, "Read": KindRead, "Grep": KindRead, "Glob": KindRead, "Locate": KindRead}
	for name, k := range kinds {
		tl, _ := reg.Get(name)
		if KindOf(tl) != k {
			t.Errorf("KindOf(%s) = %v, want %v", name, KindOf(tl), k)
		}
	}
	if n := len(Default(&Env{}).Specs()); n != 10 {
		t.Errorf("Default without an index has %d tools, want 10 (no Locate, EditFunction)", n)
	}
}

var sortStrings = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestRegistryDeferred(t *testing.T) {
	r := NewRegistry(Read{}, Grep{}, Glob{})
	if err := r.SetDeferred("Grep"); err != nil {
		t.Fatal(err)
	}
	if err := r.SetDeferred("Nope"); err == nil || !strings.Contains(err.Error(), "Read, Grep, Glob") {
		t.Errorf("SetDeferred(Nope) = %v, want an error naming the tools", err)
	}
	names := func() string {
		var n []string
		for _, s := range r.Specs() {
			n = append(n, s.Name)
		}
		return strings.Join(n, " ")
	}
	if got := names(); got != "Read Glob" {
		t.Errorf("Specs with Grep deferred = %s, want Read Glob", got)
	}
	if got := r.Deferred(); len(got) != 1 || got[0] != "Grep" {
		t.Errorf("Deferred() = %v, want [Grep]", got)
	}
	if r.Loaded("Grep") || !r.Loaded("Read") || r.Loaded("Nope") {
		t.Errorf("Loaded: Grep %v Read %v Nope %v, want false true false", r.Loaded("Grep"), r.Loaded("Read"), r.Loaded("Nope"))
	}
	if _, ok := r.Get("Grep"); !ok {
		t.Error("Get(Grep) of a deferred tool = false, want it callable")
	}
	if err := r.Load("Grep"); err != nil {
		t.Fatal(err)
	}
	// A loaded tool goes last: the tools sent before keep their places (a
	// provider's cached prefix stays valid).
	if got := names(); got != "Read Glob Grep" || !r.Loaded("Grep") || len(r.Deferred()) != 0 {
		t.Errorf("after Load: Specs %s, Deferred %v", got, r.Deferred())
	}
	if err := r.Load("Nope"); err == nil {
		t.Error("Load(Nope) = nil, want an error")
	}
	r.Add(Read{})
	if len(r.All()) != 3 {
		t.Errorf("re-adding Read: %d tools, want 3", len(r.All()))
	}
}

func TestInvalidInput(t *testing.T) {
	env, _ := testEnv(t, nil)
	for _, tl := range Default(fullEnv()).All() {
		res, err := tl.Run(t.Context(), env, json.RawMessage(`{"file_path": 3, "command": [], "pattern": {}, "task": 1, "name": 2, "todos": 1, "bash_id": 1, "shell_id": 1, "url": 1}`))
		if err != nil || !res.IsError || !strings.Contains(res.Content, "invalid input") {
			t.Errorf("%s(bad input) = %+v, %v; want an invalid-input result", tl.Name(), res, err)
		}
	}
}
