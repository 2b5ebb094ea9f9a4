package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// maxInitBytes is the most a linked package may allocate in its
// initialisation. Every grit command is a fresh process that runs every
// linked package's init first, whatever it goes on to do: chroma's lexers
// and styles (2.3 and 1.6 MB, parsed from XML) were a quarter of the CPU of
// a no-change `grit index`. Allocation is the measure because it is
// deterministic, where init time is not; the heaviest package left
// allocates about 260 KB.
const maxInitBytes = 512 << 10

// TestInitIsCheap runs this test binary, which links every package grit
// does, with GODEBUG=inittrace=1 and fails for a package whose init
// allocates more than maxInitBytes: such work belongs behind a sync.Once
// in the command that needs it.
func TestInitIsCheap(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s -test.run=^$: %v\n%s", os.Args[0], err, stderr.String())
	}
	seen := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/x/y @7.4 ms, 25 ms clock, 2289952 bytes, 25859 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		seen++
		n, err := strconv.ParseInt(f[7], 10, 64)
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		if n > maxInitBytes {
			t.Errorf("package %s allocates %d bytes at init, want at most %d (every grit process pays it): move the work behind a sync.Once or drop the dependency",
				f[1], n, maxInitBytes)
		}
	}
	if seen < 100 {
		t.Fatalf("read %d inittrace lines, want one per linked package (more than 100):\n%s", seen, stderr.String())
	}
}
