package contextfiles

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v4"
)

// mdFile is a Markdown file with an optional YAML front matter, as custom
// commands and agent definitions are written.
type mdFile struct {
	Name   string // the file's base name without .md
	Path   string // absolute
	Source string // where it was found: ".claude/commands", "user", ...
	Meta   map[string]string
	Body   string
}

// splitFrontMatter returns the front matter's keys (values as strings; a
// YAML list becomes "a, b") and the body. No leading "---" line means no
// front matter. A header YAML rejects is read as flat "key: value" lines,
// as many files in the wild are written ("description: Use when: ...").
func splitFrontMatter(data []byte) (map[string]string, string, error) {
	text := strings.TrimPrefix(string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))), "\ufeff")
	if !strings.HasPrefix(text, "---\n") {
		return map[string]string{}, strings.TrimSpace(text), nil
	}
	rest := text[len("---\n"):]
	if strings.HasPrefix(rest, "---") { // an empty header
		return map[string]string{}, strings.TrimSpace(strings.TrimPrefix(rest, "---")), nil
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return nil, "", fmt.Errorf("front matter is not closed by a \"---\" line")
	}
	header, body := rest[:end], rest[end+len("\n---"):]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = ""
	}
	meta := map[string]string{}
	var raw map[string]any
	yerr := yaml.Unmarshal([]byte(header), &raw)
	if yerr == nil {
		for k, v := range raw {
			switch v := v.(type) {
			case []any:
				parts := make([]string, len(v))
				for i, p := range v {
					parts[i] = fmt.Sprint(p)
				}
				meta[k] = strings.Join(parts, ", ")
			case nil:
				meta[k] = ""
			default:
				meta[k] = strings.TrimSpace(fmt.Sprint(v))
			}
		}
		return meta, strings.TrimSpace(body), nil
	}
	for _, line := range strings.Split(header, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(k, " \t") {
			return nil, "", fmt.Errorf("front matter: %w", yerr)
		}
		meta[k] = strings.TrimSpace(v)
	}
	return meta, strings.TrimSpace(body), nil
}

// loadMarkdownDirs reads the *.md files under each dir (sub-folders
// included), by precedence: the first file of a name wins. A broken file
// is a warning and is left out; a missing folder holds nothing.
func loadMarkdownDirs(dirs [][2]string) ([]mdFile, []string) {
	var out []mdFile
	var warnings []string
	seen := map[string]string{}
	for _, d := range dirs {
		var paths []string
		filepath.WalkDir(d[0], func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
				paths = append(paths, p)
			}
			return nil
		})
		sort.Strings(paths)
		for _, p := range paths {
			name := strings.TrimSuffix(filepath.Base(p), ".md")
			data, err := os.ReadFile(p)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("%s: %v", p, err))
				continue
			}
			meta, body, err := splitFrontMatter(data)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("%s left out: %v", p, err))
				continue
			}
			if n := meta["name"]; n != "" {
				name = n
			}
			if prev, ok := seen[name]; ok {
				warnings = append(warnings, fmt.Sprintf("%s is shadowed by %s", p, prev))
				continue
			}
			seen[name] = p
			out = append(out, mdFile{Name: name, Path: p, Source: d[1], Meta: meta, Body: body})
		}
	}
	return out, warnings
}

// splitList splits a front matter list ("Read, Grep" or "Read Grep").
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}
