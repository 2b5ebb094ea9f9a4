// Package session keeps agent conversations as append-only JSONL transcripts
// at $XDG_DATA_HOME/grit/sessions/<project>/<id>.jsonl (default
// ~/.local/share), where <project> is the workspace's absolute path with
// every character other than a letter or digit turned into '-'.
//
// Every line is one versioned Record ({"v":1,"type":...,"ts":...}): a session
// header, a message (tool calls and results are content blocks of messages),
// the usage of one model call, or a compaction. Each Append writes one whole
// line and fsyncs it, after redacting secrets (known key shapes and the
// values of *KEY*, *TOKEN*, *SECRET*, *PASSWORD* environment variables).
//
// A Session holds an exclusive flock on its file for its lifetime, so a
// second process cannot append to the same transcript: Open reports
// ErrLocked and the caller forks a new session from it (Store.Fork). Load
// never stops at a bad line: a torn or malformed line is skipped, counted
// and reported, and every valid record is kept. A Session is safe for
// concurrent use.
package session

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/grit-dev/grit/internal/provider"
)

// Version is the record format written by this build.
const Version = 1

// Record types.
const (
	TypeSession = "session" // the header: id, cwd, model, forked_from
	TypeMessage = "message" // one conversation message
	TypeUsage   = "usage"   // tokens of one model call
	TypeCompact = "compact" // the conversation was replaced by Messages
	TypeStep    = "step"    // one step of a harness-driven pipeline (grit fix): Step
)

// ErrLocked means another process holds the session.
var ErrLocked = errors.New("session is in use by another grit process")

// ErrNotFound means no session has that ID in this project.
var ErrNotFound = errors.New("no such session")

// Record is one line of a transcript.
type Record struct {
	V    int       `json:"v"`
	Type string    `json:"type"`
	TS   time.Time `json:"ts"`

	// session header
	SessionID  string `json:"session_id,omitempty"`
	Cwd        string `json:"cwd,omitempty"`
	ForkedFrom string `json:"forked_from,omitempty"`
	// Model is the "provider:model" of the session (header) or of the call (usage).
	Model string `json:"model,omitempty"`

	// message
	Message *provider.Message `json:"message,omitempty"`
	// Interrupted marks a partial assistant reply cut by Ctrl-C, or tool
	// results of calls that were not run to completion.
	Interrupted bool `json:"interrupted,omitempty"`
	// Meta marks a user-role message the harness wrote (a continue nudge,
	// Stop hook feedback, a goal follow-up), not a prompt of the user's.
	Meta bool `json:"meta,omitempty"`

	// usage
	Usage *provider.Usage `json:"usage,omitempty"`

	// compact
	Messages []provider.Message `json:"messages,omitempty"`
	Trigger  string             `json:"trigger,omitempty"` // "auto" or "manual"

	// step
	Step *Step `json:"step,omitempty"`
}

// Step is one step of a harness-driven pipeline: its name ("candidates",
// "attempt", "verdict", "test", ...) and its data as JSON. Steps are not
// conversation messages: Messages() does not replay them.
type Step struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data"`
}

// Meta describes a new session.
type Meta struct {
	Cwd        string
	Model      string
	ForkedFrom string
}

// DataHome is $XDG_DATA_HOME, else ~/.local/share.
func DataHome() (string, error) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return x, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("session data directory: %w", err)
	}
	return filepath.Join(home, ".local", "share"), nil
}

// ProjectName turns an absolute workspace path into a directory name:
// "/home/ada/src/grit" → "-home-ada-src-grit".
func ProjectName(root string) string {
	var b strings.Builder
	for _, r := range root {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Store is the session directory of one project.
type Store struct {
	Dir string // .../grit/sessions/<project>
	// Redactor cleans records before they are written; nil means
	// NewRedactor(os.Environ()).
	Redactor *Redactor
}

// NewStore returns the store of the workspace at root under dataHome ("" means DataHome()).
func NewStore(dataHome, root string) (*Store, error) {
	if dataHome == "" {
		d, err := DataHome()
		if err != nil {
			return nil, err
		}
		dataHome = d
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	return &Store{Dir: filepath.Join(dataHome, "grit", "sessions", ProjectName(abs))}, nil
}

// Path is the transcript file of session id.
func (s *Store) Path(id string) string { return filepath.Join(s.Dir, id+".jsonl") }

func (s *Store) redactor() *Redactor {
	if s.Redactor == nil {
		s.Redactor = NewRedactor(os.Environ())
	}
	return s.Redactor
}

// Create starts a new session and writes its header.
func (s *Store) Create(meta Meta) (*Session, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	id := newID()
	f, err := os.OpenFile(s.Path(id), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("create session %s: %w", id, err)
	}
	sess := &Session{ID: id, Path: s.Path(id), red: s.redactor(), f: f}
	if err := sess.Append(Record{Type: TypeSession, SessionID: id, Cwd: meta.Cwd, Model: meta.Model, ForkedFrom: meta.ForkedFrom}); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

// Open resumes session id for appending and loads its transcript. When
// another process holds it, Open returns ErrLocked (use Fork).
func (s *Store) Open(id string) (*Session, *Transcript, error) {
	if err := validID(id); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(s.Path(id), os.O_RDWR|os.O_APPEND, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("resume %s: %w in %s (grit sessions lists them)", id, ErrNotFound, s.Dir)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("resume %s: %w", id, err)
	}
	if err := lock(f); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("resume %s: %w", id, err)
	}
	tr, err := loadFrom(f)
	if err == nil {
		err = endLine(f)
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("resume %s: %w", id, err)
	}
	return &Session{ID: id, Path: s.Path(id), red: s.redactor(), f: f}, tr, nil
}

// endLine starts a new line when the transcript ends in a torn record (a
// crash mid-write): the next record would otherwise be glued to the
// fragment and both lost to the reader. The fragment stays, skipped.
func endLine(f *os.File) error {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return fmt.Errorf("read the transcript's end: %w", err)
	}
	if last[0] == '\n' {
		return nil
	}
	if _, err := f.Write([]byte("\n")); err != nil {
		return fmt.Errorf("end the torn last line: %w", err)
	}
	return f.Sync()
}

// Fork starts a new session holding a copy of session id's conversation;
// id itself is only read (it may be locked by another process).
func (s *Store) Fork(id string, meta Meta) (*Session, *Transcript, error) {
	tr, err := s.Read(id)
	if err != nil {
		return nil, nil, err
	}
	meta.ForkedFrom = id
	sess, err := s.Create(meta)
	if err != nil {
		return nil, nil, err
	}
	var copied []Record
	for _, r := range tr.Records {
		if r.Type == TypeSession {
			continue
		}
		if err := sess.Append(r); err != nil {
			sess.Close()
			return nil, nil, fmt.Errorf("fork %s: %w", id, err)
		}
		copied = append(copied, r)
	}
	out := &Transcript{Records: copied, Skipped: tr.Skipped, Warnings: tr.Warnings}
	return sess, out, nil
}

// Read loads session id without locking it.
func (s *Store) Read(id string) (*Transcript, error) {
	if err := validID(id); err != nil {
		return nil, err
	}
	tr, err := LoadFile(s.Path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("session %s: %w in %s (grit sessions lists them)", id, ErrNotFound, s.Dir)
	}
	return tr, err
}

// Latest is the ID of the most recently updated session, or ErrNotFound.
func (s *Store) Latest() (string, error) {
	infos, err := s.List()
	if err != nil {
		return "", err
	}
	if len(infos) == 0 {
		return "", fmt.Errorf("no session to continue: %w in %s", ErrNotFound, s.Dir)
	}
	return infos[0].ID, nil
}

// List lists this project's sessions, newest first.
func (s *Store) List() ([]Info, error) { return List(s.Dir) }

func validID(id string) error {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." || strings.HasPrefix(id, ".") {
		return fmt.Errorf("invalid session id %q", id)
	}
	return nil
}

func newID() string {
	var b [16]byte
	rand.Read(b[:]) // never returns an error (it crashes instead, Go 1.24+)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return nil
}

// Session is an open transcript being appended to.
type Session struct {
	ID   string
	Path string
	red  *Redactor

	mu sync.Mutex
	f  *os.File // nil once closed
}

// Append writes rec as one line and syncs it. V and TS are filled in.
func (s *Session) Append(rec Record) error {
	rec.V = Version
	if rec.TS.IsZero() {
		rec.TS = time.Now().UTC()
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("session %s: encode record: %w", s.ID, err)
	}
	line = s.red.Redact(line)
	line = append(line, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return fmt.Errorf("session %s: append after close", s.ID)
	}
	if _, err := s.f.Write(line); err != nil {
		return fmt.Errorf("session %s: append: %w", s.ID, err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("session %s: sync: %w", s.ID, err)
	}
	return nil
}

// AppendMessage records one message.
func (s *Session) AppendMessage(m provider.Message, interrupted bool) error {
	return s.Append(Record{Type: TypeMessage, Message: &m, Interrupted: interrupted})
}

// AppendMeta records a message the harness wrote in the user's role (see
// Record.Meta); listings do not count it as a prompt.
func (s *Session) AppendMeta(m provider.Message) error {
	return s.Append(Record{Type: TypeMessage, Message: &m, Meta: true})
}

// AppendStep records one pipeline step with its data.
func (s *Session) AppendStep(name string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("session %s: step %s: %w", s.ID, name, err)
	}
	return s.Append(Record{Type: TypeStep, Step: &Step{Name: name, Data: b}})
}

// AppendUsage records the usage of one model call.
func (s *Session) AppendUsage(model string, u provider.Usage) error {
	return s.Append(Record{Type: TypeUsage, Model: model, Usage: &u})
}

// Close releases the lock and the file.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.f.Close() // closing releases the flock
	s.f = nil
	return err
}

// Resume opens session id, or the project's latest when id is "". A session
// in use by another process is forked: the new session continues it, and
// forkedFrom names the one it came from.
func (s *Store) Resume(id string, meta Meta) (sess *Session, tr *Transcript, forkedFrom string, err error) {
	if id == "" {
		if id, err = s.Latest(); err != nil {
			return nil, nil, "", err
		}
	}
	sess, tr, err = s.Open(id)
	if errors.Is(err, ErrLocked) {
		sess, tr, err = s.Fork(id, meta)
		forkedFrom = id
	}
	if err != nil {
		return nil, nil, "", err
	}
	return sess, tr, forkedFrom, nil
}
