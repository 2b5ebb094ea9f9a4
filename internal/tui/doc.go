// Package tui is Grit's full-screen terminal interface: a multi-line editor
// with history, search, a command palette and @ completion; a transcript of
// rendered Markdown and tool cards; permission dialogs; a status line.
//
// It renders inline, as Claude Code and Codex do: finished messages and tool
// cards are printed once into the terminal's own scrollback (so the mouse
// wheel scrolls and text copies with no mouse capture, and streaming never
// re-renders the history), while the live region below them (the reply being
// streamed, running tools, todos, the editor, the status line) is redrawn.
// Ctrl-O opens the whole transcript full-screen, where any tool card expands
// to its output.
//
// The package knows nothing of how a turn runs: a Backend (wired in cli over
// the agent session) runs prompts and commands, and the agent's events arrive
// as messages (Program.Send).
package tui
