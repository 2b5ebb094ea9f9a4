package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/session"
)

// slashResume lists the project's sessions, or switches the chat to one:
// the current session is closed as it is and the chosen one resumed.
func slashResume(ctx context.Context, c *chat, arg string) error {
	st, err := session.NewStore("", c.s.Root)
	if err != nil {
		return err
	}
	if arg == "" {
		infos, err := st.List()
		if err != nil {
			return err
		}
		if len(infos) == 0 {
			fmt.Fprintln(c.e.Out, "No sessions for this project yet.")
			return nil
		}
		for _, in := range infos {
			fmt.Fprintf(c.e.Out, "  %s  %s  %3d prompts  %s\n", in.ID, in.Updated.Local().Format(time.DateTime), in.Turns, oneLine(in.FirstPrompt, 50))
		}
		fmt.Fprintln(c.e.Out, "/resume ID switches to one.")
		return nil
	}
	if arg == c.s.Session.ID {
		return fmt.Errorf("already in session %s", arg)
	}
	opts := c.opts
	opts.Continue, opts.Resume = false, arg
	next, err := app.OpenAgent(ctx, opts)
	if err != nil {
		return err
	}
	layer, err := app.AttachContext(ctx, next, opts)
	if err != nil {
		next.Close()
		return err
	}
	old := c.s
	c.s, c.layer = next, layer
	if err := old.Close(); err != nil {
		fmt.Fprintf(c.e.Err, "grit: closing the previous session: %v\n", err)
	}
	fmt.Fprintf(c.e.Out, "Resumed session %s (%d messages).\n", next.Session.ID, len(next.Agent.Messages()))
	return nil
}

// promptHistory keeps the prompts typed in this project, one JSON string a
// line, for Up/Down and Ctrl-R across sessions (as Claude Code does).
type promptHistory struct{ path string }

// historyKeep is how many earlier prompts load: enough for months of use,
// small enough to read at every start.
const historyKeep = 1000

func newPromptHistory(root string) promptHistory {
	home, err := session.DataHome()
	if err != nil {
		return promptHistory{}
	}
	return promptHistory{path: filepath.Join(home, "history", session.ProjectName(root)+".jsonl")}
}

func (h promptHistory) load() []string {
	if h.path == "" {
		return nil
	}
	f, err := os.Open(h.path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			out = append(out, s)
		}
	}
	if len(out) > historyKeep {
		out = out[len(out)-historyKeep:]
	}
	return out
}

// add appends one prompt with a single write on an O_APPEND file, so
// concurrent sessions interleave whole lines; a torn line is skipped on load.
func (h promptHistory) add(prompt string) {
	if h.path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	b, _ := json.Marshal(prompt)
	f.Write(append(b, '\n'))
}
