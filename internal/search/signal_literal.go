package search

import (
	"bytes"
	"context"
	"strings"
)

// scoreLiterals credits the definitions (and files) that write one of the
// task's hyphenated names as a string literal, at ErrorMessageScore: a
// message id, a flag, a locale or a header is defined, emitted or checked
// where it is quoted. A name quoted in more than maxLiteralFiles code files
// is common vocabulary, not a pointer, and counts nowhere.
func (c *Corpus) scoreLiterals(ctx context.Context, qi queryInfo, cands, fileC []candidate) error {
	if c.idents == nil {
		return nil // the in-process postings find the candidate files; without them, skip
	}
	srcs := map[int32][]byte{}
	for _, lit := range qi.ex.Literals {
		if err := ctx.Err(); err != nil {
			return err
		}
		rare := ""
		for _, w := range strings.Split(lit, "-") {
			if p := c.idents[w]; p == nil {
				rare = ""
				break // a part no file has: no file has the whole
			} else if rare == "" || len(p.files) < len(c.idents[rare].files) {
				rare = w
			}
		}
		if rare == "" {
			continue
		}
		var hits []ContentMatch
		files := 0
		for _, fi := range c.idents[rare].files {
			src, ok := srcs[fi]
			if !ok {
				src = c.source(int(fi))
				srcs[fi] = src
			}
			found := false
			for _, q := range []string{`"`, `'`} {
				needle := []byte(q + lit + q)
				for from := 0; from < len(src); {
					j := bytes.Index(src[from:], needle)
					if j < 0 {
						break
					}
					hits = append(hits, ContentMatch{Path: c.files[fi].path, Offset: from + j + 1, Term: lit})
					found = true
					from += j + len(needle)
				}
			}
			if f := c.files[fi]; found && !f.isTest && !f.isAux {
				files++
			}
		}
		if files == 0 || files > maxLiteralFiles {
			continue
		}
		why := "quotes `" + lit + "` as a string"
		for _, m := range hits {
			fi := c.fileIdx[m.Path]
			if f := c.files[fi]; f.isTest && !qi.aboutTests || f.isAux {
				continue
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
