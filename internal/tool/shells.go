package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/grit-dev/grit/internal/sandbox"
)

// Limits of background shells.
const (
	// bgMaxRun bounds a background command's life: long enough for a dev
	// server or a watcher over a working day, short enough that a forgotten
	// one does not run forever (the session's end kills it sooner).
	bgMaxRun = 12 * time.Hour
	// bgBufferCap bounds the unread output kept per shell; older unread
	// bytes are dropped and counted, as a terminal's scrollback would.
	bgBufferCap = 1 << 20
)

// Shells are the background shells of a session (Bash with
// run_in_background), read with BashOutput and stopped with KillShell or
// CloseAll. It is safe for concurrent use.
type Shells struct {
	mu     sync.Mutex
	next   int
	shells map[string]*shell
	closed bool
}

// ShellInfo is one background shell as /bashes lists it.
type ShellInfo struct {
	ID       string    `json:"id"`
	Command  string    `json:"command"`
	Status   string    `json:"status"` // running, completed, failed, killed
	ExitCode int       `json:"exit_code"`
	Started  time.Time `json:"started"`
}

type shell struct {
	id, command string
	started     time.Time
	cancel      context.CancelFunc
	done        chan struct{}

	mu       sync.Mutex // guards the fields below
	unread   []byte
	dropped  int64
	status   string
	exitCode int
	killed   bool
}

func (s *shell) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unread = append(s.unread, p...)
	if over := len(s.unread) - bgBufferCap; over > 0 {
		s.unread = append([]byte(nil), s.unread[over:]...)
		s.dropped += int64(over)
	}
	return len(p), nil
}

func (s *shell) info() ShellInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ShellInfo{ID: s.id, Command: s.command, Status: s.status, ExitCode: s.exitCode, Started: s.started}
}

// Start runs script in the background through runner and returns the
// shell's ID ("bash_1", ...).
func (sh *Shells) Start(runner sandbox.Runner, command, script, dir string) (string, error) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.closed {
		return "", errors.New("background shells: the session is closing")
	}
	if sh.shells == nil {
		sh.shells = map[string]*shell{}
	}
	sh.next++
	ctx, cancel := context.WithCancel(context.Background())
	s := &shell{id: fmt.Sprintf("bash_%d", sh.next), command: command, started: time.Now(), cancel: cancel, done: make(chan struct{}), status: "running"}
	sh.shells[s.id] = s
	go func() {
		defer close(s.done)
		res, err := runner.Run(ctx, sandbox.Spec{Script: script, Dir: dir, Timeout: bgMaxRun, MaxOutput: 1, Stream: s})
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case s.killed:
			s.status = "killed"
		case err != nil:
			s.status = "failed"
			s.unread = append(s.unread, "\n[could not run: "+err.Error()+"]\n"...)
		case res.TimedOut:
			s.status = "killed"
			s.unread = append(s.unread, fmt.Sprintf("\n[killed after %s, the longest a background shell may run]\n", bgMaxRun)...)
		case res.ExitCode != 0:
			s.status, s.exitCode = "failed", res.ExitCode
		default:
			s.status = "completed"
		}
	}()
	return s.id, nil
}

func (sh *Shells) get(id string) (*shell, error) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s, ok := sh.shells[id]
	if !ok {
		ids := make([]string, 0, len(sh.shells))
		for k := range sh.shells {
			ids = append(ids, k)
		}
		sort.Strings(ids)
		if len(ids) == 0 {
			return nil, fixf(nil, "No background shell %q: none was started in this session (Bash with run_in_background starts one).", id)
		}
		return nil, fixf(nil, "No background shell %q (shells: %s).", id, strings.Join(ids, ", "))
	}
	return s, nil
}

// Kill stops a shell and waits for it to end.
func (sh *Shells) Kill(id string) error {
	s, err := sh.get(id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	running := s.status == "running"
	if running {
		s.killed = true
	}
	s.mu.Unlock()
	if !running {
		return fixf(nil, "Shell %s is not running (status: %s).", id, s.info().Status)
	}
	s.cancel()
	<-s.done
	return nil
}

// List returns every shell of the session, oldest first.
func (sh *Shells) List() []ShellInfo {
	sh.mu.Lock()
	all := make([]*shell, 0, len(sh.shells))
	for _, s := range sh.shells {
		all = append(all, s)
	}
	sh.mu.Unlock()
	out := make([]ShellInfo, len(all))
	for i, s := range all {
		out[i] = s.info()
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Started.Before(out[j].Started) || out[i].Started.Equal(out[j].Started) && out[i].ID < out[j].ID
	})
	return out
}

// CloseAll kills every running shell and refuses new ones: the session ends.
func (sh *Shells) CloseAll() {
	sh.mu.Lock()
	sh.closed = true
	all := make([]*shell, 0, len(sh.shells))
	for _, s := range sh.shells {
		all = append(all, s)
	}
	sh.mu.Unlock()
	for _, s := range all {
		s.mu.Lock()
		if s.status == "running" {
			s.killed = true
		}
		s.mu.Unlock()
		s.cancel()
		<-s.done
	}
}

// read takes the shell's unread output, keeping only lines filter matches
// (the others are consumed too, as in Claude Code).
func (s *shell) read(filter *regexp.Regexp) (out string, dropped int64, info ShellInfo) {
	s.mu.Lock()
	text, dropped := string(s.unread), s.dropped
	s.unread, s.dropped = nil, 0
	s.mu.Unlock()
	if filter != nil {
		var kept []string
		for _, line := range strings.SplitAfter(text, "\n") {
			if line != "" && filter.MatchString(strings.TrimSuffix(line, "\n")) {
				kept = append(kept, line)
			}
		}
		text = strings.Join(kept, "")
	}
	return text, dropped, s.info()
}

//go:embed bashoutput.md
var bashOutputMD string

var bashOutputDesc = render("bashoutput.md", bashOutputMD)

// BashOutput reads what a background shell printed since the last read.
type BashOutput struct{}

func (BashOutput) Name() string        { return "BashOutput" }
func (BashOutput) Description() string { return bashOutputDesc() }
func (BashOutput) Schema() json.RawMessage {
	return rawSchema[bashOutputInput](nil)
}

type bashOutputInput struct {
	BashID string `json:"bash_id" jsonschema:"The background shell's ID"`
	Filter string `json:"filter,omitempty" jsonschema:"Regular expression: only matching lines are returned (the others are discarded)"`
}

func (t BashOutput) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(env, input))
}

func (BashOutput) run(env *Env, input json.RawMessage) (Result, error) {
	var in bashOutputInput
	if err := decode("BashOutput", input, &in); err != nil {
		return Result{}, err
	}
	var re *regexp.Regexp
	if in.Filter != "" {
		var err error
		if re, err = regexp.Compile(in.Filter); err != nil {
			return Result{}, fixf(nil, "BashOutput: filter %q is not a valid regular expression: %v", in.Filter, err)
		}
	}
	s, err := env.Shells().get(in.BashID)
	if err != nil {
		return Result{}, err
	}
	text, dropped, info := s.read(re)
	cb := sandbox.NewCapBuffer(bashMaxOutput)
	cb.Write([]byte(text))
	text, _ = cb.String()
	var b strings.Builder
	fmt.Fprintf(&b, "<status>%s</status>\n", info.Status)
	if info.Status != "running" {
		fmt.Fprintf(&b, "<exit_code>%d</exit_code>\n", info.ExitCode)
	}
	if dropped > 0 {
		fmt.Fprintf(&b, "[%d earlier bytes were dropped: the shell printed more than %d bytes between reads]\n", dropped, bgBufferCap)
	}
	if text == "" {
		b.WriteString("<stdout>(no new output)</stdout>")
	} else {
		fmt.Fprintf(&b, "<stdout>\n%s\n</stdout>", strings.TrimRight(text, "\n"))
	}
	return Result{Content: b.String()}, nil
}

//go:embed killshell.md
var killShellMD string

var killShellDesc = render("killshell.md", killShellMD)

// KillShell stops a background shell.
type KillShell struct{}

func (KillShell) Name() string        { return "KillShell" }
func (KillShell) Description() string { return killShellDesc() }
func (KillShell) Kind() Kind          { return KindExecute }
func (KillShell) Schema() json.RawMessage {
	return rawSchema[killShellInput](nil)
}

type killShellInput struct {
	ShellID string `json:"shell_id" jsonschema:"The background shell's ID"`
}

func (t KillShell) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in killShellInput
	if err := decode("KillShell", input, &in); err != nil {
		return finish(Result{}, err)
	}
	if err := env.Shells().Kill(in.ShellID); err != nil {
		return finish(Result{}, err)
	}
	return Result{Content: fmt.Sprintf("Killed shell %s.", in.ShellID)}, nil
}
