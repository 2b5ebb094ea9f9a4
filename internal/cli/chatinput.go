package cli

import (
	"bufio"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// The chat's input, line mode. A message is a line, or a whole paste: the
// terminal marks a paste (bracketed paste, which the chat turns on) and
// its newlines stay in the message; where a terminal does not mark it, a
// newline followed by more input already waiting is taken for a paste too.
// Every message carries the time its last byte arrived, so a permission
// prompt takes only a key pressed after it appeared.

// Bracketed paste: the escape sequences that turn it on and off, and the
// markers around pasted text.
const (
	pasteOn    = "\x1b[?2004h"
	pasteOff   = "\x1b[?2004l"
	pasteStart = "[200~" // after ESC
	pasteEnd   = "[201~"
)

// inputMsg is one message the user entered.
type inputMsg struct {
	text   string
	pasted bool      // held pasted text
	at     time.Time // when its last byte arrived
}

// chatInput reads messages from the terminal on a goroutine of its own,
// which never waits for the chat to take them (so arrival times are true).
type chatInput struct {
	C   <-chan inputMsg // closed at end of input
	tty bool            // the input is a terminal: pastes coalesce, answers are timed

	mu    sync.Mutex
	queue []inputMsg
	done  bool
	ready chan struct{} // one token: the queue changed
}

// startChatInput starts reading r. On a terminal it turns echoing of
// control characters off (the paste markers would show as ^[[200~); the
// returned restore undoes that.
func startChatInput(r io.Reader) (*chatInput, func()) {
	in := &chatInput{ready: make(chan struct{}, 1)}
	restore := func() {}
	fd := -1
	if f, ok := r.(*os.File); ok && isTTY(f) {
		fd = int(f.Fd())
		in.tty = true
		if t, err := unix.IoctlGetTermios(fd, unix.TCGETS); err == nil {
			saved := *t
			t.Lflag &^= unix.ECHOCTL
			if unix.IoctlSetTermios(fd, unix.TCSETS, t) == nil {
				restore = func() { unix.IoctlSetTermios(fd, unix.TCSETS, &saved) }
			}
		}
	}
	out := make(chan inputMsg)
	in.C = out
	go in.read(bufio.NewReader(r), fd)
	go in.forward(out)
	return in, restore
}

// waiting reports whether more input has already arrived: in the reader's
// buffer, or (on a terminal) complete lines the kernel holds.
func waiting(br *bufio.Reader, fd int) bool {
	if br.Buffered() > 0 {
		return true
	}
	if fd < 0 {
		return false
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	return err == nil && n > 0
}

func (in *chatInput) read(br *bufio.Reader, fd int) {
	var cur strings.Builder
	inPaste, pasted := false, false
	emit := func() {
		in.push(inputMsg{text: strings.TrimRight(cur.String(), "\r"), pasted: pasted, at: time.Now()})
		cur.Reset()
		pasted = false
	}
	for {
		b, err := br.ReadByte()
		if err != nil {
			if cur.Len() > 0 {
				emit()
			}
			in.mu.Lock()
			in.done = true
			in.mu.Unlock()
			in.signal()
			return
		}
		if b == 0x1b {
			// A marker arrives whole in one read; never wait for more bytes.
			if p, _ := br.Peek(min(len(pasteStart), br.Buffered())); len(p) == len(pasteStart) {
				switch string(p) {
				case pasteStart:
					br.Discard(len(p))
					inPaste, pasted = true, true
					continue
				case pasteEnd:
					br.Discard(len(p))
					inPaste = false
					continue
				}
			}
		}
		if b == '\n' && !inPaste {
			if fd >= 0 && waiting(br, fd) {
				// More lines came with this one: an unmarked paste.
				cur.WriteByte('\n')
				pasted = true
				continue
			}
			emit()
			continue
		}
		if b == '\r' && inPaste {
			b = '\n' // terminals send a pasted newline as CR
		}
		cur.WriteByte(b)
	}
}

func (in *chatInput) push(m inputMsg) {
	in.mu.Lock()
	in.queue = append(in.queue, m)
	in.mu.Unlock()
	in.signal()
}

func (in *chatInput) signal() {
	select {
	case in.ready <- struct{}{}:
	default:
	}
}

// forward hands the queued messages to the chat, in order.
func (in *chatInput) forward(out chan<- inputMsg) {
	defer close(out)
	for range in.ready {
		for {
			in.mu.Lock()
			if len(in.queue) == 0 {
				done := in.done
				in.mu.Unlock()
				if done {
					return
				}
				break
			}
			m := in.queue[0]
			in.queue = in.queue[1:]
			in.mu.Unlock()
			out <- m
		}
	}
}
