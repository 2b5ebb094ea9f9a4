// Command grit is a coding-agent harness: it indexes a repository, finds the code
// a task is about, and has a model rewrite it, verified by the tests.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/grit-dev/grit/internal/cli"
	_ "github.com/grit-dev/grit/internal/prefault" // populates the heap at start-up: see its doc
)

func main() {
	// GRIT_CPUPROFILE=FILE writes a CPU profile of the whole run, for
	// `go tool pprof`: how the index and the search were made fast.
	if path := os.Getenv("GRIT_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "grit: GRIT_CPUPROFILE:", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	pprof.StopCPUProfile()
	os.Exit(code)
}
