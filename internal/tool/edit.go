package tool

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
)

//go:embed edit.md
var editMD string

var editDesc = render("edit.md", editMD)

// Edit replaces exact text in a file the model has read.
type Edit struct{}

type editInput struct {
	FilePath   string `json:"file_path" jsonschema:"Path, absolute or relative to the workspace root"`
	OldString  string `json:"old_string" jsonschema:"Exact text to replace"`
	NewString  string `json:"new_string" jsonschema:"Replacement text"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"Replace every match (default false)"`
}

func (Edit) Name() string        { return "Edit" }
func (Edit) Description() string { return editDesc() }
func (Edit) Kind() Kind          { return KindEdit }
func (Edit) Schema() json.RawMessage {
	return rawSchema[editInput](nil)
}

func (t Edit) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (Edit) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in editInput
	if err := decode("Edit", input, &in); err != nil {
		return Result{}, err
	}
	if in.FilePath == "" {
		return Result{}, fixf(ErrInvalidPath, "Edit needs file_path.")
	}
	rel, err := env.resolve(in.FilePath)
	if err != nil {
		return Result{}, err
	}
	unlock := env.lockFile(rel)
	defer unlock()

	data, fi, err := env.readFile(rel, maxEditSize)
	if in.OldString == "" {
		// Claude Code's convention: an empty old_string creates a new file.
		if errors.Is(err, fs.ErrNotExist) {
			return writeNew(env, rel, in.NewString)
		}
		if err == nil {
			return Result{}, fixf(edit.ErrEmptyOld, "old_string is empty but %s exists. Put the text to replace in old_string, or use Write to replace the whole file.", rel)
		}
	}
	if err != nil {
		return Result{}, err
	}
	if err := checkFresh(env, rel, data, fi); err != nil {
		return Result{}, err
	}
	if isUTF16(data) {
		return Result{}, fixf(nil, "%s is UTF-16; Edit changes UTF-8 (or other ASCII-compatible) text only. Use Bash for this file.", rel)
	}
	if isBinary(data) {
		return Result{}, fixf(nil, "%s is a binary file; Edit changes text only.", rel)
	}
	out, n, err := edit.Exact(data, in.OldString, in.NewString, in.ReplaceAll)
	if err != nil {
		return Result{}, exactErr(rel, err)
	}
	target, nfi, err := env.writeFile(rel, out, 0o644, false)
	if err != nil {
		return Result{}, err
	}
	env.MarkRead(rel, stateOf(out, nfi))
	if target != rel {
		env.MarkRead(target, stateOf(out, nfi))
	}
	msg := fmt.Sprintf("Edited %s", rel)
	if n > 1 {
		msg += fmt.Sprintf(" (%d replacements)", n)
	}
	return Result{Content: msg + ".\n" + snippet(data, out), Changed: []string{target}}, nil
}

// checkFresh refuses a change to a file the model has not read, or that
// changed since (compared by content: a touch that keeps the bytes is fine).
func checkFresh(env *Env, rel string, data []byte, fi fs.FileInfo) error {
	st, ok := env.ReadState(rel)
	if !ok {
		return fixf(ErrNotRead, "%s has not been read yet. Read it first, then edit it.", rel)
	}
	if cur := stateOf(data, fi); cur.Size != st.Size || cur.Hash != st.Hash {
		return fixf(ErrStale, "%s was modified since it was read (by the user, a tool or another session). Read it again, then redo the edit.", rel)
	}
	return nil
}

// exactErr turns edit.Exact's errors into advice.
func exactErr(rel string, err error) error {
	var me *edit.MatchError
	switch {
	case errors.As(err, &me) && me.Count == 0:
		return fixf(err, "old_string was not found in %s. It must match exactly, including whitespace and indentation; Read the file again and copy the text.", rel)
	case errors.As(err, &me):
		return fixf(err, "old_string matches %d places in %s. Add surrounding lines to make it unique, or set replace_all to true to change every one.", me.Count, rel)
	case errors.Is(err, edit.ErrNoChange):
		return fixf(err, "old_string and new_string are the same; nothing to change.")
	case errors.Is(err, edit.ErrNewFFFD):
		return fixf(err, "new_string contains the replacement character U+FFFD (�), which would corrupt %s. Write the character you mean, or use Bash for a byte-exact change.", rel)
	case errors.Is(err, edit.ErrNotUTF8):
		return fixf(err, "%s has bytes that are not valid UTF-8 next to this edit, and the edit would garble them. Use Bash (sed, python) for a byte-exact change.", rel)
	case errors.Is(err, edit.ErrEmptyOld):
		return fixf(err, "old_string is empty. Put the text to replace in old_string.")
	}
	return err
}

// writeNew creates rel (Edit with empty old_string, or Write of a new file).
func writeNew(env *Env, rel, content string) (Result, error) {
	target, fi, err := env.writeFile(rel, []byte(content), 0o644, true)
	if err != nil {
		return Result{}, err
	}
	env.MarkRead(rel, stateOf([]byte(content), fi))
	return Result{Content: fmt.Sprintf("Created %s (%d bytes).", rel, len(content)), Changed: []string{target}}, nil
}

// snippet shows the changed lines of after, numbered, with a little context:
// the model sees what it wrote without reading the file again.
func snippet(before, after []byte) string {
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	first := bytes.Count(after[:p], []byte("\n")) + 1
	lastLine := bytes.Count(after[:len(after)-s], []byte("\n")) + 1
	from, to := max(1, first-2), lastLine+2
	const maxLines = 12
	lines := strings.Split(string(after), "\n")
	if to > len(lines) {
		to = len(lines)
	}
	var b strings.Builder
	for n := from; n <= to && n-from < maxLines; n++ {
		text := strings.TrimSuffix(lines[n-1], "\r")
		if len(text) > 200 {
			text = truncRunes(text, 200) + " […]"
		}
		fmt.Fprintf(&b, "%6d\t%s\n", n, text)
	}
	if to-from+1 > maxLines {
		fmt.Fprintf(&b, "[… %d more changed lines]\n", to-from+1-maxLines)
	}
	return b.String()
}
