package index_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
)

// TestMain lets the test binary act as a separate grit process: with
// GRIT_INDEX_CHILD=<root> it indexes and queries root, then exits.
func TestMain(m *testing.M) {
	if root := os.Getenv("GRIT_INDEX_CHILD"); root != "" {
		os.Exit(child(root))
	}
	os.Exit(m.Run())
}

func child(root string) int {
	ctx := context.Background()
	rounds := 5
	if os.Getenv("GRIT_INDEX_CHILD_ONCE") != "" {
		rounds = 1
	}
	for i := 0; i < rounds; i++ {
		ix, err := index.Open(ctx, root, treesitter.New(), index.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "open:", err)
			return 1
		}
		if _, err := ix.Update(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "update:", err)
			return 1
		}
		defs, err := ix.AllDefs(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "all defs:", err)
			return 1
		}
		if _, err := ix.AllEdges(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "all edges:", err)
			return 1
		}
		if len(defs) > 0 {
			if _, err := ix.Callers(ctx, defs[0].ID); err != nil {
				fmt.Fprintln(os.Stderr, "callers:", err)
				return 1
			}
		}
		// Change a file so the next process has something to write.
		p := filepath.Join(root, fmt.Sprintf("gen_%d_%d.py", os.Getpid(), i))
		os.WriteFile(p, []byte(fmt.Sprintf("def generated_%d_%d():\n    return helper_function(1)\n", os.Getpid(), i)), 0o644)
		ix.Close()
	}
	return 0
}

func childCmd(t *testing.T, root string, once bool) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GRIT_INDEX_CHILD="+root)
	if once {
		cmd.Env = append(cmd.Env, "GRIT_INDEX_CHILD_ONCE=1")
	}
	return cmd
}

// TestConcurrentProcesses runs several processes indexing and querying one
// repository at once: none sees "database is locked" and the database stays
// consistent.
func TestConcurrentProcesses(t *testing.T) {
	root := writeRepo(t, "repo.txtar")
	const n = 4
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := 0; i < n; i++ {
		cmd := childCmd(t, root, false)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		outs = append(outs, out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i])
		}
		if strings.Contains(outs[i].String(), "locked") {
			t.Errorf("process %d saw a lock error:\n%s", i, outs[i])
		}
	}
	ix := open(t, root, index.Options{})
	st := update(t, ix)
	if err := ix.DB().IntegrityCheck(context.Background()); err != nil {
		t.Error(err)
	}
	files, _ := ix.Files(context.Background())
	if len(files) != st.Seen {
		t.Errorf("Files() = %d, want %d seen", len(files), st.Seen)
	}
}

// TestKilledMidIndex kills an indexing process with SIGKILL and checks that
// the next run opens a consistent database and completes.
func TestKilledMidIndex(t *testing.T) {
	root := writeRepo(t, "repo.txtar")
	// Enough files that the write takes a while.
	for i := 0; i < 400; i++ {
		var sb strings.Builder
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&sb, "def function_%d_%d(a, b):\n    return helper_function(a) + other_%d(b)\n\n", i, j, j)
		}
		os.WriteFile(filepath.Join(root, fmt.Sprintf("many_%03d.py", i)), []byte(sb.String()), 0o644)
	}
	for _, delay := range []time.Duration{30 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond} {
		cmd := childCmd(t, root, true)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	ix := open(t, root, index.Options{})
	st := update(t, ix)
	if err := ix.DB().IntegrityCheck(context.Background()); err != nil {
		t.Error(err)
	}
	if st.Defs < 400*40 {
		t.Errorf("after kill and rerun: %d defs, want at least %d", st.Defs, 400*40)
	}
	st = update(t, ix)
	if st.Parsed != 0 {
		t.Errorf("second run parsed %d, want 0", st.Parsed)
	}
}
