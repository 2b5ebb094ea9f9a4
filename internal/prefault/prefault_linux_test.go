package prefault

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestPopulated checks that this test binary's own init populated the heap
// mapping it allocated from: every page of the region is resident.
func TestPopulated(t *testing.T) {
	done.Wait()
	if populated == (region{}) {
		t.Skip("GRIT_NOPREFAULT is set")
	}
	if errno == syscall.EINVAL {
		t.Skip("the kernel has no MADV_POPULATE_WRITE (Linux < 5.14)")
	}
	if errno != 0 {
		t.Fatalf("madvise(MADV_POPULATE_WRITE) over %#x: %v", populated, errno)
	}
	r := populated
	if r.end <= r.start || r.end-r.start > Window || uintptr(unsafe.Pointer(first)) < r.start {
		t.Fatalf("populated %#x, which should start at the first allocation %p and span at most %d bytes", r, first, Window)
	}
	pages := int((r.end - r.start) / 4096)
	vec := make([]byte, pages)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, r.start, r.end-r.start, uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	for i, v := range vec {
		if v&1 == 0 {
			t.Fatalf("page %d of %d (%#x) is not resident", i, pages, r.start+uintptr(i)*4096)
		}
	}
}

// TestSkips: with GRIT_NOPREFAULT, or in the sandbox's child (which execs its
// command at once), nothing is populated. The test binary runs itself with
// each variable set and reports what its own init did.
func TestSkips(t *testing.T) {
	if os.Getenv("PREFAULT_REPORT") != "" {
		done.Wait()
		fmt.Printf("populated=%v\n", populated != (region{}))
		return
	}
	for _, env := range []string{"GRIT_NOPREFAULT=1", "GRIT_SANDBOX_CHILD=1", ""} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSkips$", "-test.v")
		cmd.Env = []string{"PREFAULT_REPORT=1", env}
		for _, kv := range os.Environ() { // without the switches this test sets itself
			if !strings.HasPrefix(kv, "GRIT_NOPREFAULT=") && !strings.HasPrefix(kv, "GRIT_SANDBOX_CHILD=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", env, err, out)
		}
		want := "populated=" + strconv.FormatBool(env == "")
		if !strings.Contains(string(out), want) {
			t.Errorf("with %q the child said:\n%s\nwant %s", env, out, want)
		}
	}
}
