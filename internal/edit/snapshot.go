package edit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/span"
)

// SnapshotDir is where snapshots live, relative to the repository root.
const SnapshotDir = ".grit/snapshots"

// ErrNoSnapshot means there is nothing to undo.
var ErrNoSnapshot = errors.New("no snapshot to restore")

// ErrModified means a file changed after the edit a snapshot records;
// restoring it would lose that change.
var ErrModified = errors.New("file was modified after the edit")

// SnapshotFile is one file a snapshot can restore.
type SnapshotFile struct {
	Path    string `json:"path"`              // slash-separated, relative to the root
	Existed bool   `json:"existed"`           // false: the edit created it, undo removes it
	Before  string `json:"before,omitempty"`  // hash of the saved bytes
	After   string `json:"after,omitempty"`   // hash after the edit, set by Commit
	Blob    string `json:"blob,omitempty"`    // file name of the saved bytes in the snapshot dir
	Removed bool   `json:"removed,omitempty"` // the edit deleted it
	// Pending are the hashes the file may hold while the edit is under
	// way (each write's result, recorded before the write): what undo
	// accepts besides Before when the process died before Commit.
	Pending []string `json:"pending,omitempty"`
}

// Snapshot holds the bytes of files before an edit, so that the edit can be
// undone. It lives in <root>/.grit/snapshots/<id>/ (manifest.json plus one
// blob per file); .grit/snapshots/last names the newest committed one. A
// Snapshot is not safe for concurrent use.
type Snapshot struct {
	ID       string         `json:"id"`
	Label    string         `json:"label"` // the task
	Created  time.Time      `json:"created"`
	Files    []SnapshotFile `json:"files"`
	Restored bool           `json:"restored,omitempty"`
	// Prev is the snapshot `grit undo` named before this one became the
	// undo target (an edit under way is undoable at once; Discard hands
	// the target back).
	Prev string `json:"prev,omitempty"`
	// Open is set from the first write until Commit: the edit may have
	// been cut short by a crash.
	Open bool `json:"open,omitempty"`

	root string
}

// NewSnapshot starts an empty snapshot under root.
func NewSnapshot(root, label string) (*Snapshot, error) {
	now := time.Now()
	s := &Snapshot{ID: now.UTC().Format("20060102T150405.000000000Z"), Label: label, Created: now, root: root}
	if err := os.MkdirAll(s.dir(), 0o755); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	writeGritIgnore(root)
	return s, nil
}

// writeGritIgnore keeps .grit/ out of git status when the index has not done so.
func writeGritIgnore(root string) {
	p := filepath.Join(root, ".grit", ".gitignore")
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		os.WriteFile(p, []byte("*\n"), 0o644)
	}
}

func (s *Snapshot) dir() string { return filepath.Join(s.root, filepath.FromSlash(SnapshotDir), s.ID) }

// checkPath refuses paths the snapshot must never write: outside the root,
// or inside .git or .grit.
func checkPath(rel string) (string, error) {
	c := span.Clean(rel)
	if c == "" || c == "." || filepath.IsAbs(rel) || strings.HasPrefix(filepath.ToSlash(filepath.Clean(rel)), "..") {
		return "", fmt.Errorf("snapshot %q: %w", rel, span.ErrOutside)
	}
	first := strings.ToLower(strings.SplitN(c, "/", 2)[0])
	if first == ".git" || first == ".grit" {
		return "", fmt.Errorf("snapshot %q: refusing to touch %s", rel, first)
	}
	return c, nil
}

// Save records rel's current bytes (once: later calls for the same path keep
// the first copy). A missing file is recorded as not existing.
func (s *Snapshot) Save(rel string) error {
	rel, err := checkPath(rel)
	if err != nil {
		return err
	}
	for _, f := range s.Files {
		if f.Path == rel {
			return nil
		}
	}
	f := SnapshotFile{Path: rel}
	data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("snapshot %s: %w", rel, err)
	default:
		f.Existed = true
		f.Before = Hash(data)
		f.Blob = fmt.Sprintf("%d.blob", len(s.Files))
		if err := WriteFileAtomic(filepath.Join(s.dir(), f.Blob), data, 0o644); err != nil {
			return fmt.Errorf("snapshot %s: %w", rel, err)
		}
	}
	s.Files = append(s.Files, f)
	return s.writeManifest()
}

// ApplyFile is edit.ApplyFile with a journal: it saves rel, computes the
// result, records its hash and makes s the snapshot `grit undo` restores,
// all before the write, so the change is undoable from the moment it is
// made whatever kills the process. expectHash guards as in ApplyFile.
func (s *Snapshot) ApplyFile(rel, expectHash string, ops ...Op) (old []byte, err error) {
	if err := s.Save(rel); err != nil {
		return nil, err
	}
	abs := filepath.Join(s.root, filepath.FromSlash(rel))
	old, err = os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("edit %s: %w", abs, err)
	}
	if expectHash != "" && Hash(old) != expectHash {
		return nil, fmt.Errorf("edit %s: %w", abs, ErrStale)
	}
	out, err := Apply(old, ops...)
	if err != nil {
		return nil, fmt.Errorf("edit %s: %w", abs, err)
	}
	if err := s.expect(span.Clean(rel), Hash(out)); err != nil {
		return nil, err
	}
	if err := WriteFileAtomic(abs, out, 0o644); err != nil {
		return nil, err
	}
	return old, nil
}

// expect records that rel is about to hold content hashing to h and, the
// first time, makes s the undo target (remembering the previous one).
func (s *Snapshot) expect(rel, h string) error {
	for i := range s.Files {
		if s.Files[i].Path == rel && !slices.Contains(s.Files[i].Pending, h) {
			s.Files[i].Pending = append(s.Files[i].Pending, h)
		}
	}
	last := filepath.Join(s.root, filepath.FromSlash(SnapshotDir), "last")
	if !s.Open {
		if b, err := os.ReadFile(last); err == nil {
			s.Prev = strings.TrimSpace(string(b))
		}
		s.Open = true
	}
	if err := s.writeManifest(); err != nil {
		return err
	}
	return WriteFileAtomic(last, []byte(s.ID+"\n"), 0o644)
}

// Paths lists the saved files.
func (s *Snapshot) Paths() []string {
	out := make([]string, len(s.Files))
	for i, f := range s.Files {
		out[i] = f.Path
	}
	return out
}

func (s *Snapshot) writeManifest() error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("snapshot manifest: %w", err)
	}
	return WriteFileAtomic(filepath.Join(s.dir(), "manifest.json"), data, 0o644)
}

// Commit records each file's hash after the edit and makes s the snapshot
// `grit undo` restores.
func (s *Snapshot) Commit() error {
	for i := range s.Files {
		data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(s.Files[i].Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.Files[i].Removed = true
			s.Files[i].After = ""
		case err != nil:
			return fmt.Errorf("snapshot commit: %w", err)
		default:
			s.Files[i].After = Hash(data)
		}
		s.Files[i].Pending = nil
	}
	s.Open = false
	if err := s.writeManifest(); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(s.root, filepath.FromSlash(SnapshotDir), "last"), []byte(s.ID+"\n"), 0o644)
}

// Restore puts every saved file back as it was (removing files that did not
// exist). Unless force is set, it first checks that each file still holds
// what the edit wrote (for a committed snapshot), or for one cut short
// what it held before or was being given, and refuses with ErrModified
// otherwise, touching nothing. It returns the restored paths.
func (s *Snapshot) Restore(force bool) ([]string, error) {
	if !force {
		var changed []string
		for _, f := range s.Files {
			data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(f.Path)))
			now := ""
			if err == nil {
				now = Hash(data)
			}
			var ok bool
			switch {
			case s.Open:
				ok = now == f.Before || slices.Contains(f.Pending, now)
			case f.After == "" && !f.Removed:
				ok = true // saved but never written
			default:
				ok = now == f.After
			}
			if !ok {
				changed = append(changed, f.Path)
			}
		}
		if len(changed) > 0 {
			return nil, fmt.Errorf("undo %s: %w: %s (use --force to restore anyway)", s.ID, ErrModified, strings.Join(changed, ", "))
		}
	}
	var done []string
	for _, f := range s.Files {
		abs := filepath.Join(s.root, filepath.FromSlash(f.Path))
		if !f.Existed {
			if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return done, fmt.Errorf("undo %s: %w", f.Path, err)
			}
			done = append(done, f.Path)
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.dir(), f.Blob))
		if err != nil {
			return done, fmt.Errorf("undo %s: snapshot blob: %w", f.Path, err)
		}
		if Hash(data) != f.Before {
			return done, fmt.Errorf("undo %s: snapshot blob is corrupt (hash mismatch)", f.Path)
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return done, fmt.Errorf("undo %s: %w", f.Path, err)
		}
		if err := WriteFileAtomic(abs, data, 0o644); err != nil {
			return done, fmt.Errorf("undo %s: %w", f.Path, err)
		}
		done = append(done, f.Path)
	}
	s.Restored = true
	if err := s.writeManifest(); err != nil {
		return done, err
	}
	s.handBack()
	sort.Strings(done)
	return done, nil
}

// Discard removes an uncommitted snapshot's directory and, if it had
// become the undo target, hands that back to the previous snapshot.
func (s *Snapshot) Discard() error {
	s.handBack()
	return os.RemoveAll(s.dir())
}

// handBack stops s being the undo target: an edit cut short (Open) hands
// it back to the snapshot before it, a committed one leaves none.
func (s *Snapshot) handBack() {
	last := filepath.Join(s.root, filepath.FromSlash(SnapshotDir), "last")
	if b, err := os.ReadFile(last); err != nil || strings.TrimSpace(string(b)) != s.ID {
		return
	}
	if s.Open && s.Prev != "" {
		WriteFileAtomic(last, []byte(s.Prev+"\n"), 0o644)
	} else {
		os.Remove(last)
	}
}

// LastSnapshot loads the snapshot `grit undo` would restore, or ErrNoSnapshot.
func LastSnapshot(root string) (*Snapshot, error) {
	last, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(SnapshotDir), "last"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoSnapshot
	}
	if err != nil {
		return nil, fmt.Errorf("undo: %w", err)
	}
	return LoadSnapshot(root, strings.TrimSpace(string(last)))
}

// LoadSnapshot loads snapshot id.
func LoadSnapshot(root, id string) (*Snapshot, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return nil, fmt.Errorf("snapshot id %q: %w", id, ErrNoSnapshot)
	}
	s := &Snapshot{ID: id, root: root}
	data, err := os.ReadFile(filepath.Join(s.dir(), "manifest.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("snapshot %s: %w", id, ErrNoSnapshot)
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", id, err)
	}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("snapshot %s: manifest: %w", id, err)
	}
	for _, f := range s.Files {
		if _, err := checkPath(f.Path); err != nil {
			return nil, err
		}
	}
	s.root = root
	return s, nil
}
