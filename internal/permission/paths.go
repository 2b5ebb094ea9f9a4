package permission

import (
	"path"
	"path/filepath"
	"strings"
	"unicode"
)

// Protected names. An edit of a path with one of these components (or, for
// protectedHome, under one of these directories of the user's home) asks in
// every mode, bypassPermissions included, whether or not the path exists.
var (
	// protectedDirs are components that make everything below them protected.
	protectedDirs = []string{".git", ".grit", ".vscode", ".idea", ".husky"}
	// protectedFiles are file names protected wherever they are.
	protectedFiles = []string{
		".gitmodules", ".gitconfig", ".mcp.json", ".npmrc", ".pypirc", ".netrc",
		".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
		".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout",
		".cshrc", ".tcshrc", ".kshrc", ".inputrc", ".editorconfig-hooks",
	}
	// protectedHome are directories under the user's home.
	protectedHome = []string{".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gh", ".config/grit", ".config/git"}
)

// secretRead reports whether reading p may expose credentials (.env*,
// .netrc, ~/.ssh, ...): such reads ask.
func secretRead(p, home string) (string, bool) {
	n := normalizePath(p)
	for _, c := range strings.Split(n, "/") {
		if strings.HasPrefix(c, ".env") || c == ".netrc" || c == ".npmrc" || c == ".pypirc" {
			return c, true
		}
	}
	if home != "" {
		if h, ok := underHome(n, home); ok {
			return h, true
		}
	}
	return "", false
}

// protectedPath reports whether an edit of the absolute path p touches a
// protected location, and which one. Comparison is on the normalised form:
// case-folded, Unicode compatibility-folded, with trailing dots and spaces of
// each component trimmed (".GIT./config" is ".git/config").
func protectedPath(p, home string) (string, bool) {
	n := normalizePath(p)
	for _, c := range strings.Split(n, "/") {
		for _, d := range protectedDirs {
			if c == d {
				return d, true
			}
		}
		for _, f := range protectedFiles {
			if c == f {
				return f, true
			}
		}
		if strings.HasPrefix(c, ".env") {
			return ".env*", true
		}
	}
	if home != "" {
		if h, ok := underHome(n, home); ok {
			return h, true
		}
	}
	return "", false
}

func underHome(n, home string) (string, bool) {
	hn := normalizePath(home)
	for _, h := range protectedHome {
		d := hn + "/" + h
		if n == d || strings.HasPrefix(n, d+"/") {
			return "~/" + h, true
		}
	}
	return "", false
}

// globMayMatchProtected reports whether a glob pattern (an unexpanded shell
// word such as ".g*" or "{a,.git}") could name a protected file when bash
// expands it, relative to dir.
func globMayMatchProtected(word string) bool {
	// Brace alternatives are split first: {a,.git} → a, .git.
	alts := expandBraces(word)
	for _, w := range alts {
		for _, c := range strings.Split(w, "/") {
			c = normalizeComponent(c)
			if c == "" || c == "." || c == ".." {
				continue
			}
			names := append(append(append([]string{}, protectedDirs...), protectedFiles...), ".env", ".envrc", ".env.local")
			for _, name := range names {
				// bash's globs do not match a leading dot unless the
				// pattern starts with one.
				if !strings.HasPrefix(c, ".") && strings.HasPrefix(name, ".") {
					continue
				}
				if ok, err := path.Match(c, name); ok || err != nil {
					return true
				}
			}
		}
	}
	return false
}

// expandBraces does a conservative, non-nested split of {a,b} alternatives.
func expandBraces(w string) []string {
	i := strings.IndexByte(w, '{')
	j := strings.LastIndexByte(w, '}')
	if i < 0 || j < i {
		return []string{w}
	}
	var out []string
	for _, alt := range strings.Split(w[i+1:j], ",") {
		out = append(out, expandBraces(w[:i]+alt+w[j+1:])...)
	}
	return out
}

// normalizePath cleans p and normalises each component.
func normalizePath(p string) string {
	p = filepath.ToSlash(filepath.Clean(p))
	parts := strings.Split(p, "/")
	for i, c := range parts {
		parts[i] = normalizeComponent(c)
	}
	return strings.Join(parts, "/")
}

// normalizeComponent folds one path component for comparison: Unicode
// format characters (zero-width joiners, BOMs) and combining marks are
// dropped, fullwidth ASCII is mapped to ASCII, letters are lower-cased, and
// trailing dots and spaces are trimmed (Windows and some network file
// systems ignore them). "." and ".." are kept as they are.
func normalizeComponent(c string) string {
	if c == "." || c == ".." {
		return c
	}
	var b strings.Builder
	for _, r := range c {
		switch {
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Mn, r):
			continue
		case r >= 0xFF01 && r <= 0xFF5E: // fullwidth ASCII
			r -= 0xFEE0
		case r == 0x3000 || unicode.IsSpace(r):
			r = ' '
		case r == 0x2024 || r == 0xFE52 || r == 0x2E33: // one-dot leaders, small full stop
			r = '.'
		}
		b.WriteRune(unicode.ToLower(r))
	}
	out := strings.TrimRight(b.String(), ". ")
	if out == "" && c != "" {
		return c
	}
	return out
}

// absPath resolves p (as a tool or a rule names it) to a clean absolute path:
// "~/" against home, relative paths against dir.
func absPath(p, dir, home string) string {
	switch {
	case p == "~":
		return home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[2:])
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// inside reports whether the clean absolute path p is root or below it.
func inside(p, root string) bool {
	if root == "" {
		return false
	}
	if p == root {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}

// realPath resolves symlinks in the longest existing prefix of p, so a link
// in the workspace that points into .git or outside is judged by its target.
// Missing trailing components are kept as written.
func realPath(p string) string {
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return r
			}
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
