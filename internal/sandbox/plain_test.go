package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestPlainRun(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		spec     Spec
		wantOut  string
		wantCode int
	}{
		{"echo", Spec{Script: "echo hello"}, "hello\n", 0},
		{"stderr interleaved", Spec{Script: "echo out; echo err >&2"}, "out\nerr\n", 0},
		{"exit code", Spec{Script: "echo x; exit 3"}, "x\n", 3},
		{"working directory", Spec{Script: "pwd -P", Dir: dir}, dir + "\n", 0},
		{"stdin", Spec{Script: "cat", Stdin: strings.NewReader("in")}, "in", 0},
		{"no stdin", Spec{Script: "cat; echo done"}, "done\n", 0},
		{"extra env", Spec{Script: `echo "$FOO"`, Env: []string{"FOO=bar"}}, "bar\n", 0},
		{"killed by signal", Spec{Script: "kill -9 $$"}, "", 128 + 9},
	}
	r := NewPlain()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Run(context.Background(), tt.spec)
			if err != nil {
				t.Fatalf("Run(%q) error: %v", tt.spec.Script, err)
			}
			if res.Output != tt.wantOut || res.ExitCode != tt.wantCode {
				t.Errorf("Run(%q) = (%q, %d), want (%q, %d)", tt.spec.Script, res.Output, res.ExitCode, tt.wantOut, tt.wantCode)
			}
			if res.TimedOut || res.Truncated {
				t.Errorf("Run(%q): TimedOut=%v Truncated=%v, want false", tt.spec.Script, res.TimedOut, res.Truncated)
			}
		})
	}
	if got := r.Backend(); got != "none" {
		t.Errorf("Backend() = %q, want none", got)
	}
}

// gone reports whether pid has exited (absent, or a zombie awaiting its reaper).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone polls (bounded) until pid has exited: the kernel needs a moment to
// deliver SIGKILL, and this is not a timing assertion.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if gone(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("process %d still running after its group was killed", pid)
}

func firstPID(t *testing.T, out string) int {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("no pid in output %q", out)
	}
	return pid
}

func TestPlainTimeoutKillsGroup(t *testing.T) {
	res, err := NewPlain().Run(context.Background(), Spec{
		Script:  "sleep 1000 & echo $!; sleep 1000",
		Timeout: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !res.TimedOut {
		t.Errorf("TimedOut = false, want true (output %q)", res.Output)
	}
	if res.ExitCode != 128+9 {
		t.Errorf("ExitCode = %d, want %d", res.ExitCode, 128+9)
	}
	waitGone(t, firstPID(t, res.Output))
}

func TestPlainBackgroundJobDoesNotOutliveCall(t *testing.T) {
	res, err := NewPlain().Run(context.Background(), Spec{Script: "sleep 1000 & echo $!"})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.TimedOut || res.ExitCode != 0 {
		t.Errorf("Run = %+v, want a clean exit", res)
	}
	waitGone(t, firstPID(t, res.Output))
}

func TestPlainCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	ready := dir + "/ready"
	done := make(chan struct{})
	var res Result
	var err error
	go func() {
		res, err = NewPlain().Run(ctx, Spec{Script: "sleep 1000 & echo $! > " + ready + "; wait"})
		close(done)
	}()
	var pid int
	for i := 0; i < 1000; i++ {
		if b, e := os.ReadFile(ready); e == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("command never started")
	}
	cancel()
	<-done
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel: err = %v, want context.Canceled", err)
	}
	_ = res
	waitGone(t, pid)
}

func TestPlainOutputCap(t *testing.T) {
	res, err := NewPlain().Run(context.Background(), Spec{Script: "seq 1 100000", MaxOutput: 1000})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !res.Truncated {
		t.Fatalf("Truncated = false, want true")
	}
	if !strings.HasPrefix(res.Output, "1\n2\n3\n") || !strings.HasSuffix(res.Output, "99999\n100000\n") {
		t.Errorf("output does not keep head and tail: %q", res.Output)
	}
	if !strings.Contains(res.Output, "bytes of output cut") {
		t.Errorf("output has no cut marker: %q", res.Output)
	}
	if len(res.Output) > 1100 {
		t.Errorf("len(output) = %d, want about 1000", len(res.Output))
	}
}

func TestPlainEnvScrubbed(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "canary1")
	t.Setenv("MY_SERVICE_TOKEN", "canary2")
	t.Setenv("DB_PASSWORD", "canary3")
	t.Setenv("SOME_SECRET_THING", "canary4")
	t.Setenv("BASH_ENV", "/tmp/canary5")
	t.Setenv("GRIT_KEEP_ME_NOT", "canary6")
	t.Setenv("LANG", "C.UTF-8")
	res, err := NewPlain().Run(context.Background(), Spec{Script: "env"})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if strings.Contains(res.Output, "canary") {
		t.Errorf("secret reached the command:\n%s", res.Output)
	}
	for _, keep := range []string{"PATH=", "HOME=", "LANG=C.UTF-8"} {
		if !strings.Contains(res.Output, keep) {
			t.Errorf("env lacks %s:\n%s", keep, res.Output)
		}
	}
}

func TestScrubEnv(t *testing.T) {
	tests := []struct {
		kv   string
		keep bool
	}{
		{"PATH=/bin", true},
		{"HOME=/root", true},
		{"LANG=C", true},
		{"TERM=xterm", true},
		{"LC_ALL=C", true},
		{"ANTHROPIC_API_KEY=x", false},
		{"anthropic_base_url=x", false},
		{"OPENAI_BASE_URL=x", false},
		{"GITHUB_TOKEN=x", false},
		{"npm_config__authToken=x", false},
		{"AWS_ACCESS_KEY_ID=x", false},
		{"MYSQL_PWD_PASSWORD=x", false},
		{"BASH_FUNC_f%%=() { :; }", false},
		{"BASH_ENV=/x", false},
		{"ENV=/x", false},
		{"=broken", false},
	}
	for _, tt := range tests {
		got := false
		for _, kv := range ScrubEnv([]string{tt.kv}) {
			if kv == tt.kv {
				got = true
			}
		}
		if got != tt.keep {
			t.Errorf("ScrubEnv kept %q = %v, want %v", tt.kv, got, tt.keep)
		}
	}
}

func TestCapBuffer(t *testing.T) {
	tests := []struct {
		name      string
		max       int
		writes    []string
		want      string
		truncated bool
	}{
		{"fits", 10, []string{"abc", "def"}, "abcdef", false},
		{"exactly full", 6, []string{"abcdef"}, "abcdef", false},
		{"cut middle", 6, []string{"abcdefghij"}, "abc\n[... 4 bytes of output cut ...]\nhij", true},
		{"many small writes", 4, []string{"a", "b", "c", "d", "e", "f"}, "ab\n[... 2 bytes of output cut ...]\nef", true},
		{"rune split at head", 6, []string{"ab€cdefgh"}, "ab\n[... 6 bytes of output cut ...]\nfgh", true},
		{"rune split at tail", 6, []string{"abcdefgh€x"}, "abc\n[... 8 bytes of output cut ...]\nx", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewCapBuffer(tt.max)
			for _, w := range tt.writes {
				b.Write([]byte(w))
			}
			got, trunc := b.String()
			if got != tt.want || trunc != tt.truncated {
				t.Errorf("CapBuffer(%d) after %q = (%q, %v), want (%q, %v)", tt.max, tt.writes, got, trunc, tt.want, tt.truncated)
			}
			if !utf8.ValidString(got) {
				t.Errorf("CapBuffer output %q is not valid UTF-8", got)
			}
		})
	}
}

func BenchmarkPlainEcho(b *testing.B) {
	r := NewPlain()
	for i := 0; i < b.N; i++ {
		if _, err := r.Run(context.Background(), Spec{Script: "echo " + fmt.Sprint(i)}); err != nil {
			b.Fatal(err)
		}
	}
}
