package contextfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/grit-dev/grit/internal/span"
)

// importer expands the @path imports of one context file.
type importer struct {
	home, root string
	warnings   []string
	imported   []string        // real paths, in import order
	done       map[string]bool // real paths imported (or the top file)
}

// expand returns text followed by the files it imports, each after a
// header line, recursively.
func (im *importer) expand(path, text string) string {
	im.done = map[string]bool{}
	real := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r
	}
	im.done[real] = true
	return im.expandAt(path, text, []string{real})
}

// expandAt expands the imports of text, read from path; stack holds the
// real paths of the files being expanded (path's last), for cycle checks.
func (im *importer) expandAt(path, text string, stack []string) string {
	refs := importRefs(text)
	if len(refs) == 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(text, "\n"))
	for _, ref := range refs {
		target, explicit := im.resolve(path, ref)
		fi, err := os.Stat(target)
		if err != nil || !fi.Mode().IsRegular() {
			if explicit {
				im.warn(path, ref, "no such file")
			}
			continue
		}
		real, err := filepath.EvalSymlinks(target)
		if err != nil {
			im.warn(path, ref, err.Error())
			continue
		}
		switch {
		case contains(stack, real):
			im.warn(path, ref, "import cycle ("+strings.Join(append(base(stack), filepath.Base(real)), " → ")+")")
			continue
		case len(stack) > MaxImportDepth:
			im.warn(path, ref, fmt.Sprintf("imports nest deeper than %d levels", MaxImportDepth))
			continue
		case !im.allowed(real):
			im.warn(path, ref, "outside the home directory and the repository")
			continue
		case im.done[real]:
			continue // imported once already
		}
		data, err := span.ReadFile(real, 0)
		if err != nil {
			im.warn(path, ref, err.Error())
			continue
		}
		im.done[real] = true
		im.imported = append(im.imported, real)
		sub := im.expandAt(real, string(data), append(stack[:len(stack):len(stack)], real))
		fmt.Fprintf(&b, "\n\n<!-- imported by @%s -->\n%s", ref, strings.TrimRight(sub, "\n"))
	}
	b.WriteByte('\n')
	return b.String()
}

// resolve maps an @ref of the file at path to a path on disk. explicit says
// the ref looks like a path (so a missing file is worth a warning, while a
// missing "@alice" is just prose).
func (im *importer) resolve(path, ref string) (string, bool) {
	explicit := strings.ContainsAny(ref, "/.") || strings.HasPrefix(ref, "~")
	switch {
	case ref == "~" || strings.HasPrefix(ref, "~/"):
		if im.home == "" {
			return "", explicit
		}
		return filepath.Join(im.home, strings.TrimPrefix(ref, "~")), explicit
	case filepath.IsAbs(ref):
		return filepath.Clean(ref), explicit
	default:
		return filepath.Join(filepath.Dir(path), ref), explicit
	}
}

// allowed reports whether real lies under the home directory or the repository.
func (im *importer) allowed(real string) bool {
	for _, dir := range []string{im.home, im.root} {
		if dir == "" {
			continue
		}
		cands := []string{dir}
		if r, err := filepath.EvalSymlinks(dir); err == nil && r != dir {
			cands = append(cands, r)
		}
		for _, d := range cands {
			if rel, err := filepath.Rel(d, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

func (im *importer) warn(path, ref, why string) {
	im.warnings = append(im.warnings, fmt.Sprintf("context file %s: import @%s refused: %s", path, ref, why))
}

// importRefs finds the @path references of a Markdown text: an @ at the
// start of a line or after a space, outside fenced code blocks and inline
// code spans. Trailing punctuation is not part of the path.
func importRefs(text string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		inCode := false
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c == '`' {
				inCode = !inCode
				continue
			}
			if inCode || c != '@' || (i > 0 && line[i-1] != ' ' && line[i-1] != '\t') {
				continue
			}
			j := i + 1
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '`' {
				j++
			}
			ref := strings.TrimRight(line[i+1:j], ".,;:!?)]\"'")
			if ref != "" {
				out = append(out, ref)
			}
			i = j - 1
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func base(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}
