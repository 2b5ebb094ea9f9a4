package sandbox

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// bwrapRunner runs bash inside bubblewrap: the whole file system read-only,
// the workspace and caches writable, protected workspace paths read-only or
// masked, secrets in the home masked, a private /tmp, new PID, IPC, UTS and
// (unless allowed) network namespaces, all capabilities dropped, no new
// privileges, its own session, and killed with its parent.
type bwrapRunner struct {
	cfg   Config
	bwrap string
	bash  string
	masks *masks
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
	bash, err := lookBash()
	if err != nil {
		return nil, err
	}
	m, err := newMasks(cfg.Home)
	if err != nil {
		return nil, err
	}
	return &bwrapRunner{cfg: cfg, bwrap: path, bash: bash, masks: m}, nil
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
	p, err := buildPlan(b.cfg, b.masks, dir)
	if err != nil {
		return Result{}, err
	}
	defer b.masks.removeMasks(p)
	argv := append([]string{b.bwrap}, bwrapArgs(p)...)
	argv = append(argv, "--", b.bash, "--noprofile", "--norc", "-c", s.Script)
	return runArgv(ctx, argv, sandboxEnv(b.cfg.EnvPassthrough, s.Env), s, "", nil)
}

// bwrapArgs translates a plan into bwrap's arguments.
func bwrapArgs(p plan) []string {
	args := []string{
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL",
	}
	if !p.Network {
		args = append(args, "--unshare-net")
	}
	for _, m := range p.Mounts {
		switch m.Kind {
		case mountTmpfs:
			args = append(args, "--tmpfs", m.Dst)
		case mountTmpfsRO:
			args = append(args, "--tmpfs", m.Dst, "--remount-ro", m.Dst)
		case mountBind:
			args = append(args, "--bind", m.Src, m.Dst)
		case mountROBind:
			args = append(args, "--ro-bind", m.Src, m.Dst)
		}
	}
	return append(args, "--chdir", p.Dir)
}
