// Command grit is a coding-agent harness: it indexes a repository, finds the code
// a task is about, and has a model rewrite it, verified by the tests.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/grit-dev/grit/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
