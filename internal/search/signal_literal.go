package search

import (
	"bytes"
	"context"
	"slices"
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
		cand := c.literalFiles(lit, qi.aboutTests)
		if len(cand) > maxLiteralScan {
			continue // its words are everywhere: not worth the reads
		}
		type quote struct{ file, off int }
		var hits []quote
		files := 0
		for _, fi := range cand {
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
					hits = append(hits, quote{int(fi), from + j + 1})
					found = true
					from += j + len(needle)
				}
			}
			if found && !c.files[fi].isTest {
				files++ // a test's quote is credited when the task is about tests, but not counted
			}
		}
		if files == 0 || files > maxLiteralFiles {
			continue
		}
		why := "quotes `" + lit + "` as a string"
		for _, m := range hits {
			if fi := m.file; fileC[fi].tb < ErrorMessageScore {
				fileC[fi].tb, fileC[fi].tbWhy = ErrorMessageScore, why
			}
			if di := c.innermost(m.file, m.off); di >= 0 && cands[di].tb < ErrorMessageScore {
				cands[di].tb, cands[di].tbWhy = ErrorMessageScore, why
			}
		}
	}
	return nil
}

// literalFiles are the files that could quote lit: those holding each of
// its words as an identifier (the postings are sorted), less the tests
// unless the task is about tests and the documentation, whose quotes do
// not count.
func (c *Corpus) literalFiles(lit string, aboutTests bool) []int32 {
	var posts [][]int32
	for _, w := range strings.Split(lit, "-") {
		p := c.idents[w]
		if p == nil {
			return nil // a word no file has: no file has the whole
		}
		posts = append(posts, p.files)
	}
	slices.SortFunc(posts, func(a, b []int32) int { return len(a) - len(b) })
	var out []int32
next:
	for _, fi := range posts[0] {
		if f := c.files[fi]; f.isAux || f.isTest && !aboutTests {
			continue
		}
		for _, p := range posts[1:] {
			if _, ok := slices.BinarySearch(p, fi); !ok {
				continue next
			}
		}
		out = append(out, fi)
	}
	return out
}
