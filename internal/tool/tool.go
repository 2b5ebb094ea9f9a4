// Package tool holds the tools a model can call and their registry. Each tool
// is <name>.go plus <name>.md, the description the model sees. Input field
// names follow Claude Code's so users and scripts carry over.
//
// Two error channels: a mistake the model can correct (bad path, old_string
// found twice, file not read yet) is a Result with IsError set and an
// actionable sentence; a broken environment (disk, database, sandbox) is a Go
// error, which ends the turn.
package tool

import (
	"context"
	"encoding/json"
)

// Tool is one callable tool.
type Tool interface {
	Name() string
	// Description is the model-facing text, embedded from <name>.md.
	Description() string
	// Schema is the JSON Schema of the input object.
	Schema() json.RawMessage
	// Run executes one call. env carries the session's shared state.
	Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error)
}

// Kind classifies a tool for permission modes.
type Kind int

const (
	KindRead    Kind = iota // no side effects: Read, Grep, Glob, Locate
	KindEdit                // writes files in the workspace: Edit, Write, EditFunction
	KindExecute             // runs commands: Bash
)

// Kinded is implemented by tools that are not read-only.
type Kinded interface{ Kind() Kind }

// KindOf returns t's kind (KindRead unless it says otherwise).
func KindOf(t Tool) Kind {
	if k, ok := t.(Kinded); ok {
		return k.Kind()
	}
	return KindRead
}

// Result is what the model sees.
type Result struct {
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
	// Changed lists workspace files (relative paths) the call wrote.
	Changed []string `json:"changed,omitempty"`
	// Images go to the model after the call's text, when it accepts images.
	Images []Image `json:"-"`
}

// Errorf is a Result the model can act on.
func Errorf(format string, args ...any) Result {
	return Result{Content: sprintf(format, args...), IsError: true}
}
