package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// Defaults for a Spec's zero values.
const (
	DefaultTimeout   = 2 * time.Minute
	DefaultMaxOutput = 30000
)

// drainGrace bounds how long Run waits for the output pipe to close after the
// process group was killed (a process that left the group may hold it open).
const drainGrace = 2 * time.Second

// NewPlain returns a Runner with no isolation (Backend "none"): bash
// --noprofile --norc -c in its own process group, killed as a group on
// timeout or cancellation (and when bash exits, so nothing it started in the
// background outlives the call), with Pdeathsig set, output capped keeping
// head and tail, and a scrubbed environment (see ScrubEnv).
func NewPlain() Runner { return plain{} }

type plain struct{}

func (plain) Backend() string { return "none" }

func (plain) Run(ctx context.Context, s Spec) (Result, error) {
	argv := []string{"bash", "--noprofile", "--norc", "-c", s.Script}
	return runArgv(ctx, argv, append(ScrubEnv(os.Environ()), s.Env...), s, s.Dir, nil)
}

// exitCode maps a finished process to a shell-style status: the exit status,
// or 128+signal when it was killed.
func exitCode(ps *os.ProcessState, err error) int {
	if ps == nil {
		if err != nil {
			return -1
		}
		return 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// secretWords mark variables that are never passed to a command: any name
// containing one of them (case-insensitively).
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH"}

// secretPrefixes are provider and cloud variables, dropped whatever their name.
var secretPrefixes = []string{"ANTHROPIC_", "OPENAI_", "OLLAMA_", "AWS_", "AZURE_", "GOOGLE_", "GH_", "GITHUB_", "GRIT_"}

// dropped are shell start-up hooks a command must not inherit.
var dropped = map[string]bool{"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true}

// ScrubEnv returns environ without secrets: names containing KEY, TOKEN,
// SECRET, PASSWORD, PASSWD, CREDENTIAL or AUTH, provider and cloud
// variables (ANTHROPIC_*, OPENAI_*, AWS_*, ...), exported bash functions and
// shell start-up hooks (BASH_ENV, ENV). PATH, HOME, LANG, TERM and the rest
// stay. It adds pager settings so that no command waits on a terminal.
func ScrubEnv(environ []string) []string {
	out := make([]string, 0, len(environ)+3)
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if secretName(name) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0")
}

func secretName(name string) bool {
	up := strings.ToUpper(name)
	if dropped[up] || strings.HasPrefix(up, "BASH_FUNC_") {
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return false
}

// CapBuffer is an io.Writer that keeps the first and last bytes of what it is
// given, up to a total of max, and counts what it dropped from the middle. It
// is safe for concurrent use.
type CapBuffer struct {
	mu      sync.Mutex
	max     int
	head    []byte
	tail    []byte // ring buffer of the last len(tail) bytes once full
	tailPos int    // next write position in tail
	tailN   int    // bytes ever written to tail
	total   int64
}

// NewCapBuffer keeps at most max bytes: half from the start, half from the end.
func NewCapBuffer(max int) *CapBuffer {
	if max < 2 {
		max = 2
	}
	return &CapBuffer{max: max, head: make([]byte, 0, min(max/2, 4096)), tail: make([]byte, max-max/2)}
}

func (b *CapBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	if room := b.max/2 - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= len(b.tail) {
		p = p[len(p)-len(b.tail):]
	}
	for len(p) > 0 {
		k := copy(b.tail[b.tailPos:], p)
		p = p[k:]
		b.tailPos = (b.tailPos + k) % len(b.tail)
		b.tailN += k
	}
	return n, nil
}

// String returns the kept output and whether bytes were dropped. The cut is
// marked with a line saying how many bytes went, and falls on UTF-8
// boundaries so no replacement characters appear.
func (b *CapBuffer) String() (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var tail []byte
	if b.tailN < len(b.tail) {
		tail = b.tail[:b.tailN]
	} else {
		tail = append(append([]byte{}, b.tail[b.tailPos:]...), b.tail[:b.tailPos]...)
	}
	kept := int64(len(b.head) + len(tail))
	if kept == b.total {
		return string(b.head) + string(tail), false
	}
	head := b.head
	// Drop a rune the head cut in two.
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			if !utf8.FullRune(head[i:]) {
				head = head[:i]
			}
			break
		}
	}
	for i := 0; i < utf8.UTFMax && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	cut := b.total - int64(len(head)+len(tail))
	var s bytes.Buffer
	s.Write(head)
	fmt.Fprintf(&s, "\n[... %d bytes of output cut ...]\n", cut)
	s.Write(tail)
	return s.String(), true
}
