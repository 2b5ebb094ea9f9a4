package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/grit-dev/grit/internal/span"
)

// ContentMatch is one occurrence of a term in a file.
type ContentMatch struct {
	Path   string // slash-separated, relative to the root
	Line   int    // 1-based
	Offset int    // byte offset of the match in the file
	Term   string
}

// maxMatchesPerFile caps what one file can contribute: a term repeated 500
// times in one file says no more than 30 occurrences do.
const maxMatchesPerFile = 30

// RgPath is the ripgrep binary found on PATH, "" when missing.
func RgPath() string {
	p, err := exec.LookPath("rg")
	if err != nil {
		return ""
	}
	return p
}

// GrepTerms finds whole-word, case-sensitive occurrences of terms in files
// (relative paths under root) with `rg --json`, or in process when rg is
// missing. Results are sorted by path, offset, term.
func GrepTerms(ctx context.Context, root string, terms []string, files []string) ([]ContentMatch, error) {
	if len(terms) == 0 || len(files) == 0 {
		return nil, nil
	}
	if rg := RgPath(); rg != "" {
		return grepRg(ctx, rg, root, terms, files, true)
	}
	return grepInProcess(ctx, root, terms, files, true)
}

// grepFixed finds the literal string s anywhere in files (not only as a
// whole word), with rg or in process.
func grepFixed(ctx context.Context, root, s string, files []string) ([]ContentMatch, error) {
	if s == "" || len(files) == 0 {
		return nil, nil
	}
	if rg := RgPath(); rg != "" {
		return grepRg(ctx, rg, root, []string{s}, files, false)
	}
	return grepInProcess(ctx, root, []string{s}, files, false)
}

type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path struct {
			Text string `json:"text"`
		} `json:"path"`
		LineNumber     int `json:"line_number"`
		AbsoluteOffset int `json:"absolute_offset"`
		Submatches     []struct {
			Match struct {
				Text string `json:"text"`
			} `json:"match"`
			Start int `json:"start"`
		} `json:"submatches"`
	} `json:"data"`
}

func grepRg(ctx context.Context, rg, root string, terms, files []string, words bool) ([]ContentMatch, error) {
	args := []string{"--json", "--fixed-strings", "--case-sensitive",
		"--no-config", "--no-ignore", "--hidden", "--max-count", fmt.Sprint(maxMatchesPerFile)}
	if words {
		args = append(args, "--word-regexp")
	}
	for _, t := range terms {
		args = append(args, "-e", t)
	}
	// Restrict to the indexed languages by extension so rg skips data files.
	exts := map[string]bool{}
	for _, f := range files {
		if e := filepath.Ext(f); e != "" {
			exts[e] = true
		}
	}
	var es []string
	for e := range exts {
		es = append(es, e)
	}
	sort.Strings(es)
	for _, e := range es {
		args = append(args, "--glob", "*"+e)
	}
	args = append(args, "--glob", "!.git", "--glob", "!.grit", "--", ".")
	cmd := exec.CommandContext(ctx, rg, args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("rg: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start rg: %w", err)
	}
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f] = true
	}
	var res []ContentMatch
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte(`{"type":"match"`)) {
			continue
		}
		var ev rgEvent
		if err := json.Unmarshal(line, &ev); err != nil {
			continue
		}
		p := filepath.ToSlash(strings.TrimPrefix(ev.Data.Path.Text, "./"))
		if !want[p] {
			continue
		}
		for _, sm := range ev.Data.Submatches {
			res = append(res, ContentMatch{Path: p, Line: ev.Data.LineNumber, Offset: ev.Data.AbsoluteOffset + sm.Start, Term: sm.Match.Text})
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1 = no match
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("rg: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	sortMatches(res)
	return res, nil
}

func sortMatches(res []ContentMatch) {
	sort.Slice(res, func(i, j int) bool {
		a, b := res[i], res[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return a.Term < b.Term
	})
}

// grepInProcess is the fallback without rg: the same whole-word,
// case-sensitive search, over the listed files in parallel.
func grepInProcess(ctx context.Context, root string, terms, files []string, words bool) ([]ContentMatch, error) {
	var mu sync.Mutex
	var res []ContentMatch
	ch := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range ch {
				src, err := span.ReadFile(filepath.Join(root, filepath.FromSlash(f)), 0)
				if err != nil {
					continue
				}
				ms := grepBytes(f, src, terms, words)
				mu.Lock()
				res = append(res, ms...)
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		ch <- f
	}
	close(ch)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sortMatches(res)
	return res, nil
}

// grepBytes finds (whole-word, if words) occurrences of terms in src, at most
// maxMatchesPerFile matching lines, as rg --max-count does.
func grepBytes(path string, src []byte, terms []string, words bool) []ContentMatch {
	var res []ContentMatch
	lines := 0
	lineNo, lineStart := 1, 0
	lastLine := -1
	for lineStart <= len(src) && lines < maxMatchesPerFile {
		end := bytes.IndexByte(src[lineStart:], '\n')
		if end < 0 {
			end = len(src) - lineStart
		}
		line := src[lineStart : lineStart+end]
		for _, t := range terms {
			for off := 0; off < len(line); {
				i := bytes.Index(line[off:], []byte(t))
				if i < 0 {
					break
				}
				s := off + i
				e := s + len(t)
				if !words || (s == 0 || !isWordByte(line[s-1])) && (e == len(line) || !isWordByte(line[e])) {
					res = append(res, ContentMatch{Path: path, Line: lineNo, Offset: lineStart + s, Term: t})
					if lastLine != lineNo {
						lastLine = lineNo
						lines++
					}
				}
				off = s + 1
			}
		}
		lineStart += end + 1
		lineNo++
	}
	return res
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}
