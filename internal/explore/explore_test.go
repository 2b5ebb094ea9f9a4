package explore

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestParseSource(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(t.TempDir(), "r.git")
	for _, d := range []string{"objects", "refs"} {
		os.MkdirAll(filepath.Join(bare, d), 0o755)
	}
	os.WriteFile(filepath.Join(bare, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	for _, tc := range []struct {
		name, in  string
		clone, ok bool
		cache     string
	}{
		{"https", "https://github.com/psf/requests", true, true, "github.com/psf/requests"},
		{"https .git", "https://github.com/psf/requests.git", true, true, "github.com/psf/requests"},
		{"ssh", "ssh://git@example.com/a/b.git", true, true, "example.com/a/b"},
		{"scp-like", "git@github.com:psf/requests.git", true, true, "github.com/psf/requests"},
		{"file", "file:///srv/git/x.git", true, true, "local/srv/git/x"},
		{"bare dir", bare, true, true, ""},
		{"work dir", dir, false, true, ""},
		{"dash", "-oProxyCommand=x", false, false, ""},
		{"ext", "ext::sh -c id", false, false, ""},
		{"ext no space", "ext::sh", false, false, ""},
		{"http", "http://example.com/a", false, false, ""},
		{"git scheme", "git://example.com/a", false, false, ""},
		{"ssh dash host", "ssh://-oProxyCommand=x/a", false, false, ""},
		{"ssh dash user", "ssh://-u@host/a", false, false, ""},
		{"ssh dash path", "ssh://host/-x", false, false, ""},
		{"scp dash host", "git@-x:a", false, false, ""},
		{"newline", "https://e.com/a\n-x", false, false, ""},
		{"empty", "", false, false, ""},
		{"missing dir", filepath.Join(dir, "nope"), false, false, ""},
		{"dot dot cache", "https://e.com/../../etc", true, true, "e.com/etc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSource(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("ParseSource(%q) = %+v, %v, want ok=%v", tc.in, s, err, tc.ok)
			}
			if err != nil {
				if !errors.Is(err, ErrBadRequest) {
					t.Errorf("ParseSource(%q) error %v does not wrap ErrBadRequest", tc.in, err)
				}
				return
			}
			if s.Clone != tc.clone {
				t.Errorf("ParseSource(%q).Clone = %v, want %v", tc.in, s.Clone, tc.clone)
			}
			if tc.cache != "" && s.CachePath != filepath.FromSlash(tc.cache) {
				t.Errorf("ParseSource(%q).CachePath = %q, want %q", tc.in, s.CachePath, tc.cache)
			}
		})
	}
}

func TestCleanRepoPath(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      error
	}{
		{"a/b.py", "a/b.py", nil},
		{"./a/b.py", "a/b.py", nil},
		{"a//b.py", "a/b.py", nil},
		{"", "", ErrBadRequest},
		{".", "", ErrBadRequest},
		{"../x", "", ErrOutsideRepo},
		{"a/../../x", "", ErrOutsideRepo},
		{"a/..", "", ErrOutsideRepo},
		{"/etc/passwd", "", ErrOutsideRepo},
		{"~/.ssh/id_rsa", "", ErrOutsideRepo},
		{"a\\..\\b", "", ErrOutsideRepo},
		{"a\x00b", "", ErrOutsideRepo},
		{"%2e%2e/x", "", ErrOutsideRepo},
		{"%252e%252e/x", "", ErrOutsideRepo},
		{".git/config", "", ErrOutsideRepo},
		{"sub/.GIT/config", "", ErrOutsideRepo},
		{".git./config", "", ErrOutsideRepo},
		{".grit/index.db", "", ErrOutsideRepo},
	} {
		got, err := CleanRepoPath(tc.in)
		if got != tc.want || !errors.Is(err, tc.err) && !(err == nil && tc.err == nil) {
			t.Errorf("CleanRepoPath(%q) = %q, %v, want %q, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestCloneReason(t *testing.T) {
	for _, tc := range []struct{ stderr, want string }{
		{"Cloning into '/tmp/x'...\nfatal: '/nonexistent/repo.git' does not appear to be a git repository\nfatal: Could not read from remote repository.\n",
			"'/nonexistent/repo.git' does not appear to be a git repository; Could not read from remote repository."},
		{"Cloning into 'x'...\nremote: Repository not found.\n", "remote: Repository not found."},
		{"", "git clone failed"},
	} {
		if got := cloneReason(tc.stderr); got != tc.want {
			t.Errorf("cloneReason(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}
