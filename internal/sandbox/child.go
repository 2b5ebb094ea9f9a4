package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// childExitSetup is the child's exit status when it could not build the
// sandbox (the command never ran).
const childExitSetup = 125

// ChildMain is the Landlock backend's sandbox child, run as
// `grit __sandbox-exec PLAN` in the namespaces the host created: it mounts
// the plan, enforces Landlock, sets no_new_privs, drops every capability
// and replaces itself with bash. It returns only on failure, with an exit
// status; the command does not run then. Call it from the binary's entry
// point before anything else starts goroutines that matter.
func ChildMain(args []string) int {
	if len(args) != 1 {
		fmt.Fprintf(os.Stderr, "grit sandbox: %s takes one argument, the plan (it is started by the sandbox, not by hand)\n", ChildCommand)
		return childExitSetup
	}
	var p childPlan
	err := json.Unmarshal([]byte(args[0]), &p)
	if err == nil && p.Probe {
		fmt.Println(probeReply)
		return 0
	}
	os.Unsetenv(childEnv)
	if err != nil || len(p.Exec) == 0 {
		fmt.Fprintf(os.Stderr, "grit sandbox: bad plan: %v\n", err)
		return childExitSetup
	}
	// Every step below is per thread (capabilities, no_new_privs, the
	// Landlock domain); exec happens from this same thread.
	runtime.LockOSThread()
	if err := enterSandbox(p); err != nil {
		fmt.Fprintf(os.Stderr, "grit sandbox: %v\n", err)
		return childExitSetup
	}
	// The host set PR_SET_PDEATHSIG (SIGKILL when it dies) on the thread
	// that started this process, and a parent-death signal belongs to a
	// thread: an exec from another one (where this goroutine may have been
	// when it locked its thread) keeps that thread's, none, and the command
	// would outlive a host killed with SIGKILL. Set it on the thread that
	// execs, after the last credential change.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "grit sandbox: parent-death signal: %v\n", err)
		return childExitSetup
	}
	err = syscall.Exec(p.Exec[0], p.Exec, os.Environ())
	fmt.Fprintf(os.Stderr, "grit sandbox: exec %s: %v\n", p.Exec[0], err)
	return 126
}

func enterSandbox(p childPlan) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	// Bind sources are opened before any tmpfs hides them (a workspace under
	// /tmp is bound again on top of the private /tmp).
	srcs := map[string]int{}
	for _, m := range p.Mounts {
		if m.Src == "" || srcs[m.Src] != 0 {
			continue
		}
		fd, err := unix.Open(m.Src, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open %s: %w", m.Src, err)
		}
		srcs[m.Src] = fd
	}
	for _, m := range p.Mounts {
		if err := mountOne(m, srcs); err != nil {
			return err
		}
	}
	for _, fd := range srcs {
		unix.Close(fd)
	}
	// A /proc of the new PID namespace hides Grit and every host process.
	// Where the kernel refuses it (a container that masks parts of /proc),
	// the host's stays, and Landlock still denies reading other processes'
	// memory and environment (it blocks ptrace-mode access out of the domain).
	unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	unix.Sethostname([]byte("grit-sandbox"))
	if err := os.Chdir(p.Dir); err != nil {
		return fmt.Errorf("chdir: %w", err)
	}
	if err := restrictLandlock(p); err != nil {
		return err
	}
	return dropCapabilities()
}

// mountOne applies one step of the plan.
func mountOne(m mountOp, srcs map[string]int) error {
	dir := true
	if m.Src != "" {
		var st unix.Stat_t
		if err := unix.Fstat(srcs[m.Src], &st); err != nil {
			return fmt.Errorf("stat %s: %w", m.Src, err)
		}
		dir = st.Mode&unix.S_IFMT == unix.S_IFDIR
	}
	if err := ensureMountPoint(m.Dst, dir); err != nil {
		return fmt.Errorf("mount point %s: %w", m.Dst, err)
	}
	switch m.Kind {
	case mountTmpfs, mountTmpfsRO:
		mode := "mode=1777"
		if m.Kind == mountTmpfsRO {
			mode = "mode=0755"
		}
		if err := unix.Mount("tmpfs", m.Dst, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, mode); err != nil {
			return fmt.Errorf("mount tmpfs on %s: %w", m.Dst, err)
		}
		if m.Kind == mountTmpfsRO {
			return remountRO(m.Dst)
		}
	case mountBind, mountROBind:
		src := "/proc/self/fd/" + strconv.Itoa(srcs[m.Src])
		if err := unix.Mount(src, m.Dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s on %s: %w", m.Src, m.Dst, err)
		}
		if m.Kind == mountROBind {
			return remountRO(m.Dst)
		}
	default:
		return fmt.Errorf("unknown mount kind %q (expected: tmpfs, tmpfs-ro, bind, ro-bind)", m.Kind)
	}
	return nil
}

// remountRO makes the mount at p read-only, keeping the flags the kernel
// locks in a user namespace (nosuid, nodev, noexec, atime).
func remountRO(p string) error {
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return fmt.Errorf("statfs %s: %w", p, err)
	}
	keep := uintptr(st.Flags) & (unix.ST_NOSUID | unix.ST_NODEV | unix.ST_NOEXEC | unix.ST_NOATIME | unix.ST_NODIRATIME | unix.ST_RELATIME)
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for st, ms := range map[uintptr]uintptr{unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV, unix.ST_NOEXEC: unix.MS_NOEXEC,
		unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME} {
		if keep&st != 0 {
			flags |= ms
		}
	}
	if err := unix.Mount("", p, "", flags, ""); err != nil {
		return fmt.Errorf("remount %s read-only: %w", p, err)
	}
	return nil
}

// ensureMountPoint creates p (a directory, or an empty file) when missing.
// Missing protected paths are created on the host this way and removed by
// the host after the run, as bwrap does.
func ensureMountPoint(p string, dir bool) error {
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	if dir {
		return os.MkdirAll(p, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// devFiles are the device files a command may write.
var devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// restrictLandlock enforces the ruleset on this thread: read and execute
// everywhere, write only in the plan's writable directories and the
// harmless devices, no TCP unless the network is allowed, no signals or
// abstract Unix sockets to processes outside. The ABI is checked first; the
// ruleset is never downgraded (no BestEffort).
func restrictLandlock(p childPlan) error {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if abi < p.ABI {
		return fmt.Errorf("landlock: the kernel's ABI is %d, the sandbox needs %d", abi, p.ABI)
	}
	want := landlock.V6
	cfg := landlock.Config{HandledAccessFS: want.HandledAccessFS, Scoped: want.Scoped}
	if !p.Network {
		cfg.HandledAccessNet = want.HandledAccessNet
	}
	var writable []string
	for _, w := range p.Writable {
		if _, err := os.Stat(w); err == nil {
			writable = append(writable, w)
		}
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(writable...).WithRefer(),
		landlock.RWFiles(devFiles...).IgnoreIfMissing(),
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock ruleset: %w", err)
	}
	if fd < 0 {
		return errors.New("landlock: nothing to enforce (a bug: the ruleset is empty)")
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return nil
}

// dropCapabilities empties the bounding, ambient, inheritable, permitted
// and effective sets, so bash runs with none (root in the namespace gets
// its capabilities back at exec only from the bounding set).
func dropCapabilities() error {
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("drop capability %d from the bounding set: %w", c, err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	return nil
}
