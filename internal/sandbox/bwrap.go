package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// bwrapRunner runs bash inside bubblewrap: the whole file system read-only,
// the workspace and caches writable, protected workspace paths read-only or
// masked, secrets in the home masked, a private /tmp, new PID, IPC, UTS and
// (unless allowed) network namespaces, all capabilities dropped, no new
// privileges, its own session, and killed with its parent.
type bwrapRunner struct {
	cfg       Config
	bwrap     string
	bash      string
	empty     string // an empty directory to mask missing protected directories
	emptyFile string // an empty read-only file to mask missing protected files

	mu sync.Mutex // serialises creating and removing mask mount points
}

func newBwrap(cfg Config) (*bwrapRunner, error) {
	if cfg.Workspace == "" || !filepath.IsAbs(cfg.Workspace) {
		return nil, fmt.Errorf("sandbox workspace %q must be an absolute path", cfg.Workspace)
	}
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, fmt.Errorf("bwrap not found in PATH (apt install bubblewrap): %w", err)
	}
	if err := probeBwrap(path); err != nil {
		return nil, fmt.Errorf("bwrap at %s cannot create a sandbox here (are user namespaces disabled?): %w", path, err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return nil, fmt.Errorf("bash not found: %w", err)
	}
	empty, err := os.MkdirTemp("", "grit-sandbox-empty-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	emptyFile := filepath.Join(empty, "empty")
	if err := os.WriteFile(emptyFile, nil, 0o444); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	// Directories are masked by a read-only empty directory of their own.
	emptyDir := filepath.Join(empty, "dir")
	if err := os.Mkdir(emptyDir, 0o555); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return &bwrapRunner{cfg: cfg, bwrap: path, bash: bash, empty: emptyDir, emptyFile: emptyFile}, nil
}

// probeBwrap runs true in the namespaces the backend uses.
func probeBwrap(path string) error {
	out, err := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid",
		"--new-session", "--die-with-parent", "--cap-drop", "ALL", "--", "true").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

func (b *bwrapRunner) Backend() string { return BackendBwrap }

func (b *bwrapRunner) Run(ctx context.Context, s Spec) (Result, error) {
	dir := s.Dir
	if dir == "" {
		dir = b.cfg.Workspace
	}
	args, created, err := b.args(dir)
	if err != nil {
		return Result{}, err
	}
	argv := append([]string{b.bwrap}, args...)
	argv = append(argv, "--", b.bash, "--noprofile", "--norc", "-c", s.Script)
	return runArgv(ctx, argv, sandboxEnv(b.cfg.EnvPassthrough, s.Env), s, func() { b.removeMasks(created) })
}

// args builds bwrap's arguments. created lists mount points bwrap will
// create on the host for missing protected paths (removed after the run).
func (b *bwrapRunner) args(dir string) (args, created []string, err error) {
	ws := filepath.Clean(b.cfg.Workspace)
	args = []string{
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/tmp",
		"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL",
	}
	// Path-named Unix sockets (docker.sock, the D-Bus and user sockets) are
	// reachable through a read-only mount and across network namespaces, so
	// the directories that hold them are replaced with empty ones.
	if !b.cfg.Network {
		args = append(args, "--unshare-net", "--tmpfs", "/run", "--tmpfs", "/var/tmp")
	} else {
		args = append(args, "--tmpfs", "/var/tmp")
		for _, p := range []string{"/run/docker.sock", "/run/user", "/run/dbus", "/run/containerd", "/run/podman", "/run/snapd.socket"} {
			if fi, err := os.Stat(p); err == nil {
				if fi.IsDir() {
					args = append(args, "--tmpfs", p)
				} else {
					args = append(args, "--ro-bind", b.emptyFile, p)
				}
			}
		}
	}
	// Caches and extra writable paths, then the workspace, so that the
	// workspace's own protections below are applied last.
	home := b.cfg.Home
	for _, p := range append(CachePaths(home), b.cfg.WritablePaths...) {
		if !filepath.IsAbs(p) || p == "/" || strings.HasPrefix(p, "/tmp/") || p == "/tmp" || strings.HasPrefix(ws, p+"/") {
			continue
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			continue
		}
		args = append(args, "--bind", p, p)
	}
	// Bound after the private /tmp, so a workspace under /tmp shows through.
	args = append(args, "--bind", ws, ws)

	// Secrets in the home directory: masked whatever else is writable.
	if home != "" {
		for _, h := range secretHome {
			p := filepath.Join(home, h)
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			if fi.IsDir() {
				args = append(args, "--tmpfs", p, "--remount-ro", p)
			} else {
				args = append(args, "--ro-bind", b.emptyFile, p)
			}
		}
	}
	// .env* files in the workspace hold secrets: masked.
	for _, pat := range []string{".env*", "*/.env*"} {
		matches, _ := filepath.Glob(filepath.Join(ws, pat))
		for _, m := range matches {
			if fi, err := os.Lstat(m); err == nil && fi.Mode().IsRegular() {
				args = append(args, "--ro-bind", b.emptyFile, m)
			}
		}
	}

	// Protected workspace paths: read-only if present; if missing, the first
	// missing component is masked read-only so it cannot be created.
	b.mu.Lock()
	defer b.mu.Unlock()
	masked := map[string]bool{}
	for _, rel := range append(append([]string{}, defaultProtected...), b.cfg.Protected...) {
		rel = filepath.Clean(rel)
		if filepath.IsAbs(rel) || rel == "." || strings.HasPrefix(rel, "..") {
			return nil, nil, fmt.Errorf("sandbox: protected path %q must be relative to the workspace", rel)
		}
		cur := ws
		parts := strings.Split(rel, string(filepath.Separator))
		for i, part := range parts {
			cur = filepath.Join(cur, part)
			fi, err := os.Lstat(cur)
			if err == nil && fi.Mode()&os.ModeSymlink != 0 {
				target, _ := os.Readlink(cur)
				return nil, nil, fmt.Errorf("refusing to build the sandbox: %s is a symlink (to %s); protected paths must be real files or directories", cur, target)
			}
			if err == nil && i == len(parts)-1 {
				args = append(args, "--ro-bind", cur, cur)
				break
			}
			if err == nil {
				if !fi.IsDir() {
					break // a file where a directory would be: nothing below can exist
				}
				continue
			}
			if !os.IsNotExist(err) {
				return nil, nil, fmt.Errorf("sandbox: %w", err)
			}
			if masked[cur] {
				break
			}
			masked[cur] = true
			created = append(created, cur)
			if i == len(parts)-1 && protectedFileNames[part] {
				// An empty regular file, not /dev/null: tools that walk the
				// tree (pytest) expect files to be files.
				args = append(args, "--ro-bind", b.emptyFile, cur)
			} else {
				args = append(args, "--ro-bind", b.empty, cur)
			}
			break
		}
	}
	args = append(args, "--chdir", dir)
	return args, created, nil
}

// removeMasks deletes the empty mount points bwrap created on the host.
func (b *bwrapRunner) removeMasks(created []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(created) - 1; i >= 0; i-- {
		p := created[i]
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			os.Remove(p) // only succeeds when empty
		} else if fi.Mode().IsRegular() && fi.Size() == 0 {
			os.Remove(p)
		}
	}
}
