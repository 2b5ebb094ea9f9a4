package edit

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/span"
)

// corpusFS is the edit-robustness corpus: realistic small-model replies to
// "rewrite this function", each with the verdict the monitor should reach.
//
//go:embed testdata/corpus/*.txtar
var corpusFS embed.FS

// Case is one corpus entry: a file, the definition to rewrite, a reply and
// the expected verdict code.
type Case struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`   // the damage: fenced, elided, truncated, crlf, ...
	Expect string `json:"expect"` // a Code* constant
	Task   string `json:"task"`
	Note   string `json:"note,omitempty"`
	Stop   string `json:"stop,omitempty"`
	Allow  string `json:"allow,omitempty"` // "signature", "shorter"
	Orig   Original
	Reply  string
	// Search is what a model answering in SEARCH/REPLACE blocks would quote
	// as SEARCH: the original with the reply's own damage (indentation, line
	// endings, elisions).
	Search string
}

// Corpus loads the embedded corpus.
func Corpus() ([]Case, error) { return LoadCorpus(corpusFS, "testdata/corpus") }

// LoadCorpus reads every *.txtar in dir of fsys. Each archive's comment holds
// "key: value" lines (expect, kind, lang, name, path, task, and optionally
// stop, allow, crlf = file|reply|both, note); its files are "file" (the
// whole source file), "original" (the definition, found once in file),
// "reply" and optionally "search".
func LoadCorpus(fsys fs.FS, dir string) ([]Case, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Case
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		c, err := parseCase(strings.TrimSuffix(path.Base(name), ".txtar"), data)
		if err != nil {
			return nil, fmt.Errorf("corpus %s: %w", name, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func parseCase(name string, data []byte) (Case, error) {
	ar := txtar.Parse(data)
	meta := map[string]string{}
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	c := Case{Name: name, Kind: meta["kind"], Expect: meta["expect"], Task: meta["task"], Note: meta["note"], Stop: meta["stop"], Allow: meta["allow"]}
	file, orig := files["file"], strings.TrimSuffix(files["original"], "\n")
	reply := strings.TrimSuffix(files["reply"], "\n")
	if c.Expect == "" || meta["lang"] == "" || meta["name"] == "" || orig == "" || reply == "" {
		return c, fmt.Errorf("needs expect, lang, name, an original and a reply")
	}
	if file == "" {
		file = orig + "\n"
	}
	switch meta["crlf"] {
	case "file":
		file, orig = toCRLF(file), toCRLF(orig)
	case "reply":
		reply = toCRLF(reply)
	case "both":
		file, orig, reply = toCRLF(file), toCRLF(orig), toCRLF(reply)
	case "":
	default:
		return c, fmt.Errorf("crlf %q (expected: file, reply, both)", meta["crlf"])
	}
	if strings.Count(file, orig) != 1 {
		return c, fmt.Errorf("the original occurs %d times in the file, want once", strings.Count(file, orig))
	}
	start := strings.Index(file, orig)
	c.Orig = Original{Path: meta["path"], Lang: meta["lang"], Name: meta["name"], File: []byte(file), Range: span.Range{Start: start, End: start + len(orig)}}
	c.Reply = reply
	if s, ok := files["search"]; ok {
		c.Search = strings.TrimSuffix(s, "\n")
		if meta["crlf"] == "reply" || meta["crlf"] == "both" {
			c.Search = toCRLF(c.Search)
		}
	} else {
		c.Search = quoteLike(c.Orig, reply)
	}
	return c, nil
}

func toCRLF(s string) string { return string(ConvertEOL([]byte(s), "\r\n")) }

// quoteLike renders the original definition the way the reply writes code:
// its first line's indentation, its indent style and its line endings. That
// is what a model answering in SEARCH/REPLACE blocks would quote.
func quoteLike(orig Original, reply string) string {
	ex := extract(strings.ReplaceAll(reply, "\r\n", "\n"), orig.Lang, orig.Name)
	if ex.code == "" {
		return ""
	}
	src := strings.ReplaceAll(string(orig.Source()), "\r\n", "\n")
	// The original's first line sits at its column in the file; quote it whole.
	src = lineIndent(orig.File, orig.Range.Start) + src
	body := string(Dedent([]byte(src)))
	if want, ok := detectIndent(ex.code); ok {
		if have, ok := detectIndent(body); ok && want != have {
			body = convertIndent(body, have, want)
		}
	}
	out := string(Reindent([]byte(body), leading(ex.firstLine)))
	if strings.Contains(reply, "\r\n") {
		out = toCRLF(out)
	}
	return out
}

// BenchRow is one corpus case's outcome.
type BenchRow struct {
	Case        string   `json:"case"`
	Kind        string   `json:"kind"`
	Expect      string   `json:"expect"`
	Got         string   `json:"got"`
	Right       bool     `json:"right"`
	Reason      string   `json:"reason"`
	Repairs     []string `json:"repairs,omitempty"`
	ExactPlaced bool     `json:"exact_placed"` // a plain exact-match SEARCH/REPLACE applier finds SEARCH exactly once
}

// BenchResult summarises the corpus.
type BenchResult struct {
	Cases       int `json:"cases"`
	Right       int `json:"right"`        // verdicts equal to the expected code
	Good        int `json:"good"`         // cases whose expected verdict is ok
	ExactFailed int `json:"exact_failed"` // cases where the exact applier cannot place SEARCH
	// ExactFailedGood counts good replies (expected ok) the exact applier
	// cannot place: edits the monitor saves and SEARCH/REPLACE loses.
	ExactFailedGood int        `json:"exact_failed_good"`
	Rows            []BenchRow `json:"rows"`
}

// Bench runs the monitor over cases and, for comparison, a plain exact-match
// applier over the same replies as SEARCH/REPLACE blocks.
func Bench(ctx context.Context, cases []Case, parse ParseFunc) BenchResult {
	var res BenchResult
	for _, c := range cases {
		v := Check(ctx, c.Orig, c.Reply, CheckOptions{
			StopReason:           c.Stop,
			AllowSignatureChange: c.Allow == "signature",
			AllowShorter:         c.Allow == "shorter",
			Parse:                parse,
			Extras:               true, // as grit fix checks replies
		})
		row := BenchRow{Case: c.Name, Kind: c.Kind, Expect: c.Expect, Got: v.Code, Right: v.Code == c.Expect, Reason: v.Reason, Repairs: v.Repairs}
		row.ExactPlaced = c.Search != "" && strings.Count(string(c.Orig.File), c.Search) == 1
		res.Cases++
		if row.Right {
			res.Right++
		}
		if c.Expect == CodeOK {
			res.Good++
		}
		if !row.ExactPlaced {
			res.ExactFailed++
			if c.Expect == CodeOK {
				res.ExactFailedGood++
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res
}
