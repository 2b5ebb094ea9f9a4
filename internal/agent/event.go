package agent

import (
	"encoding/json"

	"github.com/grit-dev/grit/internal/provider"
)

// EventKind names what an Event reports.
type EventKind string

// Event kinds, in the order a turn produces them.
const (
	KindTextDelta   EventKind = "text_delta"     // Text: streamed model text
	KindToolStart   EventKind = "tool_use_start" // ToolName: the model began a call
	KindAssistant   EventKind = "assistant"      // Message: a complete assistant message
	KindToolUse     EventKind = "tool_use"       // ToolName, ToolInput, ToolUseID: about to run
	KindToolResults EventKind = "user"           // Message: the user message of tool_results
	KindNotice      EventKind = "notice"         // Text: the harness tells the user something
	KindUsage       EventKind = "usage"          // Usage: tokens of the model call just made (cache reads and writes included)
)

// Event is one step of a turn, for the interactive UI and stream-json.
type Event struct {
	Kind      EventKind         `json:"kind"`
	Text      string            `json:"text,omitempty"`
	Message   *provider.Message `json:"message,omitempty"`
	ToolName  string            `json:"tool_name,omitempty"`
	ToolInput json.RawMessage   `json:"tool_input,omitempty"`
	ToolUseID string            `json:"tool_use_id,omitempty"`
	Usage     *provider.Usage   `json:"usage,omitempty"`
}

// Result is the outcome of one turn (Run).
type Result struct {
	// Text is the final reply, or the explanation of why the turn stopped.
	Text       string
	Subtype    string // SubtypeSuccess, SubtypeMaxTurns, SubtypeDuringExecute
	IsError    bool
	StopReason provider.StopReason // of the last model call
	Turns      int                 // model calls made
	Usage      provider.Usage      // of this turn's calls
	// Interrupted says the turn was cut by cancellation (Ctrl-C).
	Interrupted bool
}
