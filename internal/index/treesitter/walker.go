package treesitter

/*
#include <stdlib.h>
#include "walk.h"
*/
import "C"

import (
	"fmt"
	"strings"
)

// The generic walk (walk_tree.c, walk_match.c) runs a language's query
// patterns itself, on a flat copy of the tree, instead of the tree-sitter
// query cursor: the same matches for a fraction of the cost. This file reads
// queries/<lang>.scm into the C tables it runs. It knows the part of the
// query language the queries use; a query using more is an error here and
// the language stays on the query cursor (walkerFor says so).

// walkLangs are the languages the generic walk extracts; the others run
// the query cursor. Each is held to the query's output by
// TestWalkerMatchesQuery on the fixtures, and each but Ruby (no Ruby
// repository was at hand) was on every file of real repositories
// (docs/performance-notes.md). PHP's query has a top-level grouping the
// walk does not read; C# and Lua pass the fixtures but met no real code yet.
var walkLangs = map[string]bool{
	"python": true, "go": true, "javascript": true, "typescript": true, "tsx": true,
	"rust": true, "java": true, "c": true, "cpp": true, "ruby": true, "hcl": true, "bash": true,
}

// UseWalker makes Parse extract with the generic walk for the languages
// of walkLangs; false runs the query cursor for them. Set it before parsing
// starts, not while parsers run.
var UseWalker = true

// walkerOf is l's compiled walk when walk is set and l is walked, else nil:
// the query cursor then runs. A query the walk cannot read leaves its
// language on the cursor (TestWalkerReadsQueries keeps that from happening
// to the languages of walkLangs unnoticed).
func (l *language) walkerOf(walk bool) *walker {
	if !walk || !walkLangs[l.name] {
		return nil
	}
	w, err := l.walkerFor()
	if err != nil {
		return nil
	}
	return w
}

// pnode is one node of a parsed pattern.
type pnode struct {
	kind      uint8  // C.GRIT_PAT_*
	typ       string // node type (GRIT_PAT_NODE)
	field     string
	neg       []string
	caps      []string
	optional  bool
	immediate bool // "." before it: the first named child, or the next named sibling
	last      bool // "." after it: the last named child
	kids      []*pnode
}

// scmPattern is one top-level pattern with its text predicates.
type scmPattern struct {
	root  *pnode
	preds []scmPred
}

type scmPred struct {
	name    string // eq?, any-of?, not-any-of?
	capture string
	values  []string
}

// scmParser reads the query language's S-expressions.
type scmParser struct {
	src string
	pos int
}

func (p *scmParser) errorf(format string, args ...any) error {
	line := 1 + strings.Count(p.src[:min(p.pos, len(p.src))], "\n")
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// skip passes white space and ; comments.
func (p *scmParser) skip() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ';':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *scmParser) peek() byte {
	p.skip()
	if p.pos >= len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func isNameByte(c byte, dots bool) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || dots && (c == '.' || c == '?' || c == '!')
}

func (p *scmParser) name(dots bool) string {
	start := p.pos
	for p.pos < len(p.src) && isNameByte(p.src[p.pos], dots) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// parseSCM reads every top-level pattern of a query.
func parseSCM(src string) ([]scmPattern, error) {
	p := &scmParser{src: src}
	var out []scmPattern
	for p.peek() != 0 {
		var preds []scmPred
		n, err := p.pattern(&preds)
		if err != nil {
			return nil, err
		}
		if n.kind != C.GRIT_PAT_NODE {
			return nil, p.errorf("a top-level pattern that is not a node")
		}
		out = append(out, scmPattern{root: n, preds: preds})
	}
	return out, nil
}

// pattern reads one pattern with its quantifier and captures.
func (p *scmParser) pattern(preds *[]scmPred) (*pnode, error) {
	n := &pnode{}
	switch c := p.peek(); {
	case c == '(':
		p.pos++
		p.skip()
		if typ := p.name(false); typ == "_" {
			n.kind = C.GRIT_PAT_NAMED
		} else if typ != "" {
			n.kind, n.typ = C.GRIT_PAT_NODE, typ
		} else {
			return nil, p.errorf("a node pattern without a type")
		}
		if err := p.children(n, preds, ')'); err != nil {
			return nil, err
		}
	case c == '[':
		p.pos++
		n.kind = C.GRIT_PAT_ALT
		for p.peek() != ']' {
			if p.peek() == 0 {
				return nil, p.errorf("unclosed [")
			}
			a, err := p.pattern(preds)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, a)
		}
		p.pos++
	case c == '_':
		p.pos++
		n.kind = C.GRIT_PAT_ANY
	default:
		return nil, p.errorf("unsupported pattern starting with %q", c)
	}
	for {
		switch p.peek() {
		case '?':
			p.pos++
			n.optional = true
			continue
		case '*', '+':
			return nil, p.errorf("quantifiers * and + are not supported by the walk")
		case '@':
			p.pos++
			n.caps = append(n.caps, p.name(true))
			continue
		}
		return n, nil
	}
}

// children reads a node pattern's fields, negated fields, anchors,
// predicates and child patterns up to close.
func (p *scmParser) children(n *pnode, preds *[]scmPred, close byte) error {
	immediate := false
	for {
		c := p.peek()
		switch {
		case c == 0:
			return p.errorf("unclosed (")
		case c == close:
			p.pos++
			if immediate {
				if len(n.kids) == 0 {
					return p.errorf("an anchor in an empty node")
				}
				n.kids[len(n.kids)-1].last = true
			}
			return nil
		case c == '.':
			p.pos++
			immediate = true
		case c == '!':
			p.pos++
			n.neg = append(n.neg, p.name(false))
		case c == '(' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '#':
			p.pos += 2
			pr := scmPred{name: p.name(true)}
			for p.peek() != ')' {
				switch p.peek() {
				case '@':
					p.pos++
					pr.capture = p.name(true)
				case '"':
					s, err := p.str()
					if err != nil {
						return err
					}
					pr.values = append(pr.values, s)
				default:
					return p.errorf("unsupported argument of #%s", pr.name)
				}
			}
			p.pos++
			*preds = append(*preds, pr)
		default:
			field := ""
			if c != '(' && c != '[' {
				save := p.pos
				name := p.name(false)
				if name != "" && p.pos < len(p.src) && p.src[p.pos] == ':' {
					p.pos++
					field = name
				} else {
					p.pos = save // a bare _, or an error pattern reports
				}
			}
			k, err := p.pattern(preds)
			if err != nil {
				return err
			}
			k.field, k.immediate = field, immediate
			immediate = false
			n.kids = append(n.kids, k)
		}
	}
}

// str reads a "quoted" string (escapes \" and \\).
func (p *scmParser) str() (string, error) {
	p.pos++
	var sb strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch c {
		case '"':
			return sb.String(), nil
		case '\\':
			if p.pos < len(p.src) {
				sb.WriteByte(p.src[p.pos])
				p.pos++
			}
		default:
			sb.WriteByte(c)
		}
	}
	return "", p.errorf("unclosed string")
}
