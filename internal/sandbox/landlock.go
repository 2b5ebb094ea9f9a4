package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// LandlockABI is the Landlock ABI version the landlock+netns backend needs:
// ABI 6 restricts file system access (with truncate, refer and device
// ioctls), TCP bind and connect, signals to processes outside the sandbox
// and abstract Unix sockets. The backend refuses to start on an older
// kernel: it never degrades to a weaker ruleset in silence.
const LandlockABI = 6

// ChildCommand is the hidden argument that makes a Grit binary act as the
// Landlock backend's sandbox child: `grit __sandbox-exec PLAN` calls
// ChildMain. A test binary that uses the backend dispatches it in TestMain.
const ChildCommand = "__sandbox-exec"

// detectABI returns the kernel's Landlock ABI; tests replace it to show the
// backend fails closed on an older kernel.
var detectABI = landlockABI

// landlockRunner runs bash through a re-executed Grit binary (the child)
// in new user, mount, PID, IPC, UTS and (unless allowed) network
// namespaces. The child applies the same mount plan as the bwrap backend
// (private /tmp, masked secrets, read-only protected paths), then a
// Landlock ruleset (the file system read-only but for the workspace, the
// caches and the private tmpfs directories; no TCP; no signals or abstract
// sockets out), sets no_new_privs, drops every capability and execs bash.
// Landlock alone cannot stop UDP below ABI 10, which is why the network
// namespace is part of the backend, not an option.
type landlockRunner struct {
	cfg    Config
	helper []string
	bash   string
	masks  *masks
	abi    int
	// netns is the network namespace; only a test turns it off, to show
	// that Landlock alone lets UDP out.
	netns bool
}

// childPlan is what the host hands the child: the mount plan plus what to
// enforce and run.
type childPlan struct {
	plan
	ABI  int      `json:"abi"`
	Exec []string `json:"exec"`
	// Probe asks the child only to say it is one (probeReply), changing
	// nothing: New checks the helper before trusting it with a command.
	Probe bool `json:"probe,omitempty"`
}

// childEnv marks a process started as the sandbox child. A binary that
// receives it but does not dispatch ChildCommand (a test binary without the
// TestMain hook) must not start sandboxes of its own: New refuses, which
// bounds the mistake to one level instead of recursing.
// internal/prefault reads it by name too, to skip its work in the child.
const childEnv = "GRIT_SANDBOX_CHILD"

// probeReply is the child's answer to a probe plan.
const probeReply = "grit-sandbox-child ok"

func newLandlock(cfg Config) (*landlockRunner, error) {
	if cfg.Workspace == "" || !filepath.IsAbs(cfg.Workspace) {
		return nil, fmt.Errorf("sandbox workspace %q must be an absolute path", cfg.Workspace)
	}
	if os.Getenv(childEnv) != "" {
		return nil, fmt.Errorf("this process was started as a sandbox child (%s is set) but did not dispatch %s to sandbox.ChildMain", childEnv, ChildCommand)
	}
	abi := detectABI()
	switch {
	case abi == 0:
		return nil, errors.New("Landlock is not enabled in this kernel (it needs Linux 6.7 or later with landlock in the lsm= boot parameter)")
	case abi < LandlockABI:
		return nil, fmt.Errorf("the kernel's Landlock ABI is %d; the landlock+netns backend needs ABI %d or later (Linux 6.7+)", abi, LandlockABI)
	}
	bash, err := lookBash()
	if err != nil {
		return nil, err
	}
	if err := probeNamespaces(bash); err != nil {
		return nil, fmt.Errorf("cannot create user and network namespaces here (check sysctl kernel.unprivileged_userns_clone and AppArmor's restrict_unprivileged_userns): %w", err)
	}
	helper := cfg.Helper
	if len(helper) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("landlock sandbox: locate the grit binary to re-execute: %w", err)
		}
		helper = []string{exe, ChildCommand}
	}
	if err := probeHelper(helper); err != nil {
		return nil, err
	}
	m, err := newMasks(cfg.Home)
	if err != nil {
		return nil, err
	}
	return &landlockRunner{cfg: cfg, helper: helper, bash: bash, masks: m, abi: abi, netns: true}, nil
}

// namespaceFlags are the namespaces of the backend; the network one is
// added when the network is off.
const namespaceFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

func namespaceAttr(netns bool) *syscall.SysProcAttr {
	flags := uintptr(namespaceFlags)
	if netns {
		flags |= syscall.CLONE_NEWNET
	}
	return &syscall.SysProcAttr{
		// A new session (no controlling terminal: TIOCSTI cannot reach the
		// user's) whose process group is killed as a whole.
		Setsid:     true,
		Pdeathsig:  syscall.SIGKILL,
		Cloneflags: flags,
		// Root inside the namespace, to mount; the child drops every
		// capability before it runs the command.
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
}

// probeNamespaces runs bash -c true in the backend's namespaces.
func probeNamespaces(bash string) error {
	cmd := exec.Command(bash, "--noprofile", "--norc", "-c", "true")
	cmd.SysProcAttr = namespaceAttr(true)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// probedHelpers remembers helpers that answered a probe (keyed by their
// command line), so a process probes each once.
var probedHelpers sync.Map

// probeHelper checks that helper acts as the sandbox child: it must answer
// a probe plan with probeReply.
func probeHelper(helper []string) error {
	key := strings.Join(helper, "\x00")
	if _, ok := probedHelpers.Load(key); ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, helper[0], append(helper[1:], `{"probe":true}`)...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != probeReply {
		return fmt.Errorf("%s does not act as the sandbox child (%s): %v %q", helper[0], ChildCommand, err, firstLine(string(out)))
	}
	probedHelpers.Store(key, true)
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func (l *landlockRunner) Backend() string { return BackendLandlock }

func (l *landlockRunner) Run(ctx context.Context, s Spec) (Result, error) {
	dir := s.Dir
	if dir == "" {
		dir = l.cfg.Workspace
	}
	p, err := buildPlan(l.cfg, l.masks, dir)
	if err != nil {
		return Result{}, err
	}
	defer l.masks.removeMasks(p)
	// bwrap gives a fresh /dev with its own /dev/shm; here the host's /dev
	// stays, with a private /dev/shm.
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		p.Mounts = append([]mountOp{{Kind: mountTmpfs, Dst: "/dev/shm"}}, p.Mounts...)
		p.Writable = append(p.Writable, "/dev/shm")
	}
	cp := childPlan{plan: p, ABI: LandlockABI, Exec: []string{l.bash, "--noprofile", "--norc", "-c", s.Script}}
	data, err := json.Marshal(cp)
	if err != nil {
		return Result{}, fmt.Errorf("landlock sandbox: %w", err)
	}
	argv := append(append([]string{}, l.helper...), string(data))
	env := append(sandboxEnv(l.cfg.EnvPassthrough, s.Env), childEnv+"=1")
	return runArgv(ctx, argv, env, s, "", namespaceAttr(l.netns && !l.cfg.Network))
}
