package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

//go:embed memory.md
var memoryMD string

var memoryDesc = render("memory.md", memoryMD)

// MemoryFile is one MEMORY.md (contextfiles.Memory implements it): Read
// returns "" for a missing file; Write replaces the whole file atomically.
type MemoryFile interface {
	Read() (string, error)
	Write(text string) error
}

// Memory lets the model keep notes across sessions, in the project's memory
// file or, with scope "user", the user's. A nil file makes its scope unavailable.
type Memory struct {
	Project MemoryFile
	User    MemoryFile
}

type memoryInput struct {
	Command string `json:"command"`
	Text    string `json:"text,omitempty" jsonschema:"add: the note; replace: the new text"`
	OldText string `json:"old_text,omitempty" jsonschema:"replace, remove: text found exactly once in the file"`
	Scope   string `json:"scope,omitempty" jsonschema:"default project"`
}

func (Memory) Name() string        { return "Memory" }
func (Memory) Description() string { return memoryDesc() }
func (Memory) Kind() Kind          { return KindEdit }
func (Memory) Schema() json.RawMessage {
	return rawSchema[memoryInput](func(p map[string]*jsonschema.Schema) {
		Enum("view", "add", "replace", "remove")(p["command"])
		Enum("project", "user")(p["scope"])
	})
}

func (t Memory) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(input))
}

func (t Memory) run(input json.RawMessage) (Result, error) {
	var in memoryInput
	if err := decode("Memory", input, &in); err != nil {
		return Result{}, err
	}
	var f MemoryFile
	switch in.Scope {
	case "", "project":
		in.Scope, f = "project", t.Project
	case "user":
		f = t.User
	default:
		return Result{}, fixf(nil, "Unknown scope %q (expected: project, user).", in.Scope)
	}
	if f == nil {
		return Result{}, fixf(nil, "There is no %s memory in this session.", in.Scope)
	}
	text, err := f.Read()
	if err != nil {
		return Result{}, err
	}
	switch in.Command {
	case "view":
		if strings.TrimSpace(text) == "" {
			return Result{Content: fmt.Sprintf("The %s memory is empty.", in.Scope)}, nil
		}
		return Result{Content: fmt.Sprintf("The %s memory (%d lines):\n%s", in.Scope, strings.Count(strings.TrimRight(text, "\n"), "\n")+1, text)}, nil
	case "add":
		note := strings.Join(strings.Fields(in.Text), " ")
		if note == "" {
			return Result{}, fixf(nil, "add needs text: the note to keep.")
		}
		if text == "" {
			text = "# Memory\n\n"
		} else if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += "- " + note + "\n"
	case "replace", "remove":
		if in.OldText == "" {
			return Result{}, fixf(nil, "%s needs old_text: text that occurs exactly once in the %s memory.", in.Command, in.Scope)
		}
		switch n := strings.Count(text, in.OldText); n {
		case 0:
			return Result{}, fixf(nil, "old_text was not found in the %s memory. Use view to see it.", in.Scope)
		case 1:
		default:
			return Result{}, fixf(nil, "old_text occurs %d times in the %s memory; give more of it so it is found once.", n, in.Scope)
		}
		i := strings.Index(text, in.OldText)
		if in.Command == "replace" {
			text = text[:i] + in.Text + text[i+len(in.OldText):]
			break
		}
		// remove the whole lines the text spans
		start := strings.LastIndexByte(text[:i], '\n') + 1
		end := i + len(in.OldText)
		if j := strings.IndexByte(text[end:], '\n'); j >= 0 {
			end += j + 1
		} else {
			end = len(text)
		}
		text = text[:start] + text[end:]
	case "":
		return Result{}, fixf(nil, "Memory needs a command: view, add, replace or remove.")
	default:
		return Result{}, fixf(nil, "Unknown command %q (expected: view, add, replace, remove).", in.Command)
	}
	if err := f.Write(text); err != nil {
		return Result{}, err
	}
	return Result{Content: fmt.Sprintf("Updated the %s memory (%s). It is loaded at the start of every session.", in.Scope, in.Command)}, nil
}
