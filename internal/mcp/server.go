// Package mcp is Grit's Model Context Protocol face: it serves the index,
// the search and the whole-definition edit path as MCP tools, so that other
// agents (Claude Code, Codex, Crush, Cursor) can see a repository with Grit.
//
// A Server owns one repository and one open index. Tools: locate, symbols,
// definition, callers, callees, edges, repo_map and, only when
// Options.AllowEdits is set, edit_function. Every tool's description is a
// file under tools/ (embedded); its input schema is inferred from its input
// struct and tightened (minimums, maximums) in tools.go.
//
// Invariants:
//   - Every call first brings the index up to date incrementally, under the
//     server's exclusive lock, so two concurrent calls never both write; the
//     read-only part of a call then runs under a shared lock, while
//     edit_function holds the exclusive lock to the end (read, check, splice,
//     re-index). A missing or unusable index is reopened and rebuilt.
//   - Paths outside the repository (absolute elsewhere, "..", symlinks that
//     lead out) are refused with a tool error; files are read through os.Root.
//   - Answers are text sized for a model's window: each tool takes a token
//     budget (default DefaultBudget) and says what it cut.
//   - Mistakes the client can correct (unknown name, ambiguous name, path not
//     indexed, an edit the quality monitor rejects) are tool results with
//     IsError and an actionable sentence; a broken environment is a Go error,
//     which the SDK also reports as a tool error.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
)

// Options configure a Server.
type Options struct {
	Root       string        // the repository; made absolute
	AllowEdits bool          // register edit_function
	Version    string        // reported to clients as the server version
	Warn       func(string)  // index warnings (a database moved aside, ...); nil drops them
	Index      index.Options // passed to the index (its Warn is set from Warn above)
}

// Server serves one repository's index over MCP. Create it with New; it is
// safe for concurrent use by any number of sessions.
type Server struct {
	root   string // absolute, symlinks resolved
	opts   Options
	fsys   *os.Root
	server *sdk.Server

	cancel context.CancelFunc // stops the first index (started by New)
	wg     sync.WaitGroup     // the first index

	// mu serialises index updates and edits (Lock) against queries (RLock).
	mu  sync.RWMutex
	ix  *index.Index // nil until the first successful open
	gen uint64       // bumped whenever the index may have changed

	// graphMu guards graph, the file graph of generation graph.gen, which
	// repo_map reuses until the index changes.
	graphMu sync.Mutex
	graph   *fileGraph
}

// New builds the MCP server for a repository and starts indexing it in the
// background. A first index that fails is not fatal: it is retried on every
// call. Close releases it.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Root == "" {
		opts.Root = "."
	}
	abs, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("mcp: repository %s: %w", opts.Root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("mcp: repository %s: %w", opts.Root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("mcp: repository %s is not a directory", opts.Root)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	fsys, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("mcp: repository %s: %w", abs, err)
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{root: abs, opts: opts, fsys: fsys}
	s.opts.Index.Warn = s.warn
	s.server = sdk.NewServer(&sdk.Implementation{Name: "grit", Title: "Grit code index", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions(s.root, opts.AllowEdits)})
	s.addTools()
	// Index in the background, so that a client's handshake does not wait
	// for the first index of a large repository; the first call waits for
	// it through the lock.
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	s.mu.Lock()
	s.wg.Go(func() {
		defer s.mu.Unlock()
		if _, err := s.refreshLocked(bg); err != nil && bg.Err() == nil {
			s.warn(fmt.Sprintf("first index of %s failed (retried on each call): %v", abs, err))
		}
	})
	return s, nil
}

// Root is the repository the server serves (absolute).
func (s *Server) Root() string { return s.root }

// MCP is the underlying SDK server, for transports.
func (s *Server) MCP() *sdk.Server { return s.server }

// Run serves one session over t until the client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.server.Run(ctx, t)
}

// Close stops the first index if it is still running and closes the index.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.ix != nil {
		err = s.ix.Close()
		s.ix = nil
	}
	return errors.Join(err, s.fsys.Close())
}

func (s *Server) warn(msg string) {
	if s.opts.Warn != nil {
		s.opts.Warn(msg)
	}
}

// refreshLocked brings the index up to date, opening (or reopening) it when it
// is not open, its database file was removed, or an update fails. s.mu must be
// held exclusively.
func (s *Server) refreshLocked(ctx context.Context) (*index.Index, error) {
	if s.ix != nil {
		if _, err := os.Stat(index.DBPath(s.root)); err != nil {
			s.warn("the index database is gone: rebuilding it")
			s.ix.Close()
			s.ix = nil
		}
	}
	var firstErr error
	for attempt := 0; attempt < 2; attempt++ {
		if s.ix == nil {
			ix, err := app.OpenIndex(ctx, s.root, s.opts.Index)
			if err != nil {
				return nil, fmt.Errorf("open index of %s: %w", s.root, err)
			}
			s.ix = ix
			s.gen++
		}
		st, err := s.ix.Update(ctx)
		if st.Parsed > 0 || st.Removed > 0 || err != nil {
			s.gen++
		}
		if err == nil {
			return s.ix, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if firstErr == nil {
			firstErr = err
			s.warn(fmt.Sprintf("index update failed (%v): reopening the index", err))
		}
		s.ix.Close()
		s.ix = nil
	}
	return nil, fmt.Errorf("update index of %s: %w", s.root, firstErr)
}

// read brings the index up to date and returns it with the shared lock held;
// call the returned release when done with it.
func (s *Server) read(ctx context.Context) (*index.Index, func(), error) {
	s.mu.Lock()
	_, err := s.refreshLocked(ctx)
	s.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	s.mu.RLock()
	if s.ix == nil { // a concurrent refresh failed after ours
		s.mu.RUnlock()
		return nil, nil, fmt.Errorf("index of %s is unavailable", s.root)
	}
	return s.ix, s.mu.RUnlock, nil
}

// generation is the index's change counter; s.mu must be held (either way).
func (s *Server) generation() uint64 { return s.gen }

// write brings the index up to date and returns it with the exclusive lock
// held; call the returned release when done.
func (s *Server) write(ctx context.Context) (*index.Index, func(), error) {
	s.mu.Lock()
	ix, err := s.refreshLocked(ctx)
	if err != nil {
		s.mu.Unlock()
		return nil, nil, err
	}
	return ix, s.mu.Unlock, nil
}

func instructions(root string, edits bool) string {
	s := "Grit indexes the repository at " + root + " (definitions, call sites, imports, a weighted file graph) " +
		"and ranks code for a task without a model. Start with locate (the task in words, and any traceback) or repo_map; " +
		"read code with definition; follow callers, callees and edges. Answers fit a token budget and say what they cut."
	if edits {
		s += " edit_function replaces one whole definition through Grit's quality checks."
	}
	return s
}
