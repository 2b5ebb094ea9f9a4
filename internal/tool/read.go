package tool

import (
	"bufio"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// Limits of Read.
const (
	readDefaultLimit = 2000    // lines shown when no limit is given
	readLineCut      = 2000    // characters kept of one line
	readMaxBytes     = 64000   // bytes of output
	readMaxTokens    = 16000   // estimated tokens of output
	readMaxFile      = 1 << 30 // bytes hashed; larger files are refused
)

//go:embed read.md
var readMD string

var readDesc = render("read.md", readMD)

// Read shows a text file with numbered lines.
type Read struct{}

type readInput struct {
	FilePath string `json:"file_path" jsonschema:"Path, absolute or relative to the workspace root"`
	Offset   int    `json:"offset,omitempty" jsonschema:"First line to show (1-based)"`
	Limit    int    `json:"limit,omitempty" jsonschema:"Number of lines to show"`
}

func (Read) Name() string        { return "Read" }
func (Read) Description() string { return readDesc() }
func (Read) Schema() json.RawMessage {
	return rawSchema[readInput](func(p map[string]*jsonschema.Schema) {
		Min(1)(p["offset"])
		Min(1)(p["limit"])
	})
}

func (t Read) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (Read) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in readInput
	if err := decode("Read", input, &in); err != nil {
		return Result{}, err
	}
	if in.FilePath == "" {
		return Result{}, fixf(ErrInvalidPath, "Read needs file_path.")
	}
	rel, err := env.resolve(in.FilePath)
	if err != nil {
		return Result{}, err
	}
	if in.Offset < 1 {
		in.Offset = 1
	}
	if in.Limit < 1 {
		in.Limit = readDefaultLimit
	}

	r, err := env.openRoot()
	if err != nil {
		return Result{}, err
	}
	defer r.Close()
	f, fi, err := openRegular(r, rel)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	if ImageType(rel) != "" {
		return readImage(f, rel)
	}
	if fi.Size() > readMaxFile {
		return Result{}, fixf(nil, "%s is too large to read (%d bytes). Use Grep, or Bash with head or sed.", rel, fi.Size())
	}

	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(f, h), 64<<10)
	sniff, _ := br.Peek(binarySniff)
	if isUTF16(sniff) {
		return Result{}, fixf(nil, "%s is UTF-16 text; Read shows UTF-8 text only. Use Bash with iconv to see it.", rel)
	}
	if isBinary(sniff) {
		return Result{}, fixf(nil, "%s is a binary file (%d bytes); Read shows text only.", rel, fi.Size())
	}

	v := &readView{offset: in.Offset, limit: in.Limit}
	size, err := scanLines(ctx, br, v.add)
	if err != nil {
		if ctx.Err() == nil {
			err = fmt.Errorf("read %s: %w", rel, err)
		}
		return Result{}, err
	}
	env.MarkRead(rel, FileState{Size: size, MTime: fi.ModTime().UnixNano(), Hash: hex.EncodeToString(h.Sum(nil))})

	switch {
	case v.lineNo == 0:
		return Result{Content: fmt.Sprintf("(%s is empty)", rel)}, nil
	case in.Offset > v.lineNo:
		return Result{Content: fmt.Sprintf("(%s has %d lines; offset %d is past the end)", rel, v.lineNo, in.Offset)}, nil
	}
	if v.capped || v.more {
		why := "limit reached"
		if v.capped {
			why = fmt.Sprintf("output capped at about %d tokens", readMaxTokens)
		}
		if v.shown == 0 {
			return Result{}, fixf(nil, "line %d of %s is too long to show. Use Bash with cut or head -c.", in.Offset, rel)
		}
		fmt.Fprintf(&v.out, "[%s: lines %d-%d of %d shown; continue with offset=%d]\n", why, in.Offset, v.last, v.lineNo, v.last+1)
	}
	return Result{Content: v.out.String()}, nil
}

// readView collects the numbered lines Read shows: from offset, at most
// limit of them, within readMaxBytes and readMaxTokens, each cut at
// readLineCut characters.
type readView struct {
	offset, limit int
	out           strings.Builder
	lineNo        int // lines seen so far
	shown         int // lines written to out
	last          int // last line number shown
	tokens        int
	capped, more  bool
	cutLines      int
}

// add takes the next line: its first bytes (up to what can be shown) and
// its full length.
func (v *readView) add(line []byte, lineLen int) {
	v.lineNo++
	if v.lineNo < v.offset || v.capped {
		return
	}
	if v.shown >= v.limit {
		v.more = true
		return
	}
	text := strings.TrimSuffix(string(line), "\r")
	cut := false
	if lineLen > len(line) {
		cut = true
	}
	if n := utf8.RuneCountInString(text); n > readLineCut {
		text = truncRunes(text, readLineCut)
		cut = true
	}
	entry := fmt.Sprintf("%6d\t%s", v.lineNo, text)
	if cut {
		entry += fmt.Sprintf(" [… line cut at %d characters; %d bytes in all]", readLineCut, lineLen)
		v.cutLines++
	}
	entry += "\n"
	if v.out.Len()+len(entry) > readMaxBytes || v.tokens+estimateTokens(entry) > readMaxTokens {
		v.capped = true
		return
	}
	v.tokens += estimateTokens(entry)
	v.out.WriteString(entry)
	v.shown++
	v.last = v.lineNo
}

// scanLines reads br line by line and hands each line to emit with its
// full length, keeping only the part that can be shown: memory stays
// bounded on a one-line 100 MB file. It returns the bytes read.
func scanLines(ctx context.Context, br *bufio.Reader, emit func(line []byte, lineLen int)) (int64, error) {
	keep := readLineCut * utf8.UTFMax
	var (
		size    int64
		line    []byte // the current line's first bytes (up to keep)
		lineLen int    // the current line's full length
	)
	for {
		if err := ctx.Err(); err != nil {
			return size, err
		}
		chunk, err := br.ReadSlice('\n')
		size += int64(len(chunk))
		lineLen += len(chunk)
		if room := keep - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			return size, err
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			if lineLen <= keep {
				line = line[:len(line)-1] // the newline fit in what was kept
			}
			lineLen--
			emit(line, lineLen)
			line, lineLen = line[:0], 0
		} else if lineLen > 0 {
			emit(line, lineLen) // last line without a newline
			line, lineLen = line[:0], 0
		}
		if err == io.EOF {
			return size, nil
		}
	}
}

// truncRunes keeps the first n runes of s.
func truncRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// estimateTokens guesses a tokenizer's count: about four ASCII bytes per
// token, and one token per non-ASCII character (CJK, emoji, accents), which
// tokenizers split finely.
func estimateTokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		other++
		i += size
	}
	return (ascii+3)/4 + other
}
