package agent

import (
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/tool"
)

// LastTodos is the list of the conversation's last TodoWrite call that
// succeeded, or nil when there is none: a resumed session's task list.
func LastTodos(history []provider.Message) []tool.Todo {
	failed := map[string]bool{}
	for _, m := range history {
		for _, b := range m.Content {
			if b.Type == provider.BlockToolResult && b.IsError {
				failed[b.ToolUseID] = true
			}
		}
	}
	var last []tool.Todo
	for _, m := range history {
		for _, b := range m.Content {
			if b.Type != provider.BlockToolUse || b.Name != "TodoWrite" || failed[b.ID] {
				continue
			}
			if todos, err := tool.ParseTodos(b.Input); err == nil {
				last = todos
				if last == nil {
					last = []tool.Todo{}
				}
			}
		}
	}
	return last
}
