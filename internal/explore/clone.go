package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/grit-dev/grit/internal/edit"
)

// Source is what `grit explore` or the page's "Clone & Explore" field was
// given, validated: either a local working directory, or something to clone.
type Source struct {
	Raw       string `json:"raw"`
	Clone     bool   `json:"clone"`
	URL       string `json:"url,omitempty"`        // what git clone receives (after "--")
	Dir       string `json:"dir,omitempty"`        // the local directory when !Clone
	CachePath string `json:"cache_path,omitempty"` // <host>/<path> under the cache's repos/
}

// cloneSchemes are the URL schemes git may clone from; anything else is refused.
var cloneSchemes = map[string]bool{"https": true, "ssh": true, "file": true}

// scpLike is git's "user@host:path" form of an ssh URL.
var scpLike = regexp.MustCompile(`^([A-Za-z0-9._~-]+)@([A-Za-z0-9][A-Za-z0-9.-]*):([^:].*)$`)

// ParseSource validates s: an https://, ssh:// or file:// URL, a git@host:path
// address, a local bare repository (all cloned), or a local directory
// (explored in place). Anything starting with '-', holding control
// characters or a "::" transport (ext::, fd::) is refused. Errors wrap
// ErrBadRequest.
func ParseSource(s string) (Source, error) {
	bad := func(format string, args ...any) (Source, error) {
		return Source{}, fmt.Errorf("%w: %s (expected: a directory, a bare repository, https://, ssh://, file:// or git@host:path)", ErrBadRequest, fmt.Sprintf(format, args...))
	}
	switch {
	case s == "":
		return bad("empty source")
	case strings.HasPrefix(s, "-"):
		return bad("%q starts with '-'", s)
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }):
		return bad("%q contains spaces or control characters", s)
	case strings.Contains(s, "::"):
		return bad("%q names a git transport helper", s)
	case len(s) > 2048:
		return bad("source is %d bytes long", len(s))
	}
	if scheme, _, ok := strings.Cut(s, "://"); ok {
		u, err := url.Parse(s)
		if err != nil {
			return bad("%q: %v", s, err)
		}
		if !cloneSchemes[strings.ToLower(scheme)] {
			return bad("scheme %q is not allowed", scheme)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return bad("%q has a query or fragment", s)
		}
		if u.Scheme == "file" {
			if u.Host != "" && u.Host != "localhost" {
				return bad("file URL %q names a host", s)
			}
			return Source{Raw: s, Clone: true, URL: s, CachePath: cachePath("local", u.Path)}, nil
		}
		host := u.Hostname()
		if strings.HasPrefix(u.User.Username(), "-") {
			return bad("%q has a user name starting with '-'", s)
		}
		if host == "" || strings.HasPrefix(host, "-") || strings.Trim(u.Path, "/") == "" {
			return bad("%q needs a host and a path", s)
		}
		if strings.Contains(u.Path, "/-") {
			return bad("%q has a path part starting with '-'", s)
		}
		return Source{Raw: s, Clone: true, URL: s, CachePath: cachePath(host, u.Path)}, nil
	}
	if m := scpLike.FindStringSubmatch(s); m != nil {
		if strings.HasPrefix(m[2], "-") || strings.HasPrefix(m[3], "-") || strings.Contains(m[3], "/-") {
			return bad("%q has a part starting with '-'", s)
		}
		return Source{Raw: s, Clone: true, URL: s, CachePath: cachePath(m[2], m[3])}, nil
	}
	abs, err := filepath.Abs(s)
	if err != nil {
		return bad("%q: %v", s, err)
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.IsDir() {
		return bad("%q is not a directory or a URL", s)
	}
	if isBareRepo(abs) {
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
		return Source{Raw: s, Clone: true, URL: u, CachePath: cachePath("local", abs)}, nil
	}
	return Source{Raw: s, Dir: abs}, nil
}

// StartFromPage is Start for a source typed into the page. A local
// directory is indexed in place (its .grit/ written), so the page may name
// only the served repository or a clone in the cache: anything else (/etc,
// another user's tree) is refused; grit explore DIR opens it.
func (x *Explorer) StartFromPage(source string) error {
	src, err := ParseSource(source)
	if err != nil {
		return err
	}
	if !src.Clone {
		cache, err := x.CacheDir()
		if err != nil {
			return err
		}
		repos := filepath.Join(cache, "repos")
		dir, served := realPath(src.Dir), realPath(x.opts.Served)
		if dir != served && !strings.HasPrefix(dir, realPath(repos)+string(filepath.Separator)) {
			return fmt.Errorf("%w: %s is a local directory other than the one being explored; the page opens URLs, bare repositories and clones in %s only (run grit explore %s to explore it)", ErrBadRequest, src.Dir, repos, src.Dir)
		}
	}
	return x.Start(source)
}

// realPath is p with symlinks resolved, or p when that fails.
func realPath(p string) string {
	if p == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// isBareRepo reports whether dir looks like a bare git repository.
func isBareRepo(dir string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return false
		}
	}
	_, err := os.Stat(filepath.Join(dir, ".git"))
	return errors.Is(err, fs.ErrNotExist)
}

// cachePath makes <host>/<path> safe as a relative directory: every component
// reduced to [A-Za-z0-9._-], no "." or "..", a trailing ".git" dropped.
func cachePath(host, p string) string {
	parts := []string{safeComponent(host)}
	for _, c := range strings.Split(strings.TrimSuffix(strings.Trim(filepath.ToSlash(p), "/"), ".git"), "/") {
		if c = safeComponent(c); c != "" {
			parts = append(parts, c)
		}
	}
	if len(parts) == 1 {
		parts = append(parts, "repo")
	}
	return filepath.Join(parts...)
}

func safeComponent(c string) string {
	c = strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
			return r
		}
		return '_'
	}, c)
	if strings.Trim(c, ".") == "" {
		return ""
	}
	return strings.TrimLeft(c, "-.")
}

// cloneShallow runs `git clone --depth 1 -- url dir` with an argument list
// (never a shell), only the allowed protocols and no prompts. An existing
// clone in dir is reused. The clone goes to a temporary sibling first, so a
// failed one leaves nothing behind.
func cloneShallow(ctx context.Context, git, u, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("clone %s: %w", u, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".clone-*")
	if err != nil {
		return fmt.Errorf("clone %s: %w", u, err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, git, "-c", "core.hooksPath=/dev/null", "clone", "--depth", "1", "--no-recurse-submodules", "--", u, tmp)
	cmd.Env = append(os.Environ(),
		"GIT_TERMINAL_PROMPT=0",
		"GCM_INTERACTIVE=never",
		"GIT_ALLOW_PROTOCOL=https:ssh:file",
		"GIT_SSH_COMMAND=ssh -o BatchMode=yes",
	)
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s (git clone %s: %w)", cloneReason(stderr.String()), u, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("clone %s: %w", u, err)
	}
	return nil
}

// cloneReason is what git said went wrong, first: its fatal and error
// lines (else its last line), at most 600 bytes.
func cloneReason(stderr string) string {
	var reasons []string
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for _, l := range lines {
		if r, ok := strings.CutPrefix(l, "fatal: "); ok {
			reasons = append(reasons, r)
		} else if r, ok := strings.CutPrefix(l, "error: "); ok {
			reasons = append(reasons, r)
		}
	}
	if len(reasons) == 0 {
		reasons = lines[len(lines)-1:]
	}
	msg := strings.Join(reasons, "; ")
	if len(msg) > 600 {
		msg = msg[:600] + "…"
	}
	if msg == "" {
		msg = "git clone failed"
	}
	return msg
}

// RecentRepo is one entry of the remembered list.
type RecentRepo struct {
	Source string    `json:"source"`
	Root   string    `json:"root"`
	Opened time.Time `json:"opened"`
}

func (x *Explorer) recentFile() (string, error) {
	d, err := x.CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "recent.json"), nil
}

// Recent lists the repositories explored lately, newest first.
func (x *Explorer) Recent() ([]RecentRepo, error) {
	f, err := x.recentFile()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(f)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("recent repositories: %w", err)
	}
	var rs []RecentRepo
	if err := json.Unmarshal(b, &rs); err != nil {
		return nil, fmt.Errorf("recent repositories %s: %w", f, err)
	}
	return rs, nil
}

func (x *Explorer) remember(source, root string) error {
	f, err := x.recentFile()
	if err != nil {
		return err
	}
	rs, _ := x.Recent() // a damaged list is replaced
	out := []RecentRepo{{Source: source, Root: root, Opened: time.Now().UTC()}}
	for _, r := range rs {
		if r.Root != root && len(out) < maxRecent {
			out = append(out, r)
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return fmt.Errorf("recent repositories: %w", err)
	}
	return edit.WriteFileAtomic(f, append(b, '\n'), 0o644)
}
