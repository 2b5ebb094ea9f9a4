package treesitter

import "bytes"

// A C function whose header the preprocessor chooses,
//
//	#ifdef WIN32
//	int umain(int argc, char *argv[]) {
//	#else
//	int main(int argc, char *argv[]) {
//	#endif
//
// reads to a parser as two headers and one body too many braces: the
// function and often everything after it end up in an error node. Like
// ctags, the parser follows only the first branch of a conditional whose
// branch leaves braces unbalanced: the other branches and the directives
// are blanked (spaces of the same length, lines kept), so offsets stay the
// source's.

// blankUnbalancedElse returns src with the #elif/#else branches and the
// directives of every conditional whose first branch opens or closes more
// braces than it closes or opens blanked, or src itself when there are none.
func blankUnbalancedElse(src []byte) []byte {
	if !bytes.Contains(src, []byte("#else")) && !bytes.Contains(src, []byte("#elif")) {
		return src
	}
	type group struct {
		ifAt   int // the opening directive's line: start and end
		ifEnd  int
		braces int  // net braces of the first branch so far
		first  bool // still in the first branch
		blank  bool // blanking the branch being read
		elseAt int  // where the blanked part began
	}
	out := src
	var stack []group
	blankRange := func(from, to int) {
		if &out[0] == &src[0] {
			out = append([]byte(nil), src...)
		}
		for k := from; k < to; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	lineStart := true
	for i := 0; i < len(src); {
		next, newline := skipBlank(src, i)
		lineStart = lineStart || newline
		if i = next; i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '#' && lineStart:
			end := skipPreprocessor(src, i)
			switch directive(src[i+1 : end]) {
			case "if", "ifdef", "ifndef":
				stack = append(stack, group{ifAt: i, ifEnd: end, first: true})
			case "elif", "else":
				if n := len(stack); n > 0 {
					g := &stack[n-1]
					if g.first && g.braces != 0 {
						g.blank, g.elseAt = true, i
					}
					g.first = false
				}
			case "endif":
				if n := len(stack); n > 0 {
					if g := stack[n-1]; g.blank {
						// The directives go too: a function cannot
						// straddle them in the grammar.
						blankRange(g.ifAt, g.ifEnd)
						blankRange(g.elseAt, end)
					}
					stack = stack[:n-1]
				}
			}
			i = end
			continue
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
			lineStart = false
			continue
		}
		lineStart = false
		if c == '{' || c == '}' {
			d := 1
			if c == '}' {
				d = -1
			}
			// A brace counts for the groups whose first branch holds it:
			// the innermost ones up to one read in a later branch.
			for k := len(stack) - 1; k >= 0 && stack[k].first; k-- {
				stack[k].braces += d
			}
		}
		i++
	}
	return out
}

// directive is a preprocessor line's directive name ("if", "else", …),
// given the text after its '#'.
func directive(line []byte) string {
	line = bytes.TrimLeft(line, " \t")
	j := 0
	for j < len(line) && isIdentByte(line[j]) {
		j++
	}
	return string(line[:j])
}
