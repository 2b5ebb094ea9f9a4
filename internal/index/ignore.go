package index

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"regexp"
	"strings"
)

// skipDirs are vendored, generated or tool trees never indexed.
var skipDirs = map[string]bool{
	".git": true, ".grit": true, ".hg": true, ".svn": true,
	"node_modules": true, "bower_components": true, "vendor": true,
	".venv": true, "venv": true, "__pycache__": true, ".tox": true, ".nox": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, ".eggs": true,
	"dist": true, "build": true, "target": true, "site-packages": true,
}

// ignoreRule is one line of a .gitignore-style file.
type ignoreRule struct {
	negate  bool
	dirOnly bool
	// A pattern without a slash matches a path's last component; the common
	// shapes are compared as strings, as a regexp on every path of a large
	// tree is most of a warm run's time.
	base bool
	kind ruleKind
	lit  string         // ruleExact, ruleSuffix, rulePrefix; for ruleRegexp a literal every match contains
	re   *regexp.Regexp // ruleRegexp: against the last component if base, else the path
}

type ruleKind uint8

const (
	ruleRegexp ruleKind = iota
	ruleExact           // "MANIFEST", "/build/", "docs/out.txt"
	ruleSuffix          // "*.pyc"
	rulePrefix          // "tmp*"
)

func (r *ignoreRule) matches(p, base string) bool {
	s := p
	if r.base {
		s = base
	}
	switch r.kind {
	case ruleExact:
		return s == r.lit
	case ruleSuffix:
		return strings.HasSuffix(s, r.lit)
	case rulePrefix:
		return strings.HasPrefix(s, r.lit)
	}
	if !strings.Contains(s, r.lit) {
		return false // most paths lack the pattern's literal part: no regexp run
	}
	return r.re.MatchString(s)
}

// ignoreFile is the rules of one ignore file, relative to its directory.
type ignoreFile struct {
	dir    string // slash path of the directory, "" for the root
	prefix string // dir + "/", "" for the root
	rules  []ignoreRule
}

// ignorer holds the stack of ignore files that apply to the directory being walked.
type ignorer struct {
	files []*ignoreFile
}

// match reports whether rel (slash path from the root) is ignored.
func (ig *ignorer) match(rel string, isDir bool) bool {
	ignored := false
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	for _, f := range ig.files {
		p := rel
		if f.prefix != "" {
			if !strings.HasPrefix(rel, f.prefix) {
				continue
			}
			p = rel[len(f.prefix):]
		}
		for i := range f.rules {
			r := &f.rules[i]
			if r.dirOnly && !isDir || ignored == !r.negate {
				continue // cannot change the outcome
			}
			if r.matches(p, base) {
				ignored = !r.negate
			}
		}
	}
	return ignored
}

// loadIgnore reads an ignore file; a missing file gives nil.
func loadIgnore(file, dir string) *ignoreFile {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	f := parseIgnore(data, dir)
	if len(f.rules) == 0 {
		return nil
	}
	return f
}

func parseIgnore(data []byte, dir string) *ignoreFile {
	f := &ignoreFile{dir: dir}
	if dir != "" {
		f.prefix = dir + "/"
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasSuffix(line, "\\ ") {
			line = strings.TrimRight(line, " ")
		}
		var r ignoreRule
		if strings.HasPrefix(line, "!") {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, "\\!") || strings.HasPrefix(line, "\\#") {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		// Without a slash (and so without **) a pattern cannot span
		// components: it matches the last one.
		r.base = !anchored && !strings.Contains(line, "**")
		const meta = `*?[\`
		switch {
		case !strings.ContainsAny(line, meta):
			// A name, or a path from the ignore file's directory
			// ("/target/", "docs/out.txt"): one string comparison, and no
			// regexp compiled on every walk.
			r.kind, r.lit = ruleExact, line
		case r.base && line[0] == '*' && !strings.ContainsAny(line[1:], meta):
			r.kind, r.lit = ruleSuffix, line[1:]
		case r.base && line[len(line)-1] == '*' && !strings.ContainsAny(line[:len(line)-1], meta):
			r.kind, r.lit = rulePrefix, line[:len(line)-1]
		default:
			body := "^" + globRegexp(line) + "$"
			if !anchored && !r.base {
				body = "(?:^|/)" + body[1:] // a ** pattern without a slash
			}
			re, err := regexp.Compile(body)
			if err != nil {
				continue // an unreadable pattern ignores nothing, as in git
			}
			r.re = re
			r.lit = longestLiteral(line)
		}
		f.rules = append(f.rules, r)
	}
	return f
}

// longestLiteral is the longest run of a glob's characters that every
// match contains verbatim ("" if none).
func longestLiteral(g string) string {
	best, start := "", 0
	end := func(i int) {
		if i-start > len(best) {
			best = g[start:i]
		}
	}
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '*', '?':
			end(i)
			start = i + 1
		case '[', '\\':
			end(i)
			if g[i] == '[' {
				if j := strings.IndexByte(g[i+1:], ']'); j >= 0 {
					i += j + 1
				}
			} else {
				i++ // the escaped character
			}
			start = i + 1
		}
	}
	end(len(g))
	return best
}

// globRegexp translates a gitignore glob into a regexp body.
func globRegexp(g string) string {
	var sb strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '*' && strings.HasPrefix(g[i:], "**/"):
			sb.WriteString("(?:.*/)?")
			i += 2
		case c == '*' && strings.HasPrefix(g[i:], "**") && i+2 == len(g):
			sb.WriteString(".*")
			i++
		case c == '*':
			sb.WriteString("[^/]*")
		case c == '?':
			sb.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(g[i+1:], ']')
			if j < 0 {
				sb.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+1+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			sb.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += j + 1
		case c == '\\' && i+1 < len(g):
			i++
			sb.WriteString(regexp.QuoteMeta(string(g[i])))
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return sb.String()
}

// joinRel joins a slash directory and a name ("" is the root).
func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return path.Join(dir, name)
}
