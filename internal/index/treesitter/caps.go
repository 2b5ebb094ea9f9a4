package treesitter

import "fmt"

// Caps on what one file contributes to the index, for every language: a
// file written to hurt (10,000 nested functions) must not make the index,
// its memory or a search grow faster than the file. Definitions beyond a
// cap are left out (their text still belongs to the enclosing definition)
// and `grit index` names the file and the cap.
const (
	// maxDefDepth is the deepest nesting indexed; real code nests a handful
	// of levels, and each level repeats the qualified name of the one above.
	maxDefDepth = 32
	// maxNameBytes bounds one definition's name; longer ones are generated
	// data, not something a person searches for.
	maxNameBytes = 256
	// maxQNameBytes bounds a qualified name (Outer.Inner.name).
	maxQNameBytes = 1024
	// maxDefsPerFile bounds the definitions of one file (a large generated
	// file has a few thousand).
	maxDefsPerFile = 20000
)

// capDefs drops the definitions beyond the caps, with everything nested in
// them, from defs (sorted by start, widest first) and says why, "" when
// nothing was dropped. It runs before qualified names are built, so their
// size is bounded by the caps, never by the file.
func capDefs(defs []rawDef) ([]rawDef, string) {
	type open struct {
		end, qlen int
		dropped   bool
	}
	var (
		stack   []open
		kept    = defs[:0]
		dropped int
		why     string
	)
	for _, rd := range defs {
		d := &rd.d
		for len(stack) > 0 && stack[len(stack)-1].end <= d.Start {
			stack = stack[:len(stack)-1]
		}
		qlen := len(d.Name)
		parentDropped := false
		if rd.receiver != "" {
			qlen += len(rd.receiver) + 1
		} else if len(stack) > 0 {
			top := stack[len(stack)-1]
			qlen += top.qlen + 1
			parentDropped = top.dropped
		}
		var reason string
		switch {
		case parentDropped:
			reason = why
		case len(stack) >= maxDefDepth:
			reason = fmt.Sprintf("definitions nested deeper than %d levels", maxDefDepth)
		case len(d.Name) > maxNameBytes || len(rd.receiver) > maxNameBytes:
			reason = fmt.Sprintf("names longer than %d bytes", maxNameBytes)
		case qlen > maxQNameBytes:
			reason = fmt.Sprintf("qualified names longer than %d bytes", maxQNameBytes)
		case len(kept) >= maxDefsPerFile:
			reason = fmt.Sprintf("more than %d definitions in the file", maxDefsPerFile)
		}
		stack = append(stack, open{end: d.End, qlen: qlen, dropped: reason != ""})
		if reason != "" {
			dropped++
			if why == "" {
				why = reason
			}
			continue
		}
		kept = append(kept, rd)
	}
	if dropped == 0 {
		return kept, ""
	}
	return kept, fmt.Sprintf("%d definitions not indexed (%s)", dropped, why)
}
