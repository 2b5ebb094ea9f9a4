package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// D2, the Landlock half: with the network namespace turned off, Landlock
// alone blocks TCP but lets UDP reach the host (it restricts UDP only from
// ABI 10). This is why the backend is Landlock plus a network namespace.
func TestLandlockAloneLeaksUDP(t *testing.T) {
	r, err := New(Config{Workspace: t.TempDir(), Backend: BackendLandlock, Home: t.TempDir()})
	if errors.Is(err, ErrNoBackend) {
		t.Skipf("SKIP (loud): landlock+netns is not available here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	ll := r.(*landlockRunner)
	if ll.abi >= 10 {
		t.Skipf("SKIP (loud): kernel Landlock ABI %d restricts UDP itself; the leak this test shows is gone", ll.abi)
	}
	ll.netns = false
	f := fixture{r: ll, ws: ll.cfg.Workspace}
	tcp, tcpCount := countingListener(t, "tcp")
	udp, udpCount := countingListener(t, "udp")
	host, port, _ := net.SplitHostPort(tcp)
	_, uport, _ := net.SplitHostPort(udp)
	if res := f.run(t, fmt.Sprintf("exec 3<>/dev/tcp/%s/%s", host, port)); res.ExitCode == 0 {
		t.Errorf("Landlock without netns: TCP connect succeeded, want it denied")
	}
	for i := 0; i < 5 && udpCount.Load() == 0; i++ {
		f.run(t, fmt.Sprintf("echo x > /dev/udp/127.0.0.1/%s", uport))
	}
	if tcpCount.Load() != 0 {
		t.Errorf("Landlock without netns: the TCP listener accepted %d connections, want 0", tcpCount.Load())
	}
	if udpCount.Load() == 0 {
		t.Errorf("Landlock without netns: no UDP datagram reached the host; if Landlock now blocks UDP, update this test")
	}
	t.Logf("Landlock ABI %d without a network namespace: TCP blocked, %d UDP datagrams reached the host", ll.abi, udpCount.Load())
}

// D11: the command has no controlling terminal and cannot push input into
// one with TIOCSTI, even when its stdin is a terminal.
func TestNoTIOCSTI(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		f := newFixture(t, backend, nil)
		master, slave := openPTY(t)
		defer master.Close()
		defer slave.Close()
		script := `python3 -c 'import fcntl, termios, sys
try:
    fcntl.ioctl(0, termios.TIOCSTI, b"x")
except OSError as e:
    print("denied", e.errno); sys.exit(1)
print("injected")'; echo "tty: $(tty)"; [ -e /dev/tty ] && (: </dev/tty) 2>/dev/null && echo "has a controlling tty"; true`
		res, err := f.r.Run(t.Context(), Spec{Script: script, Dir: f.ws, Stdin: slave})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Output, "injected") || !strings.Contains(res.Output, "denied") {
			t.Errorf("TIOCSTI on the terminal on stdin: %q, want it denied", res.Output)
		}
		if strings.Contains(res.Output, "has a controlling tty") {
			t.Errorf("the command opened /dev/tty: it has a controlling terminal (no new session)")
		}
	})
}

// openPTY opens a pseudo-terminal pair.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("SKIP (loud): no /dev/ptmx: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("SKIP (loud): unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("SKIP (loud): ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("SKIP (loud): open pty slave: %v", err)
	}
	return m, s
}

// D10: the backend never asks go-landlock for a best-effort (silently
// weaker) ruleset: the ABI is checked and the ruleset is exactly V6's.
func TestNoBestEffort(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), ".BestEffort(") {
			t.Errorf("%s calls BestEffort: a kernel with an older Landlock ABI would get a weaker sandbox in silence", f)
		}
	}
}

// The landlock backend's protected-path masks leave nothing behind, and the
// child refuses a malformed plan without running anything.
func TestChildRefusesBadPlan(t *testing.T) {
	for _, args := range [][]string{nil, {"not json"}, {`{"exec":[]}`}} {
		if code := ChildMain(args); code != childExitSetup {
			t.Errorf("ChildMain(%q) = %d, want %d", args, code, childExitSetup)
		}
	}
}

// A helper that does not act as the sandbox child (here: one that ignores
// the probe) is refused at New, before any command is trusted to it; and a
// process started as a child that did not dispatch ChildCommand refuses to
// start sandboxes of its own.
func TestLandlockHelperChecked(t *testing.T) {
	if abi := detectABI(); abi < LandlockABI {
		t.Skipf("SKIP (loud): kernel Landlock ABI %d < %d: New fails before it looks at the helper", abi, LandlockABI)
	}
	_, err := New(Config{Workspace: t.TempDir(), Backend: BackendLandlock, Helper: []string{"/bin/echo", "hello"}})
	if err == nil || !errors.Is(err, ErrNoBackend) || !strings.Contains(err.Error(), "does not act as the sandbox child") {
		t.Errorf("New with a helper that is not a sandbox child: %v, want ErrNoBackend naming it", err)
	}
	t.Setenv(childEnv, "1")
	_, err = New(Config{Workspace: t.TempDir(), Backend: BackendLandlock})
	if err == nil || !strings.Contains(err.Error(), "did not dispatch") {
		t.Errorf("New inside an undispatched child: %v, want a refusal", err)
	}
}

// BenchmarkRunTrue is the cost a backend adds to one command.
func BenchmarkRunTrue(b *testing.B) {
	for _, backend := range []string{BackendNone, BackendBwrap, BackendLandlock} {
		b.Run(backend, func(b *testing.B) {
			r, err := New(Config{Workspace: b.TempDir(), Backend: backend, Home: b.TempDir()})
			if err != nil {
				b.Skipf("SKIP (loud): %v", err)
			}
			for b.Loop() {
				if res, err := r.Run(b.Context(), Spec{Script: "true"}); err != nil || res.ExitCode != 0 {
					b.Fatalf("Run(true) = %+v, %v", res, err)
				}
			}
		})
	}
}

// bash found through a symlink under /tmp (hidden by the private /tmp)
// still runs: the backends resolve it first.
func TestBashViaSymlinkUnderTmp(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		bash, err := exec.LookPath("bash")
		if err != nil {
			t.Fatal(err)
		}
		bin := t.TempDir()
		if err := os.Symlink(bash, filepath.Join(bin, "bash")); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
		f := newFixture(t, backend, nil) // runs `true`, failing the test if bash is not found inside
		if res := f.run(t, "echo ok"); res.ExitCode != 0 {
			t.Errorf("echo ok: exit %d %q", res.ExitCode, res.Output)
		}
	})
}
