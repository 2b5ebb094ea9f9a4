package edit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Errors of Exact, for callers that turn them into advice.
var (
	ErrEmptyOld   = errors.New("old_string is empty")
	ErrNoChange   = errors.New("old_string and new_string are the same")
	ErrNotFound   = errors.New("old_string not found")
	ErrAmbiguous  = errors.New("old_string matches more than once")
	ErrNewFFFD    = errors.New("new_string adds U+FFFD replacement characters")
	ErrNotUTF8    = errors.New("file is not valid UTF-8 where the edit falls")
	errBadMapping = errors.New("edit: internal mapping error")
)

// MatchError reports how many times old_string matched when that number was
// not acceptable (0, or more than one without replaceAll).
type MatchError struct {
	Count int
	Err   error // ErrNotFound or ErrAmbiguous
}

func (e *MatchError) Error() string {
	if e.Count == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("%v (%d matches)", e.Err, e.Count)
}

func (e *MatchError) Unwrap() error { return e.Err }

const fffd = "\uFFFD"

// Exact replaces old with new in content and returns the new content and the
// number of replacements. old must match exactly once unless replaceAll is
// set (then every non-overlapping match is replaced). Bytes outside the
// matches are never touched.
//
// Matching happens on a view of the file:
//   - when the file has CRLF line endings, on a view with CRLF read as LF,
//     so an old_string written with LF matches; the replacement is written
//     with the line ending of the matched text (the file's dominant one when
//     the match has none);
//   - when the file has invalid UTF-8 and old holds U+FFFD (what a reader
//     of the file was shown for those bytes), each invalid byte matches
//     U+FFFD, and the U+FFFDs new keeps are written back as the original
//     bytes.
//
// new may not hold more U+FFFD than old: Exact never writes a replacement
// character that was not there (ErrNewFFFD).
func Exact(content []byte, old, new string, replaceAll bool) ([]byte, int, error) {
	if old == "" {
		return nil, 0, ErrEmptyOld
	}
	if old == new {
		return nil, 0, ErrNoChange
	}
	if strings.Count(new, fffd) > strings.Count(old, fffd) {
		return nil, 0, ErrNewFFFD
	}
	crlf := bytes.Contains(content, []byte("\r\n"))
	lossy := strings.Contains(old, fffd) && !utf8.Valid(content)

	// The plain byte view first, unless CRLF normalisation applies.
	if !crlf {
		n := bytes.Count(content, []byte(old))
		if n > 0 || !lossy && !strings.Contains(old, "\r\n") {
			if err := checkCount(n, replaceAll); err != nil {
				return nil, n, err
			}
			var out []byte
			if !replaceAll {
				i := bytes.Index(content, []byte(old))
				out = make([]byte, 0, len(content)-len(old)+len(new))
				out = append(append(append(out, content[:i]...), new...), content[i+len(old):]...)
			} else {
				out = bytes.ReplaceAll(content, []byte(old), []byte(new))
			}
			return checkFFFD(content, out, new, n)
		}
	}

	v := newView(content, crlf, lossy)
	vold := old
	if crlf || strings.Contains(old, "\r\n") {
		vold = strings.ReplaceAll(old, "\r\n", "\n")
	}
	var matches []int
	for off := 0; ; {
		i := bytes.Index(v.b[off:], []byte(vold))
		if i < 0 {
			break
		}
		matches = append(matches, off+i)
		off += i + len(vold)
	}
	if err := checkCount(len(matches), replaceAll); err != nil {
		return nil, len(matches), err
	}
	if !replaceAll {
		matches = matches[:1]
	}
	dominant := "\n"
	if crlf && bytes.Count(content, []byte("\r\n"))*2 >= bytes.Count(content, []byte("\n")) {
		dominant = "\r\n"
	}
	var out bytes.Buffer
	out.Grow(len(content) + len(matches)*(len(new)-len(old)+8))
	prev := 0
	for _, m := range matches {
		start, end := v.orig(m), v.orig(m+len(vold))
		if start < prev || end < start || end > len(content) {
			return nil, 0, errBadMapping
		}
		region := content[start:end]
		rep, err := replacement(region, new, dominant, crlf || vold != old, lossy)
		if err != nil {
			return nil, 0, err
		}
		out.Write(content[prev:start])
		out.WriteString(rep)
		prev = end
	}
	out.Write(content[prev:])
	return checkFFFD(content, out.Bytes(), new, len(matches))
}

// checkFFFD refuses an edit whose result has more U+FFFD than the file and
// the replacements brought: joining invalid bytes at a match's edges can
// spell one.
func checkFFFD(content, out []byte, new string, n int) ([]byte, int, error) {
	if bytes.Count(out, []byte(fffd)) > bytes.Count(content, []byte(fffd))+n*strings.Count(new, fffd) {
		return nil, 0, ErrNotUTF8
	}
	return out, n, nil
}

func checkCount(n int, replaceAll bool) error {
	switch {
	case n == 0:
		return &MatchError{Count: 0, Err: ErrNotFound}
	case n > 1 && !replaceAll:
		return &MatchError{Count: n, Err: ErrAmbiguous}
	}
	return nil
}

// replacement is new as it should be written over region: with region's line
// ending (or the dominant one) in a CRLF file, and with region's invalid
// bytes put back where new kept a U+FFFD.
func replacement(region []byte, new, dominant string, crlf, lossy bool) (string, error) {
	if crlf {
		eol := dominant
		if nl := bytes.Count(region, []byte("\n")); nl > 0 {
			if c := bytes.Count(region, []byte("\r\n")); c*2 >= nl {
				eol = "\r\n"
			} else {
				eol = "\n"
			}
		}
		new = strings.ReplaceAll(new, "\r\n", "\n")
		if eol != "\n" {
			new = strings.ReplaceAll(new, "\n", eol)
		}
	}
	if lossy && strings.Contains(new, fffd) {
		var bad [][]byte // region's invalid bytes and real U+FFFDs, in order
		for i := 0; i < len(region); {
			r, size := utf8.DecodeRune(region[i:])
			if r == utf8.RuneError {
				bad = append(bad, region[i:i+size])
			}
			i += size
		}
		var b strings.Builder
		k := 0
		for _, part := range strings.SplitAfter(new, fffd) {
			if !strings.HasSuffix(part, fffd) {
				b.WriteString(part)
				continue
			}
			if k >= len(bad) {
				return "", ErrNotUTF8
			}
			b.WriteString(strings.TrimSuffix(part, fffd))
			b.Write(bad[k])
			k++
		}
		new = b.String()
	}
	return new, nil
}

// view is content as matched: CRLF read as LF, invalid bytes read as U+FFFD.
// pos maps each view offset to the content offset it came from, plus one
// final entry for the end.
type view struct {
	b   []byte
	pos []int
}

func newView(content []byte, crlf, lossy bool) *view {
	v := &view{b: make([]byte, 0, len(content)+16), pos: make([]int, 0, len(content)+17)}
	for i := 0; i < len(content); {
		if crlf && content[i] == '\r' && i+1 < len(content) && content[i+1] == '\n' {
			v.b = append(v.b, '\n')
			v.pos = append(v.pos, i)
			i += 2
			continue
		}
		if lossy && content[i] >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(content[i:])
			if r == utf8.RuneError && size == 1 {
				v.b = append(v.b, fffd...)
				v.pos = append(v.pos, i, i, i)
				i++
				continue
			}
			for k := range size {
				v.b = append(v.b, content[i+k])
				v.pos = append(v.pos, i+k)
			}
			i += size
			continue
		}
		v.b = append(v.b, content[i])
		v.pos = append(v.pos, i)
		i++
	}
	v.pos = append(v.pos, len(content))
	return v
}

// orig maps a view offset to a content offset. An offset inside a U+FFFD
// that stands for one invalid byte maps to that byte; the end of a match maps
// to the start of what follows it, so a CRLF or invalid byte at a match's end
// is inside the match.
func (v *view) orig(off int) int { return v.pos[off] }
