package sandbox

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The isolation tests (RELIABILITY D1–D12) check the sandbox from outside:
// a listener on the host counts connections, files outside must keep their
// bytes, canaries must not appear in output.

// helperEnv makes the test binary act as a Grit process that runs one
// sandboxed command and blocks (the kill -9 test, D7).
const helperEnv = "GRIT_SANDBOX_TEST_HELPER"

// offThreadEnv makes the landlock child run ChildMain off the main thread.
const offThreadEnv = "GRIT_SANDBOX_TEST_OFF_THREAD"

func TestMain(m *testing.M) {
	// The landlock+netns backend re-executes this binary as its child.
	if len(os.Args) > 1 && os.Args[1] == ChildCommand {
		if os.Getenv(offThreadEnv) != "" {
			// ChildMain on a thread other than the main one, as a goroutine
			// that moved before ChildMain locked it would be.
			runtime.LockOSThread()
			code := make(chan int)
			go func() {
				runtime.LockOSThread()
				code <- ChildMain(os.Args[2:])
			}()
			os.Exit(<-code)
		}
		os.Exit(ChildMain(os.Args[2:]))
	}
	if ws := os.Getenv(helperEnv); ws != "" {
		r, err := New(Config{Workspace: ws, Backend: os.Getenv(helperEnv + "_BACKEND"), EnvPassthrough: []string{offThreadEnv}})
		if err != nil {
			fmt.Println("helper:", err)
			os.Exit(3)
		}
		fmt.Println("ready")
		r.Run(context.Background(), Spec{Script: os.Getenv(helperEnv + "_SCRIPT"), Timeout: time.Hour})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// backends is D12: every case runs against each backend with the same
// expectations.
var backends = []string{BackendBwrap, "landlock"}

type fixture struct {
	r    Runner
	ws   string
	home string
}

func newFixture(t *testing.T, backend string, mod func(*Config)) fixture {
	t.Helper()
	ws := t.TempDir()
	home := t.TempDir()
	cfg := Config{Workspace: ws, Backend: backend, Home: home}
	if mod != nil {
		mod(&cfg)
	}
	r, err := New(cfg)
	if errors.Is(err, ErrNoBackend) {
		t.Skipf("SKIP (loud): backend %s is not available here: %v", backend, err)
	}
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	f := fixture{r: r, ws: cfg.Workspace, home: home}
	// The sandbox itself must work, or every "denied" below would pass
	// for the wrong reason.
	if res := f.run(t, "true"); res.ExitCode != 0 {
		t.Fatalf("%s: `true` inside the sandbox: exit %d: %s", backend, res.ExitCode, res.Output)
	}
	return f
}

func (f fixture) run(t *testing.T, script string) Result {
	t.Helper()
	return f.runFor(t, script, time.Minute)
}

func (f fixture) runFor(t *testing.T, script string, timeout time.Duration) Result {
	t.Helper()
	res, err := f.r.Run(context.Background(), Spec{Script: script, Dir: f.ws, Timeout: timeout})
	if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	return res
}

func forEachBackend(t *testing.T, fn func(t *testing.T, backend string)) {
	for _, b := range backends {
		t.Run(b, func(t *testing.T) { fn(t, b) })
	}
}

// forEachBackendParallel is forEachBackend for slow cases that change no
// process-wide state (environment, PATH, detectABI).
func forEachBackendParallel(t *testing.T, fn func(t *testing.T, backend string)) {
	for _, b := range backends {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			fn(t, b)
		})
	}
}

func hashTree(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fmt.Fprintln(h, p, d.Type())
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

// D1: writes outside the workspace fail; the workspace is writable; /tmp
// is private.
func TestWritesOutsideFail(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		outside := t.TempDir()
		os.WriteFile(filepath.Join(outside, "keep"), []byte("original"), 0o644)
		// A directory outside /tmp (which is private anyway) next to the module.
		sibling, err := os.MkdirTemp(".", "outside-")
		if err != nil {
			t.Fatal(err)
		}
		sibling, _ = filepath.Abs(sibling)
		defer os.RemoveAll(sibling)
		before, beforeSib := hashTree(t, outside), hashTree(t, sibling)
		f := newFixture(t, backend, nil)
		parent := filepath.Dir(f.ws)
		for _, target := range []string{"/etc/grit-canary", filepath.Join(sibling, "x"), filepath.Join(f.home, "x"), filepath.Join(parent, "x"), filepath.Join(outside, "keep"), "/usr/grit-canary", "/root/grit-canary"} {
			res := f.run(t, "echo pwned > "+target)
			// Under /tmp the write lands in the private tmpfs; what matters
			// there is the host, checked below.
			if res.ExitCode == 0 && !strings.HasPrefix(target, "/tmp/") {
				t.Errorf("write to %s succeeded inside the sandbox, want EROFS or EACCES", target)
			}
		}
		if res := f.run(t, "echo ok > in.txt && cat in.txt"); res.ExitCode != 0 || !strings.Contains(res.Output, "ok") {
			t.Errorf("write in the workspace: exit %d, output %q, want success", res.ExitCode, res.Output)
		}
		name := "grit-private-tmp-" + strconv.Itoa(os.Getpid())
		if res := f.run(t, "echo x > /tmp/"+name+" && cat /tmp/"+name); res.ExitCode != 0 {
			t.Errorf("write to the private /tmp failed: %q", res.Output)
		}
		if _, err := os.Stat("/tmp/" + name); err == nil {
			os.Remove("/tmp/" + name)
			t.Errorf("/tmp/%s appeared on the host: /tmp is not private", name)
		}
		if hashTree(t, outside) != before || hashTree(t, sibling) != beforeSib {
			t.Error("files outside the workspace changed")
		}
		for _, p := range []string{"/etc/grit-canary", "/usr/grit-canary", "/root/grit-canary", filepath.Join(parent, "x")} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s exists on the host after the sandboxed write", p)
			}
		}
	})
}

// countingListener accepts TCP connections on 127.0.0.1 and counts them.
func countingListener(t *testing.T, network string) (addr string, count *atomic.Int64) {
	t.Helper()
	count = new(atomic.Int64)
	switch network {
	case "udp":
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pc.Close() })
		go func() {
			buf := make([]byte, 512)
			for {
				if _, _, err := pc.ReadFrom(buf); err != nil {
					return
				}
				count.Add(1)
			}
		}()
		return pc.LocalAddr().String(), count
	default:
		ln, err := net.Listen(network, map[string]string{"tcp": "127.0.0.1:0", "tcp6": "[::1]:0"}[network])
		if err != nil {
			t.Skipf("SKIP (loud): cannot listen on %s: %v", network, err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				count.Add(1)
				c.Close()
			}
		}()
		return ln.Addr().String(), count
	}
}

// D2 and E3: no network. The host listeners must see nothing.
func TestNoNetwork(t *testing.T) {
	forEachBackendParallel(t, func(t *testing.T, backend string) {
		f := newFixture(t, backend, nil)
		tcp, tcpCount := countingListener(t, "tcp")
		udp, udpCount := countingListener(t, "udp")
		host, port, _ := net.SplitHostPort(tcp)
		_, uport, _ := net.SplitHostPort(udp)
		// A path socket standing in for docker.sock, in /run (masked) when we
		// may write there, and an abstract socket.
		var unixCount *atomic.Int64
		sockPath := fmt.Sprintf("/run/grit-test-%d-%s.sock", os.Getpid(), backend)
		if ln, err := net.Listen("unix", sockPath); err == nil {
			unixCount = new(atomic.Int64)
			t.Cleanup(func() { ln.Close(); os.Remove(sockPath) })
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					unixCount.Add(1)
					c.Close()
				}
			}()
		} else {
			t.Logf("LOUD: cannot create %s (%v): the docker.sock case is not checked", sockPath, err)
		}
		abstract := fmt.Sprintf("@grit-test-%d-%s", os.Getpid(), backend)
		abs, err := net.Listen("unix", abstract)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { abs.Close() })
		var absCount atomic.Int64
		go func() {
			for {
				c, err := abs.Accept()
				if err != nil {
					return
				}
				absCount.Add(1)
				c.Close()
			}
		}()
		hostIP := nonLoopbackIP()
		scripts := []string{
			fmt.Sprintf("exec 3<>/dev/tcp/%s/%s", host, port),
			fmt.Sprintf("curl -sS -m 3 http://%s/", tcp),
			fmt.Sprintf("curl -sS -m 3 http://%s/x | sh", tcp),
			fmt.Sprintf("python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b\"x\", (\"127.0.0.1\", %s))'", uport),
			fmt.Sprintf("echo x > /dev/udp/127.0.0.1/%s", uport),
			"python3 -c 'import socket; socket.getaddrinfo(\"example.com\", 80)'",
			"python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b\"x\", (\"8.8.8.8\", 53))'",
			"ping -c 1 -W 1 127.0.0.1",
			fmt.Sprintf("python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"%s\")'", sockPath),
			fmt.Sprintf("python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"\\0%s\")'", abstract[1:]),
		}
		if hostIP != "" {
			scripts = append(scripts, fmt.Sprintf("exec 3<>/dev/tcp/%s/%s", hostIP, port))
		}
		// A datagram "succeeds" into the sandbox's own empty network, and a
		// pipeline's status is its last command's: for those the host-side
		// counts below are the assertion.
		countOnly := map[int]bool{2: true, 3: true, 4: true, 6: true}
		for i, s := range scripts {
			if res := f.run(t, s); res.ExitCode == 0 && !countOnly[i] {
				t.Errorf("%s succeeded inside the sandbox (output %q), want failure", s, res.Output)
			}
		}
		if n := tcpCount.Load(); n != 0 {
			t.Errorf("the host TCP listener accepted %d connections from the sandbox, want 0", n)
		}
		if n := udpCount.Load(); n != 0 {
			t.Errorf("the host UDP listener received %d packets from the sandbox, want 0", n)
		}
		if unixCount != nil && unixCount.Load() != 0 {
			t.Errorf("the host Unix socket accepted %d connections, want 0", unixCount.Load())
		}
		if n := absCount.Load(); n != 0 {
			t.Errorf("the abstract Unix socket accepted %d connections, want 0", n)
		}
	})
}

func nonLoopbackIP() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && !ip.IP.IsLoopback() && ip.IP.To4() != nil {
			return ip.IP.String()
		}
	}
	return ""
}

// Network allowed: the listener is reached (the sandbox is not simply broken).
func TestNetworkAllowed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		f := newFixture(t, backend, func(c *Config) { c.Network = true })
		tcp, count := countingListener(t, "tcp")
		host, port, _ := net.SplitHostPort(tcp)
		if res := f.run(t, fmt.Sprintf("exec 3<>/dev/tcp/%s/%s", host, port)); res.ExitCode != 0 {
			t.Fatalf("with Network: connect failed: %q", res.Output)
		}
		for count.Load() == 0 {
			time.Sleep(10 * time.Millisecond) // bounded by the test timeout
		}
	})
}

// D3: protected workspace paths are read-only, also when missing.
func TestProtectedPaths(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		f := newFixture(t, backend, nil)
		for _, s := range []string{
			"mkdir -p .git/hooks && echo x > .git/hooks/pre-commit",
			"mkdir -p .grit && echo '{}' > .grit/settings.json",
			"echo x > .gitmodules",
		} {
			if res := f.run(t, s); res.ExitCode == 0 {
				t.Errorf("empty workspace: %q succeeded, want failure", s)
			}
		}
		for _, p := range []string{".git", ".grit", ".gitmodules"} {
			if _, err := os.Lstat(filepath.Join(f.ws, p)); err == nil {
				t.Errorf("%s left behind in the workspace after the run", p)
			}
		}
		// An existing repository: its git directory is read-only.
		if out, err := exec.Command("git", "init", "-q", f.ws).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
		os.MkdirAll(filepath.Join(f.ws, ".grit"), 0o755)
		cfgBefore, _ := os.ReadFile(filepath.Join(f.ws, ".git", "config"))
		for _, s := range []string{
			"echo '[core] fsmonitor = evil' >> .git/config",
			"echo x > .git/hooks/pre-commit",
			"rm -rf .git/hooks",
			"echo '{}' > .grit/settings.json",
			"mv .grit g",
		} {
			if res := f.run(t, s); res.ExitCode == 0 {
				t.Errorf("git repo: %q succeeded, want failure", s)
			}
		}
		if after, _ := os.ReadFile(filepath.Join(f.ws, ".git", "config")); string(after) != string(cfgBefore) {
			t.Error(".git/config changed")
		}
		// The git directory is read-only as a whole (issue 21): objects too.
		if res := f.run(t, "echo a > a && git add a"); res.ExitCode == 0 {
			t.Errorf("git add inside the sandbox succeeded: %q", res.Output)
		}
	})
}

// D4: a protected path replaced by a symlink refuses to build the sandbox.
func TestSymlinkReplacement(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		for _, name := range []string{".git", ".grit"} {
			f := newFixture(t, backend, nil)
			decoy := t.TempDir()
			if err := os.Symlink(decoy, filepath.Join(f.ws, name)); err != nil {
				t.Fatal(err)
			}
			_, err := f.r.Run(context.Background(), Spec{Script: "true", Dir: f.ws})
			if err == nil || !strings.Contains(err.Error(), "symlink") {
				t.Errorf("%s is a symlink: Run error = %v, want a refusal naming the symlink", name, err)
			}
		}
	})
}

// D5 and D6: secrets are masked and scrubbed.
func TestSecrets(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		const canary = "grit-canary-5f2b"
		t.Setenv("OPENAI_API_KEY", canary+"-env")
		t.Setenv("MY_SERVICE_TOKEN", canary+"-env2")
		t.Setenv("GRIT_PASSTHROUGH_OK", "visible")
		f := newFixture(t, backend, func(c *Config) { c.EnvPassthrough = []string{"GRIT_PASSTHROUGH_OK"} })
		for _, p := range []string{".ssh/id_ed25519", ".aws/credentials", ".config/gh/hosts.yml", ".netrc"} {
			full := filepath.Join(f.home, p)
			os.MkdirAll(filepath.Dir(full), 0o700)
			os.WriteFile(full, []byte(canary+"-"+p), 0o600)
		}
		os.WriteFile(filepath.Join(f.ws, ".env"), []byte("SECRET="+canary+"-dotenv\n"), 0o600)
		os.WriteFile(filepath.Join(f.ws, ".env.local"), []byte("SECRET="+canary+"-dotenv2\n"), 0o600)
		home := f.home
		res := f.run(t, fmt.Sprintf(`cat %[1]s/.ssh/id_ed25519 %[1]s/.aws/credentials %[1]s/.config/gh/hosts.yml %[1]s/.netrc .env .env.local; cat /proc/%[2]d/environ; cat /proc/*/environ; env; echo "SECRET=$SECRET"`, home, os.Getpid()))
		if strings.Contains(res.Output, canary) {
			t.Errorf("a canary leaked into the sandbox:\n%s", res.Output)
		}
		if !strings.Contains(res.Output, "GRIT_PASSTHROUGH_OK=visible") {
			t.Error("EnvPassthrough variable missing inside the sandbox")
		}
		for _, v := range []string{"PATH=", "HOME="} {
			if !strings.Contains(res.Output, v) {
				t.Errorf("%s missing from the sandbox environment", v)
			}
		}
	})
}

// D7: timeouts kill everything the command started; so does killing Grit.
func TestProcessLifetime(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		f := newFixture(t, backend, nil)
		marker := fmt.Sprintf("grit-orphan-%d-%d", os.Getpid(), time.Now().UnixNano())
		res, err := f.r.Run(context.Background(), Spec{Script: fmt.Sprintf("(exec -a %s sleep 1000) & sleep 1000", marker), Dir: f.ws, Timeout: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if !res.TimedOut {
			t.Errorf("Result.TimedOut = false, want true")
		}
		waitNoProcess(t, marker)

		// kill -9 of the parent; for the landlock child (bwrap is not ours)
		// with its setup on the main thread and on another one
		// (PR_SET_PDEATHSIG belongs to a thread).
		offs := []string{""}
		if backend == "landlock" {
			offs = append(offs, "1")
		}
		for _, off := range offs {
			killParent(t, f, backend, marker+"-parent"+off, off)
		}
	})
}

// killParent starts a Grit process (this binary as the helper) that runs a
// sleep with argv[0] marker in the sandbox, kills it with SIGKILL and checks
// that the sleep dies too. offThread, if set, has the landlock child run its
// setup off the main thread.
func killParent(t *testing.T, f fixture, backend, marker2, offThread string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+f.ws, helperEnv+"_SCRIPT="+fmt.Sprintf("exec -a %s sleep 1000", marker2), helperEnv+"_BACKEND="+backend, offThreadEnv+"="+offThread)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		t.Fatalf("helper said %q", line)
	}
	for !processWith(marker2) {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	waitNoProcess(t, marker2)
}

// processWith reports whether a process whose argv[0] is s runs (the
// script text also appears in bwrap's and bash's arguments, so only argv[0]
// identifies the sleeping child).
func processWith(s string) bool { return pidWith(s) != 0 }

// pidWith is the pid of a process whose argv[0] is s, 0 if none runs.
func pidWith(s string) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if arg0, _, _ := strings.Cut(string(b), "\x00"); arg0 == s {
			return pid
		}
	}
	return 0
}

// waitNoProcess polls until no process carries marker, failing after a generous
// bound (not a timing assertion: the kernel reaps asynchronously).
func waitNoProcess(t *testing.T, marker string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if !processWith(marker) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	// What the orphan is (its state, parent, namespaces' pids and signal
	// masks: how the lost parent-death signal showed), then it is killed,
	// not left to run for 1000 s.
	pid := pidWith(marker)
	var state []string
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			switch k, _, _ := strings.Cut(l, ":"); k {
			case "State", "PPid", "NSpid", "NSpgid", "NSsid", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt", "NoNewPrivs":
				state = append(state, l)
			}
		}
	}
	if pid > 0 {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Errorf("process %s (pid %d) still runs: orphaned\n%s", marker, pid, strings.Join(state, "\n"))
}

// D8 and D9: no privileges, no signals out.
func TestPrivileges(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		f := newFixture(t, backend, nil)
		res := f.run(t, "grep -E '^(NoNewPrivs|CapEff)' /proc/self/status")
		if !strings.Contains(res.Output, "NoNewPrivs:\t1") || !strings.Contains(res.Output, "CapEff:\t0000000000000000") {
			t.Errorf("in-sandbox status:\n%s\nwant NoNewPrivs 1 and CapEff 0", res.Output)
		}
		victim := exec.Command("sleep", "1000")
		if err := victim.Start(); err != nil {
			t.Fatal(err)
		}
		defer victim.Process.Kill()
		if res := f.run(t, fmt.Sprintf("kill -0 %d || exit 1; kill -0 $PPID && [ $PPID -gt 1 ]", victim.Process.Pid)); res.ExitCode == 0 {
			t.Errorf("signalling a host process from inside succeeded")
		}
		if victim.ProcessState != nil {
			t.Error("the host process died")
		}
	})
}

// D10: fail closed. No bwrap in PATH and a kernel without Landlock (or
// with too old an ABI): every sandboxed backend refuses, saying why.
func TestFailClosed(t *testing.T) {
	// A PATH with bash but no bwrap.
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(bash, filepath.Join(bin, "bash")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	for _, abi := range []int{0, LandlockABI - 1} {
		detectABI = func() int { return abi }
		for _, b := range []string{BackendAuto, BackendBwrap, "landlock"} {
			r, err := New(Config{Workspace: t.TempDir(), Backend: b})
			if err == nil {
				t.Errorf("ABI %d: New(Backend %s) without bwrap = %s runner, want ErrNoBackend", abi, b, r.Backend())
				continue
			}
			if !errors.Is(err, ErrNoBackend) && b != BackendBwrap {
				t.Errorf("ABI %d: New(Backend %s) error = %v, want ErrNoBackend", abi, b, err)
			}
			if b != "landlock" && !strings.Contains(err.Error(), "bubblewrap") {
				t.Errorf("ABI %d: New(Backend %s) error %q does not say what to install", abi, b, err)
			}
			if b != BackendBwrap && !strings.Contains(err.Error(), "Landlock") {
				t.Errorf("ABI %d: New(Backend %s) error %q does not say why Landlock does not work", abi, b, err)
			}
		}
	}
	detectABI = landlockABI
	if _, err := New(Config{Workspace: "/x", Backend: "docker"}); err == nil || !strings.Contains(err.Error(), "expected: auto, bwrap, landlock, none") {
		t.Errorf("unknown backend error = %v", err)
	}
}

// E2: the repository's .env never reaches a command's environment.
func TestDotEnvNotLoaded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		f := newFixture(t, backend, nil)
		os.WriteFile(filepath.Join(f.ws, ".env"), []byte("GRIT_E2_MARKER=loaded\n"), 0o644)
		if res := f.run(t, "echo \"[$GRIT_E2_MARKER]\""); !strings.Contains(res.Output, "[]") {
			t.Errorf("the repository .env was loaded: %q", res.Output)
		}
		if os.Getenv("GRIT_E2_MARKER") != "" {
			t.Error("the repository .env reached Grit's own environment")
		}
	})
}

func TestProbe(t *testing.T) {
	st := Probe()
	if len(st) != 3 || st[0].Name != BackendBwrap {
		t.Fatalf("Probe() = %+v, want bwrap, landlock+netns, none", st)
	}
	for _, s := range st {
		t.Logf("%s available=%v %s", s.Name, s.Available, s.Detail)
		if s.Detail == "" {
			t.Errorf("Probe: %s has no detail", s.Name)
		}
	}
}

// Real work runs unchanged inside: go test, pytest and npm test write their
// caches (GOCACHE, module cache, .pytest_cache, npm's cache) where allowed.
func TestRealToolsRun(t *testing.T) {
	tools := []struct {
		name, bin, script string
		files             map[string]string
	}{
		{"go test", "go", "go test ./...", map[string]string{
			"go.mod":    "module example.com/m\n\ngo 1.22\n",
			"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n",
			"m.go":      "package m\n",
		}},
		{"pytest", "pytest", "pytest -q", map[string]string{
			"test_x.py": "def test_ok():\n    assert 1 + 1 == 2\n",
		}},
		{"npm test", "npm", "npm test", map[string]string{
			"package.json": `{"name":"m","version":"1.0.0","scripts":{"test":"node test.js"}}`,
			"test.js":      "require('assert').strictEqual(1 + 1, 2); console.log('ok');\n",
		}},
	}
	for _, tool := range tools {
		t.Run(tool.name, func(t *testing.T) {
			forEachBackendParallel(t, func(t *testing.T, backend string) {
				realToolRun(t, backend, tool.bin, tool.script, tool.files)
			})
		})
	}
}

func realToolRun(t *testing.T, backend, bin, script string, files map[string]string) {
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("SKIP (loud): %s not installed", bin)
	}
	home, _ := os.UserHomeDir()
	f := newFixture(t, backend, func(c *Config) { c.Home = home })
	for name, body := range files {
		os.WriteFile(filepath.Join(f.ws, name), []byte(body), 0o644)
	}
	// A fresh machine's first go test compiles the standard library's
	// test dependencies with an empty build cache, two backends at once,
	// beside the rest of the suite: on 2 loaded cores that took over the
	// minute other runs get.
	if res := f.runFor(t, script, 10*time.Minute); res.ExitCode != 0 {
		t.Errorf("%s inside the %s sandbox: exit %d\n%s", script, backend, res.ExitCode, res.Output)
	}
}
