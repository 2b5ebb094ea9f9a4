package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Todo is one item of the TodoWrite list, Claude Code's shape.
type Todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"` // pending, in_progress, completed
	ActiveForm string `json:"activeForm"`
}

// Todo statuses.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

//go:embed todowrite.md
var todoWriteMD string

var todoWriteDesc = render("todowrite.md", todoWriteMD)

// TodoWrite replaces the session's task list. The list lives in Env (the
// terminal and stream-json show the call; a resumed session restores the
// last list from its transcript with SetTodos).
type TodoWrite struct{}

func (TodoWrite) Name() string        { return "TodoWrite" }
func (TodoWrite) Description() string { return todoWriteDesc() }
func (TodoWrite) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{` +
		`"content":{"type":"string","minLength":1},` +
		`"status":{"type":"string","enum":["pending","in_progress","completed"]},` +
		`"activeForm":{"type":"string","minLength":1}},` +
		`"required":["content","status","activeForm"]}}},"required":["todos"]}`)
}

func (t TodoWrite) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	todos, err := ParseTodos(input)
	if err != nil {
		return finish(Result{}, err)
	}
	env.SetTodos(todos)
	return Result{Content: "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable."}, nil
}

// ParseTodos decodes and checks a TodoWrite input.
func ParseTodos(input json.RawMessage) ([]Todo, error) {
	var in struct {
		Todos *[]Todo `json:"todos"`
	}
	if err := decode("TodoWrite", input, &in); err != nil {
		return nil, err
	}
	if in.Todos == nil {
		return nil, fixf(nil, "TodoWrite needs todos: the whole list, each item {content, status, activeForm}.")
	}
	for i, td := range *in.Todos {
		switch {
		case strings.TrimSpace(td.Content) == "":
			return nil, fixf(nil, "TodoWrite: item %d has no content.", i+1)
		case strings.TrimSpace(td.ActiveForm) == "":
			return nil, fixf(nil, "TodoWrite: item %d (%q) has no activeForm (the present-continuous form shown while it runs, e.g. \"Running the tests\").", i+1, td.Content)
		case td.Status != TodoPending && td.Status != TodoInProgress && td.Status != TodoCompleted:
			return nil, fixf(nil, "TodoWrite: item %d (%q) has status %q (expected: pending, in_progress, completed).", i+1, td.Content, td.Status)
		}
	}
	return *in.Todos, nil
}

// SetTodos replaces the session's task list.
func (e *Env) SetTodos(todos []Todo) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.todos = append([]Todo(nil), todos...)
}

// Todos returns the session's task list.
func (e *Env) Todos() []Todo {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Todo(nil), e.todos...)
}

// FormatTodos renders a list for the terminal: ☐ pending, ◐ in progress
// (its activeForm), ☒ completed.
func FormatTodos(todos []Todo) string {
	if len(todos) == 0 {
		return "(no todos)"
	}
	var b strings.Builder
	for _, td := range todos {
		switch td.Status {
		case TodoCompleted:
			fmt.Fprintf(&b, "☒ %s\n", td.Content)
		case TodoInProgress:
			fmt.Fprintf(&b, "◐ %s\n", td.ActiveForm)
		default:
			fmt.Fprintf(&b, "☐ %s\n", td.Content)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
