package tool

import (
	"context"
	"sync"

	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/sandbox"
)

// Env is the state tools share within one session. It is safe for concurrent use.
type Env struct {
	Root   string         // absolute workspace root; file tools are confined to it
	Runner sandbox.Runner // runs Bash commands
	// Index opens the repository index, brought up to date (Locate, EditFunction).
	// Nil when the session has no index.
	Index func(ctx context.Context) (*index.Index, error)

	mu    sync.Mutex
	cwd   string               // Bash's working directory; persists between calls
	reads map[string]FileState // relative path → state when the model last read it
}

// FileState is what the harness saw of a file when the model read it.
type FileState struct {
	Size  int64
	MTime int64  // UnixNano
	Hash  string // hex SHA-256
}
