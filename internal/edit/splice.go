package edit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"unicode/utf8"

	"github.com/grit-dev/grit/internal/span"
)

// Sentinel errors callers branch on.
var (
	// ErrStale means the file's bytes are not the ones the caller's range was
	// computed from: re-index and locate again, never splice.
	ErrStale = errors.New("file changed since it was indexed")
	// ErrRange means a byte range is outside the file or cuts a UTF-8 sequence.
	ErrRange = errors.New("byte range is not valid for this file")
)

// Hash is the hex SHA-256 of b: the same hash the index stores per file.
func Hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Op kinds.
const (
	OpReplace     = "replace"      // replace Range with Text (a whole definition)
	OpInsertAfter = "insert_after" // insert Text as a new definition after the one at Range
	OpInsertAt    = "insert_at"    // module-level: insert Text at byte offset Range.Start (Range.End == Range.Start)
)

// Op is one explicit edit of a file, by byte range.
type Op struct {
	Kind  string     `json:"kind"`
	Range span.Range `json:"range"`
	Text  []byte     `json:"text"`
}

// Apply returns src with ops applied. Ranges are byte offsets into src; they
// must lie within src, start and end on rune boundaries, and not overlap.
// Bytes outside the ranges are kept exactly. For OpInsertAfter the new
// definition is placed after the line holding Range.End, separated by one
// blank line (two for top-level Python definitions), indented like the
// existing definition and written with the file's line ending.
func Apply(src []byte, ops ...Op) ([]byte, error) {
	type piece struct {
		at, end int
		text    []byte
	}
	pieces := make([]piece, 0, len(ops))
	eol := lineEnding(src)
	for _, op := range ops {
		r := op.Range
		if err := checkRange(src, r); err != nil {
			return nil, err
		}
		switch op.Kind {
		case OpReplace:
			pieces = append(pieces, piece{r.Start, r.End, op.Text})
		case OpInsertAt:
			if r.Start != r.End {
				return nil, fmt.Errorf("insert_at %s: %w (start must equal end)", r, ErrRange)
			}
			pieces = append(pieces, piece{r.Start, r.Start, op.Text})
		case OpInsertAfter:
			at := r.End
			if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
				at += i + 1
			} else {
				at = len(src)
			}
			indent := lineIndent(src, r.Start)
			text := ConvertEOL(Reindent(op.Text, indent), eol)
			sep := eol
			if indent == "" && bytes.Contains(src[r.Start:r.End], []byte("def ")) {
				sep = eol + eol // PEP 8: two blank lines between top-level definitions
			}
			var b []byte
			if at == len(src) && (len(src) == 0 || src[len(src)-1] != '\n') {
				b = append(b, eol...)
			}
			b = append(b, sep...)
			b = append(b, text...)
			if !bytes.HasSuffix(text, []byte("\n")) {
				b = append(b, eol...)
			}
			pieces = append(pieces, piece{at, at, b})
		default:
			return nil, fmt.Errorf("unknown edit op %q (expected: %s, %s, %s)", op.Kind, OpReplace, OpInsertAfter, OpInsertAt)
		}
	}
	sort.SliceStable(pieces, func(i, j int) bool { return pieces[i].at < pieces[j].at })
	for i := 1; i < len(pieces); i++ {
		if pieces[i].at < pieces[i-1].end {
			return nil, fmt.Errorf("edit ops overlap at byte %d: %w", pieces[i].at, ErrRange)
		}
	}
	out := make([]byte, 0, len(src)+64)
	last := 0
	for _, p := range pieces {
		out = append(out, src[last:p.at]...)
		out = append(out, p.text...)
		last = p.end
	}
	return append(out, src[last:]...), nil
}

func checkRange(src []byte, r span.Range) error {
	if !r.Valid(len(src)) {
		return fmt.Errorf("range %s in a %d-byte file: %w", r, len(src), ErrRange)
	}
	if (r.Start < len(src) && !utf8.RuneStart(src[r.Start])) || (r.End < len(src) && !utf8.RuneStart(src[r.End])) {
		return fmt.Errorf("range %s cuts a UTF-8 sequence: %w", r, ErrRange)
	}
	return nil
}

// ApplyFile applies ops to the file at path if its content still hashes to
// expectHash (else an error wrapping ErrStale, nothing written), writes the
// result atomically and returns the previous bytes.
func ApplyFile(path, expectHash string, ops ...Op) (old []byte, err error) {
	old, err = os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("edit %s: %w", path, err)
	}
	if expectHash != "" && Hash(old) != expectHash {
		return nil, fmt.Errorf("edit %s: %w", path, ErrStale)
	}
	out, err := Apply(old, ops...)
	if err != nil {
		return nil, fmt.Errorf("edit %s: %w", path, err)
	}
	if err := WriteFileAtomic(path, out, 0o644); err != nil {
		return nil, err
	}
	return old, nil
}

// ReplaceDef replaces exactly the bytes [r.Start, r.End) of path with newSrc,
// if the file still hashes to expectHash (else ErrStale). It returns the
// file's previous content.
func ReplaceDef(path string, r span.Range, expectHash string, newSrc []byte) (old []byte, err error) {
	return ApplyFile(path, expectHash, Op{Kind: OpReplace, Range: r, Text: newSrc})
}

// InsertAfter adds newSrc as a new definition after the definition at r.
func InsertAfter(path string, r span.Range, expectHash string, newSrc []byte) (old []byte, err error) {
	return ApplyFile(path, expectHash, Op{Kind: OpInsertAfter, Range: r, Text: newSrc})
}

// lineEnding is "\r\n" if the first line ending of src is CRLF, else "\n".
func lineEnding(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// lineIndent is the whitespace between the start of off's line and off, if
// only whitespace precedes off on its line; "" otherwise.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	pre := src[start:off]
	if len(bytes.TrimLeft(pre, " \t")) != 0 {
		return ""
	}
	return string(pre)
}
