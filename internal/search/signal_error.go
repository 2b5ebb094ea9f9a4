package search

import (
	"bytes"
	"context"
	"sort"
	"strings"
)

// errorFragRE splits an error message into its literal parts: quoted
// values, numbers and brackets vary from run to run, the words around them
// are written in the source.
var errorFragRE = lazyRegexp(`'[^']*'|"[^"]*"|` + "`[^`]*`" + `|\b\d+(?:\.\d+)?\b|[(){}\[\]<>:=,]`)

// errorFragments returns the literal fragments of error messages worth
// searching for, longest first: at least two words and 12 characters.
func errorFragments(msgs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		for _, f := range errorFragRE().Split(m, -1) {
			f = strings.TrimSpace(f)
			f = strings.Trim(f, ".!;")
			f = strings.TrimSpace(f)
			if len(f) < 12 || len(strings.Fields(f)) < 2 || seen[f] {
				continue
			}
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	if len(out) > maxErrorFrags {
		out = out[:maxErrorFrags]
	}
	return out
}

// scoreErrors credits the definitions whose source holds a literal fragment
// of an error message quoted in the task (the traceback signal at
// ErrorMessageScore): the code that raises an error is where its message is
// written. Candidate files are those holding the fragment's rarest word.
func (c *Corpus) scoreErrors(ctx context.Context, qi queryInfo, cands, fileC []candidate) error {
	frags := errorFragments(qi.ex.Errors)
	srcs := map[int32][]byte{} // files read from disk, once each per search
	for _, frag := range frags {
		if err := ctx.Err(); err != nil {
			return err
		}
		var offs []ContentMatch
		if c.idents != nil {
			rare := ""
			for _, w := range identRE().FindAllString(frag, -1) {
				if p := c.idents[w]; p != nil && (rare == "" || len(p.files) < len(c.idents[rare].files)) {
					rare = w
				}
			}
			if rare == "" {
				continue
			}
			needle := []byte(frag)
			for _, fi := range c.idents[rare].files {
				src, ok := srcs[fi]
				if !ok {
					src = c.source(int(fi))
					srcs[fi] = src
				}
				for from := 0; from < len(src); {
					j := bytes.Index(src[from:], needle)
					if j < 0 {
						break
					}
					offs = append(offs, ContentMatch{Path: c.files[fi].path, Offset: from + j, Term: frag})
					from += j + len(needle)
				}
			}
		} else {
			ms, err := grepFixed(ctx, c.root, frag, c.allPaths)
			if err != nil {
				return err
			}
			offs = ms
		}
		if len(offs) > 10 {
			continue // a fragment found everywhere is boilerplate, not a raise site
		}
		why := "holds the quoted error message \"" + frag + "\""
		for _, m := range offs {
			fi, ok := c.fileIdx[m.Path]
			if !ok || c.files[fi].isTest && !qi.aboutTests {
				continue // a test's assertion message points at the test, not the code
			}
			if fileC[fi].tb < ErrorMessageScore {
				fileC[fi].tb, fileC[fi].tbWhy = ErrorMessageScore, why
			}
			if di := c.innermost(fi, m.Offset); di >= 0 && cands[di].tb < ErrorMessageScore {
				cands[di].tb, cands[di].tbWhy = ErrorMessageScore, why
			}
		}
	}
	return nil
}
