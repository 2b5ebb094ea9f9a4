// Package sandbox runs commands for the harness: a bash script with a working
// directory, a timeout that kills the whole process group, output capped
// keeping head and tail, and a scrubbed environment. Isolation backends
// (bubblewrap, Landlock plus a network namespace) confine what a command can
// reach; with no working backend in a sandboxed mode, Run refuses and says
// why: it never falls back to running unsandboxed in silence.
//
// The landlock+netns backend re-executes the running binary as its child
// (`grit __sandbox-exec PLAN`, see ChildMain and ChildCommand): a binary or
// test binary that uses it must dispatch that argument to ChildMain first
// thing, or set Config.Helper. Both backends build the same mount plan, so
// the isolation tests run unchanged over each of them.
package sandbox

import (
	"context"
	"io"
	"time"
)

// Spec is one command to run.
type Spec struct {
	Script    string        // a bash script, run with bash --noprofile --norc -c
	Dir       string        // working directory (absolute)
	Env       []string      // extra KEY=VALUE on top of the scrubbed environment
	Timeout   time.Duration // 0 means 2 minutes
	MaxOutput int           // bytes of combined output kept (head and tail); 0 means 30000
	Stdin     io.Reader     // nil: empty
	// Stream, when set, also receives the combined output as it is
	// produced, uncapped (Bash's background shells read it while running).
	Stream io.Writer
}

// Result of a finished command.
type Result struct {
	Output    string        `json:"output"` // stdout and stderr interleaved, capped
	ExitCode  int           `json:"exit_code"`
	TimedOut  bool          `json:"timed_out,omitempty"`
	Truncated bool          `json:"truncated,omitempty"` // bytes were dropped from the middle
	Duration  time.Duration `json:"duration_ns"`
}

// Runner runs commands. Implementations are safe for concurrent use.
type Runner interface {
	Run(ctx context.Context, s Spec) (Result, error)
	// Backend names the isolation in force: "bwrap", "landlock+netns", "none".
	Backend() string
}
