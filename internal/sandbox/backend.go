package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Backend names.
const (
	BackendAuto     = "auto"
	BackendBwrap    = "bwrap"
	BackendLandlock = "landlock+netns"
	BackendNone     = "none"
)

// ErrNoBackend is returned when a sandboxed mode was asked for and no
// isolation backend works here. Run never falls back to no isolation.
var ErrNoBackend = errors.New("no working sandbox backend")

// Config configures an isolating Runner.
type Config struct {
	// Workspace is the directory commands may write (absolute).
	Workspace string
	// Backend is "auto" (bwrap, else Landlock plus a network namespace),
	// "bwrap", "landlock" or "none" (no isolation: an explicit choice).
	Backend string
	// Network allows network access; off by default.
	Network bool
	// WritablePaths are extra directories commands may write, on top of the
	// workspace, a private /tmp and the build caches (see CachePaths).
	WritablePaths []string
	// EnvPassthrough names variables kept although ScrubEnv would drop them.
	EnvPassthrough []string
	// Protected are extra workspace-relative paths mounted read-only (or
	// masked when missing), on top of defaultProtected (.git as a whole,
	// .gitmodules, .grit, .claude/skills) and the repository's linked git
	// directories.
	Protected []string
	// Home is the user's home directory; "" uses os.UserHomeDir.
	Home string
	// Helper is the command that runs ChildMain for the landlock+netns
	// backend, the plan appended as its last argument; nil means this
	// binary with ChildCommand (`grit __sandbox-exec`).
	Helper []string
}

// secretHome are home paths masked inside the sandbox.
var secretHome = []string{".ssh", ".aws", ".gnupg", ".config/gh", ".config/grit", ".kube", ".docker", ".azure", ".config/gcloud", ".netrc", ".git-credentials", ".pypirc", ".npmrc"}

// New returns a Runner for cfg. With Backend "auto", "bwrap" or "landlock"
// it returns an error wrapping ErrNoBackend when no such isolation works on
// this machine, saying what to install or change; it never returns an
// unisolated Runner unless Backend is "none".
func New(cfg Config) (Runner, error) {
	if cfg.Backend == "" {
		cfg.Backend = BackendAuto
	}
	if cfg.Home == "" {
		cfg.Home, _ = os.UserHomeDir()
	}
	switch cfg.Backend {
	case BackendNone:
		return NewPlain(), nil
	case BackendBwrap:
		return newBwrap(cfg)
	case "landlock", BackendLandlock:
		r, err := newLandlock(cfg)
		if err != nil {
			return nil, fmt.Errorf("%w: landlock+netns: %v", ErrNoBackend, err)
		}
		return r, nil
	case BackendAuto:
		r, err := newBwrap(cfg)
		if err == nil {
			return r, nil
		}
		l, lerr := newLandlock(cfg)
		if lerr == nil {
			return l, nil
		}
		return nil, fmt.Errorf("%w: bwrap: %v; landlock+netns: %v. Install bubblewrap (apt install bubblewrap) and allow unprivileged user namespaces, or set sandbox.enabled=false to run without isolation", ErrNoBackend, err, lerr)
	}
	return nil, fmt.Errorf("unknown sandbox backend %q (expected: auto, bwrap, landlock, none)", cfg.Backend)
}

// BackendStatus is one backend's availability, for grit doctor.
type BackendStatus struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	// Detail says what was found (a path, an ABI version) or why not.
	Detail string `json:"detail"`
}

// Probe checks each backend on this machine by trying it.
func Probe() []BackendStatus {
	var out []BackendStatus
	bw := BackendStatus{Name: BackendBwrap}
	if path, err := exec.LookPath("bwrap"); err != nil {
		bw.Detail = "bwrap not found in PATH (apt install bubblewrap)"
	} else if err := probeBwrap(path); err != nil {
		bw.Detail = fmt.Sprintf("%s does not work here: %v", path, err)
	} else {
		bw.Available, bw.Detail = true, path
	}
	out = append(out, bw)
	ll := BackendStatus{Name: BackendLandlock}
	abi := detectABI()
	switch {
	case abi == 0:
		ll.Detail = "Landlock is not enabled in this kernel"
	case abi < LandlockABI:
		ll.Detail = fmt.Sprintf("kernel Landlock ABI %d; the backend needs %d or later", abi, LandlockABI)
	default:
		bash, err := exec.LookPath("bash")
		if err == nil {
			err = probeNamespaces(bash)
		}
		if err != nil {
			ll.Detail = fmt.Sprintf("kernel Landlock ABI %d, but user and network namespaces do not work here: %v", abi, err)
		} else {
			ll.Available, ll.Detail = true, fmt.Sprintf("kernel Landlock ABI %d (needs %d), user and network namespaces work", abi, LandlockABI)
		}
	}
	out = append(out, ll)
	out = append(out, BackendStatus{Name: BackendNone, Available: true, Detail: "no isolation; only when sandbox.enabled=false"})
	return out
}

// lookBash finds bash with symlinks resolved: a PATH entry under /tmp (a
// symlink farm, a virtualenv) is hidden by the sandbox's private /tmp.
func lookBash() (string, error) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		return "", fmt.Errorf("bash not found: %w", err)
	}
	if real, err := filepath.EvalSymlinks(bash); err == nil {
		bash = real
	}
	return filepath.Abs(bash)
}

// landlockABI returns the kernel's Landlock ABI version, 0 if none.
func landlockABI() int {
	const sysLandlockCreateRuleset = 444
	const versionFlag = 1
	v, _, errno := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, versionFlag)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// runArgv runs argv in its own process group with env and working directory
// dir ("" keeps the current one), killing the whole group on timeout, on
// cancellation and when argv[0] exits, with output capped keeping head and
// tail. Every Runner ends here; when it returns, the group is gone.
// attr, when set, replaces the default SysProcAttr (the Landlock backend's
// namespaces); it must keep a new process group and Pdeathsig.
func runArgv(ctx context.Context, argv []string, env []string, s Spec, dir string, attr *syscall.SysProcAttr) (Result, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	max := s.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	defer pr.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = s.Stdin
	cmd.Stdout = pw
	cmd.Stderr = pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if attr != nil {
		cmd.SysProcAttr = attr
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pw.Close()
		return Result{}, fmt.Errorf("run command: start %s: %w", argv[0], err)
	}
	pw.Close()
	pgid := cmd.Process.Pid
	out := NewCapBuffer(max)
	drained := make(chan struct{})
	var sink io.Writer = out
	if s.Stream != nil {
		sink = io.MultiWriter(out, s.Stream)
	}
	go func() {
		io.Copy(sink, pr)
		close(drained)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var timedOut, canceled bool
	var werr error
	select {
	case werr = <-waited:
	case <-timer.C:
		timedOut = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		werr = <-waited
	case <-ctx.Done():
		canceled = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		werr = <-waited
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-drained:
	case <-time.After(drainGrace):
		pr.Close()
		<-drained
	}
	res := Result{Duration: time.Since(start), TimedOut: timedOut}
	res.Output, res.Truncated = out.String()
	res.ExitCode = exitCode(cmd.ProcessState, werr)
	if canceled {
		return res, fmt.Errorf("run command: %w", ctx.Err())
	}
	return res, nil
}

// sandboxEnv is the scrubbed environment plus passthrough names, with TMPDIR
// pointing at the private /tmp.
func sandboxEnv(pass []string, extra []string) []string {
	env := ScrubEnv(os.Environ())
	for _, name := range pass {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	env = append(env, "TMPDIR=/tmp")
	return append(env, extra...)
}

// CachePaths are the build-tool caches outside the workspace that commands
// may write: Go's build and module caches, ~/.cache (pip, pytest plugins,
// go-build by default), npm's cache, and XDG_CACHE_HOME.
func CachePaths(home string) []string {
	get := func(name, def string) string {
		if v := os.Getenv(name); v != "" && filepath.IsAbs(v) {
			return v
		}
		return def
	}
	gopath := get("GOPATH", filepath.Join(home, "go"))
	if i := strings.IndexByte(gopath, os.PathListSeparator); i >= 0 {
		gopath = gopath[:i]
	}
	paths := []string{
		get("GOCACHE", filepath.Join(get("XDG_CACHE_HOME", filepath.Join(home, ".cache")), "go-build")),
		get("GOMODCACHE", filepath.Join(gopath, "pkg", "mod")),
		get("XDG_CACHE_HOME", filepath.Join(home, ".cache")),
		get("npm_config_cache", filepath.Join(home, ".npm")),
		get("PIP_CACHE_DIR", filepath.Join(home, ".cache", "pip")),
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
