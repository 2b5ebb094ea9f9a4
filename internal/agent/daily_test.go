package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/session"
	"github.com/grit-dev/grit/internal/tool"
)

// orderTool records when it ran.
type orderTool struct {
	name string
	log  *[]string
	mu   *sync.Mutex
}

func (o orderTool) Name() string            { return o.name }
func (o orderTool) Description() string     { return "test" }
func (o orderTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (o orderTool) Kind() tool.Kind         { return tool.KindEdit }
func (o orderTool) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	o.mu.Lock()
	*o.log = append(*o.log, o.name+" "+canonical(input))
	o.mu.Unlock()
	return tool.Result{Content: o.name + " done"}, nil
}

// TestReadOnlyCallsRunInParallel: three Read/Grep calls of one reply are
// inside their tools at the same time; the Write after them runs after all
// three, and results keep the reply's order.
func TestReadOnlyCallsRunInParallel(t *testing.T) {
	var log []string
	var mu sync.Mutex
	// Read and Grep share one barrier: it opens once all three calls wait
	// in it, which only happens when they run at the same time.
	shared := &sharedBarrier{want: 3, release: make(chan struct{})}
	reg := tool.NewRegistry(shared.tool("Read", &log, &mu), shared.tool("Grep", &log, &mu), orderTool{name: "Write", log: &log, mu: &mu})
	p := script(t,
		turn("tool_use", call("r1", "Read", map[string]int{"n": 1}), call("g1", "Grep", map[string]int{"n": 2}), call("r2", "Read", map[string]int{"n": 3}), call("w1", "Write", map[string]int{"n": 4})),
		turn("end_turn", text("done")),
	)
	a, _ := newAgent(t, p, Options{Tools: reg})
	if _, err := a.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if len(log) != 4 || log[3] != `Write {"n":4}` {
		t.Fatalf("run order = %q, want the three reads (any order) then Write", log)
	}
	res := lastUserBlocks(p.Requests()[1])
	var ids []string
	for _, b := range res {
		ids = append(ids, b.ToolUseID)
		if b.IsError {
			t.Errorf("result %s is an error: %s (the reads did not run together)", b.ToolUseID, b.Content)
		}
	}
	if strings.Join(ids, ",") != "r1,g1,r2,w1" {
		t.Errorf("result order = %v, want r1,g1,r2,w1", ids)
	}
}

// sharedBarrier releases its tools' calls once want of them are waiting.
type sharedBarrier struct {
	want    int
	mu      sync.Mutex
	inside  int
	release chan struct{}
}

type sharedTool struct {
	name string
	b    *sharedBarrier
	log  *[]string
	mu   *sync.Mutex
}

func (s *sharedBarrier) tool(name string, log *[]string, mu *sync.Mutex) sharedTool {
	return sharedTool{name: name, b: s, log: log, mu: mu}
}
func (s sharedTool) Name() string            { return s.name }
func (s sharedTool) Description() string     { return "test" }
func (s sharedTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (s sharedTool) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	s.b.mu.Lock()
	s.b.inside++
	if s.b.inside == s.b.want {
		close(s.b.release)
	}
	s.b.mu.Unlock()
	select {
	case <-s.b.release:
	case <-time.After(10 * time.Second): // deadlock guard, not a timing assertion
		return tool.Result{Content: "ran alone", IsError: true}, nil
	}
	s.mu.Lock()
	*s.log = append(*s.log, s.name+" "+canonical(input))
	s.mu.Unlock()
	return tool.Result{Content: s.name + " ok"}, nil
}

// TestWritesStaySequential: two Write calls around a Read run strictly in
// the reply's order.
func TestWritesStaySequential(t *testing.T) {
	var log []string
	var mu sync.Mutex
	reg := tool.NewRegistry(orderTool{name: "Write", log: &log, mu: &mu}, orderTool{name: "Edit", log: &log, mu: &mu})
	p := script(t,
		turn("tool_use", call("a", "Write", map[string]int{"n": 1}), call("b", "Edit", map[string]int{"n": 2}), call("c", "Write", map[string]int{"n": 3})),
		turn("end_turn", text("done")),
	)
	a, _ := newAgent(t, p, Options{Tools: reg})
	if _, err := a.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := `Write {"n":1}|Edit {"n":2}|Write {"n":3}`
	if got := strings.Join(log, "|"); got != want {
		t.Errorf("order = %s, want %s", got, want)
	}
}

// TestTaskRunsSubagent: the parent calls Task; the subagent (same scripted
// provider, its own conversation) uses a tool and answers; the parent sees
// only that answer, the subagent's usage is added to the parent's, and its
// transcript is written beside the parent's session.
func TestTaskRunsSubagent(t *testing.T) {
	p := script(t,
		turn("tool_use", call("t1", "Task", map[string]string{"description": "find it", "prompt": "Where is X defined?", "subagent_type": "Explore"})),
		// the subagent's two calls
		turn("tool_use", text("Looking."), call("s1", "Echo", map[string]string{"q": "X"})),
		turn("end_turn", text("X is in x.go:3.")),
		// the parent again
		turn("end_turn", text("Found: x.go:3")),
	)
	st := &session.Store{Dir: t.TempDir()}
	sess, err := st.Create(session.Meta{Model: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	echo := &echoTool{name: "Echo"}
	reg := tool.NewRegistry(echo)
	a, _ := newAgent(t, p, Options{Tools: reg, Session: sess})
	types := []SubagentType{{Name: "Explore", Description: "read-only", Tools: []string{"Echo"}, Prompt: "explore prompt"}}
	reg.Add(&Task{Parent: a, Types: types})
	res, err := a.Run(context.Background(), "where is X?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Found: x.go:3" {
		t.Errorf("result = %q", res.Text)
	}
	reqs := p.Requests()
	sub := reqs[1]
	if len(sub.Messages) != 1 || sub.Messages[0].Text() != "Where is X defined?" {
		t.Errorf("the subagent's first request holds %d messages (%q); want only its prompt", len(sub.Messages), sub.Messages[0].Text())
	}
	if !strings.HasSuffix(sub.System, "explore prompt") {
		t.Errorf("subagent system prompt does not end with the type's prompt: %q", sub.System)
	}
	if len(sub.Tools) != 1 || sub.Tools[0].Name != "Echo" {
		t.Errorf("subagent tools = %v, want only Echo", sub.Tools)
	}
	got := lastUserBlocks(reqs[3])
	if len(got) != 1 || got[0].Content != "X is in x.go:3." {
		t.Errorf("Task result = %+v, want only the subagent's final answer", got)
	}
	if res.Usage.InputTokens != 40 || res.Usage.OutputTokens != 8 {
		t.Errorf("turn usage = %+v, want the parent's two calls plus the subagent's two (40 in, 8 out)", res.Usage)
	}
	if total, _ := a.Usage(); total.InputTokens != 40 {
		t.Errorf("conversation usage = %+v, want 40 input tokens", total)
	}
	matches, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(sess.Path, ".jsonl"), "subagents", "*.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("subagent transcripts = %v, want one beside the session", matches)
	}
	tr, err := session.LoadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if msgs := tr.Messages(); len(msgs) != 4 || msgs[len(msgs)-1].Text() != "X is in x.go:3." {
		t.Errorf("subagent transcript has %d messages", len(msgs))
	}
	parent, _ := os.ReadFile(sess.Path)
	if strings.Count(string(parent), `"type":"usage"`) != 3 {
		t.Errorf("parent transcript should record 3 usage lines (2 own calls + the subagent's total):\n%s", parent)
	}
}

// TestTaskGatedInside: a subagent's tool calls go through the parent's gate.
func TestTaskGatedInside(t *testing.T) {
	p := script(t,
		turn("tool_use", call("t1", "Task", map[string]string{"description": "x", "prompt": "do", "subagent_type": "general-purpose"})),
		turn("tool_use", call("s1", "Echo", map[string]string{})),
		turn("end_turn", text("could not")),
		turn("end_turn", text("ok")),
	)
	echo := &echoTool{name: "Echo"}
	reg := tool.NewRegistry(echo)
	a, _ := newAgent(t, p, Options{Tools: reg, Gate: denyGate{"Echo"}})
	reg.Add(&Task{Parent: a, Types: BuiltinSubagents()})
	if _, err := a.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if len(echo.runs) != 0 {
		t.Errorf("Echo ran inside the subagent despite the gate's deny")
	}
	sub := lastUserBlocks(p.Requests()[2])
	if !sub[0].IsError || !strings.Contains(sub[0].Content, "denied") {
		t.Errorf("subagent's Echo result = %+v, want a denial", sub[0])
	}
	for _, tl := range p.Requests()[1].Tools {
		if tl.Name == "Task" {
			t.Errorf("a general-purpose subagent was given Task")
		}
	}
}

type denyGate struct{ name string }

func (g denyGate) Check(ctx context.Context, c Call) Decision {
	if c.Tool == g.name {
		return Decision{Behavior: Deny, Reason: "test rule"}
	}
	return Decision{Behavior: Allow}
}

var _ provider.Provider = (*provider.Scripted)(nil)

// imageTool returns one image, as Read of a PNG does.
type imageTool struct{}

func (imageTool) Name() string            { return "Read" }
func (imageTool) Description() string     { return "test" }
func (imageTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (imageTool) Run(ctx context.Context, env *tool.Env, input json.RawMessage) (tool.Result, error) {
	return tool.Result{Content: "Image a.png (1x1 png).", Images: []tool.Image{{MediaType: "image/png", Data: []byte{1, 2}}}}, nil
}

// TestImagesToVisionModelsOnly: a Read that returns an image sends an
// image block after the tool results to a model that takes images; a
// text-only model gets a sentence saying why there is no image.
func TestImagesToVisionModelsOnly(t *testing.T) {
	for _, vision := range []bool{true, false} {
		data, _ := json.Marshal(map[string]any{"vision": vision, "turns": []any{
			turn("tool_use", call("r1", "Read", map[string]string{"file_path": "a.png"})),
			turn("end_turn", text("a red dot")),
		}})
		p, err := provider.ParseScripted("test", data)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := newAgent(t, p, Options{Tools: tool.NewRegistry(imageTool{})})
		if _, err := a.Run(context.Background(), "look"); err != nil {
			t.Fatal(err)
		}
		blocks := lastUserBlocks(p.Requests()[1])
		if vision {
			if len(blocks) != 2 || blocks[1].Type != provider.BlockImage || blocks[1].Data != "AQI=" || blocks[1].MediaType != "image/png" {
				t.Errorf("vision model got %+v, want the tool_result then the image", blocks)
			}
		} else if len(blocks) != 1 || !strings.Contains(blocks[0].Content, "does not accept images") {
			t.Errorf("text-only model got %+v, want a note and no image", blocks)
		}
	}
}
