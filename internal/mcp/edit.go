package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/span"
)

// editFunction replaces one whole definition the way grit fix does: the
// quality monitor decides (and repairs indentation, line endings, fences),
// the file must still be the bytes the index saw, a snapshot is taken, the
// byte range is swapped and the file written atomically, then re-indexed. It
// holds the server's exclusive lock throughout.
func (s *Server) editFunction(ctx context.Context, in editIn) (string, error) {
	if strings.TrimSpace(in.NewSource) == "" {
		return "", fixf("edit_function needs new_source: the whole new definition, signature line included.")
	}
	ix, release, err := s.write(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	defs, err := s.lookup(ctx, ix, in.Name)
	if err != nil {
		return "", err
	}
	if len(defs) > 1 {
		var b strings.Builder
		fmt.Fprintf(&b, "%s names %d definitions; give one as path::qname:", in.Name, len(defs))
		for i, d := range defs {
			if i == 20 {
				fmt.Fprintf(&b, "\n  … %d more", len(defs)-20)
				break
			}
			fmt.Fprintf(&b, "\n  %s::%s (%s, lines %d-%d)", d.Path, d.QName, d.Kind, d.StartLine, d.EndLine)
		}
		return "", fixf("%s", b.String())
	}
	d := defs[0]
	data, err := s.readFile(d.Path)
	if err != nil {
		return "", fixf("%s cannot be read for editing: %v", d.Path, err)
	}
	if f, err := ix.File(ctx, d.Path); err != nil || f.Hash != edit.Hash(data) {
		// Changed between the refresh and now: index this file again.
		if err := ix.UpdateFiles(ctx, d.Path); err != nil {
			return "", fmt.Errorf("re-index %s: %w", d.Path, err)
		}
		if defs, err = s.lookup(ctx, ix, d.Path+"::"+d.QName); err != nil {
			return "", err
		}
		d = defs[0]
		if f, err := ix.File(ctx, d.Path); err != nil || f.Hash != edit.Hash(data) {
			return "", fixf("%s is changing on disk right now; call edit_function again.", d.Path)
		}
	}
	r := span.Range{Start: d.Start, End: d.End}
	if !r.Valid(len(data)) {
		return "", fmt.Errorf("%s: range %s outside %s (%d bytes): %w", d.QName, r, d.Path, len(data), index.ErrStale)
	}
	orig := edit.Original{Path: d.Path, Lang: d.Lang, Name: d.Name, File: data, Range: r}
	v := edit.Check(ctx, orig, in.NewSource, edit.CheckOptions{
		Parse:                app.EditParse,
		AllowSignatureChange: in.AllowSignatureChange,
		AllowShorter:         in.AllowShorter,
	})
	if !v.Accept {
		hint := ""
		switch v.Code {
		case edit.CodeSignature:
			hint = " If the task needs the new signature, call again with allow_signature_change: true."
		case edit.CodeShorter:
			hint = " If the code really should go, call again with allow_shorter: true."
		}
		return "", fixf("edit_function rejected %s::%s (%s): %s%s Nothing was written.", d.Path, d.QName, v.Code, v.Reason, hint)
	}
	snap, err := edit.NewSnapshot(s.root, "mcp edit_function "+d.Path+"::"+d.QName)
	if err != nil {
		return "", err
	}
	if err := snap.Save(d.Path); err != nil {
		snap.Discard()
		return "", err
	}
	abs := filepath.Join(s.root, filepath.FromSlash(d.Path))
	if _, err := edit.ReplaceDef(abs, r, edit.Hash(data), v.Source); err != nil {
		snap.Discard()
		if errors.Is(err, edit.ErrStale) {
			return "", fixf("%s changed while it was being edited; nothing was written. Call edit_function again.", d.Path)
		}
		return "", err
	}
	if err := snap.Commit(); err != nil {
		return "", err
	}
	a := newAnswer(in.Budget)
	a.must(fmt.Sprintf("replaced %s %s::%s (was lines %d-%d, bytes [%d,%d))", d.Kind, d.Path, d.QName, d.StartLine, d.EndLine, d.Start, d.End))
	s.gen++ // the file changed, whether or not re-indexing it succeeds
	if err := ix.UpdateFiles(ctx, d.Path); err != nil {
		a.must(fmt.Sprintf("\n[the file was written but could not be re-indexed: %v]", err))
	} else if nd, ok, err := ix.DefAt(ctx, d.Path, d.Start); err == nil && ok {
		a.must(fmt.Sprintf("; now lines %d-%d, bytes [%d,%d)", nd.StartLine, nd.EndLine, nd.Start, nd.End))
	}
	a.must(fmt.Sprintf("\nsnapshot %s taken before the edit: `grit undo` in the repository restores the file\n", snap.ID))
	if len(v.Repairs) > 0 {
		a.must("repairs made to new_source: " + strings.Join(v.Repairs, "; ") + "\n")
	}
	diff := edit.Diff("a/"+d.Path, "b/"+d.Path, data, v.File)
	if !a.add(diff) {
		head, dropped := truncateLines(diff, max(a.room()-10, 0))
		a.must(head)
		a.cutf("the last %s of the diff", plural(dropped, "line", "lines"))
	}
	return a.text(), nil
}
