package tool

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/span"
)

//go:embed editfunction.md
var editFunctionMD string

var editFunctionDesc = render("editfunction.md", editFunctionMD)

// EditFunction replaces one whole definition, found in the index by name,
// by its byte range.
type EditFunction struct{}

type editFunctionInput struct {
	Name      string  `json:"name" jsonschema:"Qualified name (Class.method), or path::qname when ambiguous"`
	NewSource *string `json:"new_source" jsonschema:"The whole new definition, decorators and docstring included"`
}

func (EditFunction) Name() string        { return "EditFunction" }
func (EditFunction) Description() string { return editFunctionDesc() }
func (EditFunction) Kind() Kind          { return KindEdit }
func (EditFunction) Schema() json.RawMessage {
	return rawSchema[editFunctionInput](nil)
}

// Targets is the file of the definition the call names, found in the
// index the same way Run finds it: a file_path in the input, if any, is
// not what gets written and is ignored.
func (EditFunction) Targets(ctx context.Context, env *Env, input json.RawMessage) ([]string, error) {
	var in editFunctionInput
	if err := decode("EditFunction", input, &in); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Name) == "" || env.Index == nil {
		return nil, nil // Run says what is missing
	}
	ix, err := env.Index(ctx)
	if err != nil {
		return nil, fmt.Errorf("edit function: open index: %w", err)
	}
	d, err := lookupOne(ctx, ix, in.Name)
	if err != nil {
		return nil, err
	}
	rel, err := env.resolve(d.Path)
	if err != nil {
		return nil, err
	}
	return []string{env.Abs(rel)}, nil
}

func (t EditFunction) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (EditFunction) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in editFunctionInput
	if err := decode("EditFunction", input, &in); err != nil {
		return Result{}, err
	}
	if strings.TrimSpace(in.Name) == "" || in.NewSource == nil || strings.TrimSpace(*in.NewSource) == "" {
		return Result{}, fixf(nil, "EditFunction needs name and new_source.")
	}
	if env.Index == nil {
		return Result{}, fixf(nil, "EditFunction needs the repository index, which this session does not have. Use Edit.")
	}
	ix, err := env.Index(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("edit function: open index: %w", err)
	}
	d, err := lookupOne(ctx, ix, in.Name)
	if err != nil {
		return Result{}, err
	}
	rel, err := env.resolve(d.Path)
	if err != nil {
		return Result{}, err
	}
	unlock := env.lockFile(rel)
	defer unlock()

	data, fi, err := env.readFile(rel, maxEditSize)
	if err != nil {
		return Result{}, err
	}
	if err := checkFresh(env, rel, data, fi); err != nil {
		return Result{}, err
	}
	// The stored range is only good for the bytes it was computed from.
	if f, err := ix.File(ctx, d.Path); err != nil || f.Hash != edit.Hash(data) {
		if err := ix.UpdateFiles(ctx, d.Path); err != nil {
			return Result{}, fmt.Errorf("edit function: re-index %s: %w", d.Path, err)
		}
		if d, err = lookupOne(ctx, ix, d.Path+"::"+d.QName); err != nil {
			return Result{}, err
		}
		if f, err := ix.File(ctx, d.Path); err != nil || f.Hash != edit.Hash(data) {
			return Result{}, fixf(index.ErrStale, "%s changed while it was being indexed; try again.", rel)
		}
	}
	r := span.Range{Start: d.Start, End: d.End}
	if !r.Valid(len(data)) {
		return Result{}, fmt.Errorf("edit function: %s range %s outside %s (%d bytes): %w", d.QName, r, rel, len(data), index.ErrStale)
	}
	old := data[r.Start:r.End]
	newSrc := fitSource(data, r, *in.NewSource)
	if bytes.Count(newSrc, []byte("\uFFFD")) > bytes.Count(old, []byte("\uFFFD")) {
		return Result{}, fixf(edit.ErrNewFFFD, "new_source contains the replacement character U+FFFD (�), which would corrupt %s. Write the character you mean.", rel)
	}
	if bytes.Equal(newSrc, old) {
		return Result{}, fixf(edit.ErrNoChange, "new_source is the same as %s's current source; nothing to change.", d.QName)
	}
	out, err := edit.Apply(data, edit.Op{Kind: edit.OpReplace, Range: r, Text: newSrc})
	if err != nil {
		return Result{}, fmt.Errorf("edit function %s: %w", d.QName, err)
	}
	target, nfi, err := env.writeFile(rel, out, 0o644, false)
	if err != nil {
		return Result{}, err
	}
	env.MarkRead(rel, stateOf(out, nfi))
	msg := fmt.Sprintf("Replaced %s %s in %s (was lines %d-%d).\n", d.Kind, d.QName, rel, d.StartLine, d.EndLine)
	if err := ix.UpdateFiles(ctx, rel); err != nil {
		msg += fmt.Sprintf("[the index could not be updated: %v]\n", err)
	}
	return Result{Content: msg + snippet(data, out), Changed: []string{target}}, nil
}

// lookupOne finds exactly one definition called name, or says how to pick one.
func lookupOne(ctx context.Context, ix *index.Index, name string) (index.Def, error) {
	defs, err := ix.Lookup(ctx, name)
	if err != nil && !errors.Is(err, index.ErrNotFound) {
		return index.Def{}, fmt.Errorf("edit function: look up %s: %w", name, err)
	}
	switch len(defs) {
	case 0:
		return index.Def{}, fixf(index.ErrNotFound, "No definition named %s in the index. Use Locate or Grep to find its name.", name)
	case 1:
		return defs[0], nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s names %d definitions; give one as path::qname:", name, len(defs))
	for i, d := range defs {
		if i == 10 {
			fmt.Fprintf(&b, "\n  … %d more", len(defs)-10)
			break
		}
		fmt.Fprintf(&b, "\n  %s::%s (%s, lines %d-%d)", d.Path, d.QName, d.Kind, d.StartLine, d.EndLine)
	}
	return index.Def{}, fixf(nil, "%s", b.String())
}

// fitSource shapes the model's new_source for the range r of src: indented
// like the definition it replaces (its first line goes where the old one
// began, after the indentation) and with the file's line endings. Source
// given as the index slices it (first line bare, the rest already at the
// definition's depth) is kept as written.
func fitSource(src []byte, r span.Range, text string) []byte {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.TrimRight(text, "\n")
	if old := src[r.Start:r.End]; bytes.HasSuffix(bytes.ReplaceAll(old, []byte("\r\n"), []byte("\n")), []byte("\n")) {
		text += "\n"
	}
	indent := ""
	if ls := bytes.LastIndexByte(src[:r.Start], '\n') + 1; len(bytes.TrimLeft(src[ls:r.Start], " \t")) == 0 {
		indent = string(src[ls:r.Start])
	}
	out := text
	if indent != "" && !sliceForm(text, string(src[r.Start:r.End]), indent) {
		out = strings.TrimPrefix(string(edit.Reindent([]byte(text), indent)), indent)
	}
	eol := "\n"
	if region := src[r.Start:r.End]; bytes.Contains(region, []byte("\r\n")) ||
		!bytes.Contains(region, []byte("\n")) && bytes.Contains(src, []byte("\r\n")) {
		eol = "\r\n"
	}
	return edit.ConvertEOL([]byte(out), eol)
}

// sliceForm reports whether text is written the way the index slices a
// definition out of the file: a bare first line, the other lines at their
// depth in the file. Otherwise it is taken as dedented (first line and body
// relative to column 0). The two read the same body at different depths;
// the one whose body step matches the old definition's wins.
func sliceForm(text, old, indent string) bool {
	lines := strings.Split(text, "\n")
	if strings.TrimLeft(lines[0], " \t") != lines[0] {
		return false // an indented first line: dedent and re-indent
	}
	m, ok := minIndent(lines[1:])
	if !ok {
		return true // one line
	}
	if m < len(indent) {
		return false
	}
	if om, ok := minIndent(strings.Split(strings.ReplaceAll(old, "\r\n", "\n"), "\n")[1:]); ok {
		oldStep := om - len(indent)
		switch {
		case m-len(indent) == oldStep:
			return true
		case m == oldStep:
			return false
		}
	}
	return m > len(indent)
}

// minIndent is the smallest indentation (bytes of spaces and tabs) of the
// non-blank lines.
func minIndent(lines []string) (int, bool) {
	m, ok := 0, false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if !ok || n < m {
			m, ok = n, true
		}
	}
	return m, ok
}
