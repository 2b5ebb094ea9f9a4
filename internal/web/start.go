package web

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/explore"
)

// StartOptions configure Start.
type StartOptions struct {
	Source string // a directory, a bare repository or a git URL
	Addr   string // host:port; "" means 127.0.0.1:8080
	Token  string // "" means random for this run
	// AllowHosts widen the Host allowlist (--allow-host).
	AllowHosts []string
	Model      string // provider spec for the Model tab; "" resolves via ModelSpec
	// CacheDir overrides $XDG_CACHE_HOME/grit (tests).
	CacheDir string
}

// Explorer is a listening explorer: the web face over an explore.Explorer.
type Explorer struct {
	X   *explore.Explorer
	srv *Server
	ln  net.Listener
}

// Start validates the source, builds the explorer (app wires its parser),
// listens, and starts loading the source in the background (progress shows
// in the page). Call Serve next.
func Start(opts StartOptions) (*Explorer, error) {
	src, err := explore.ParseSource(opts.Source)
	if err != nil {
		return nil, err
	}
	x := app.NewExplorer(explore.Options{Model: explore.ModelSpec(opts.Model), CacheDir: opts.CacheDir, Served: src.Dir})
	srv, err := New(ExploreBackend(x), Options{Addr: opts.Addr, Token: opts.Token, AllowHosts: opts.AllowHosts})
	if err != nil {
		x.Close()
		return nil, err
	}
	ln, err := srv.Listen()
	if err != nil {
		x.Close()
		return nil, err
	}
	if err := x.Start(opts.Source); err != nil {
		ln.Close()
		x.Close()
		return nil, err
	}
	return &Explorer{X: x, srv: srv, ln: ln}, nil
}

// URL is the page's address with the access token.
func (s *Explorer) URL() string { return s.srv.URL() }

// RemoteURL is the address to open from another machine, "" on loopback.
func (s *Explorer) RemoteURL() string { return s.srv.RemoteURL() }

// Serve serves until ctx is done, then closes the explorer.
func (s *Explorer) Serve(ctx context.Context) error {
	defer s.X.Close()
	return s.srv.Serve(ctx, s.ln)
}

// ExploreBackend adapts x to the web face: results pass through as JSON
// values, and errors are classified into HTTP statuses here, so that neither
// the Explorer knows HTTP nor web knows the services.
func ExploreBackend(x *explore.Explorer) Backend { return exploreBackend{x} }

type exploreBackend struct{ x *explore.Explorer }

// httpErr wraps err with the status its sentinel maps to.
func httpErr(err error) error {
	if err == nil {
		return nil
	}
	we := &Error{Status: http.StatusInternalServerError, Err: err}
	var me *explore.ModelError
	switch {
	case errors.Is(err, explore.ErrOutsideRepo):
		we.Status = http.StatusForbidden
	case errors.Is(err, explore.ErrNotFound):
		we.Status = http.StatusNotFound
	case errors.Is(err, explore.ErrBadRequest):
		we.Status = http.StatusBadRequest
	case errors.Is(err, explore.ErrNotReady):
		we.Status = http.StatusServiceUnavailable
	case errors.Is(err, explore.ErrBusy), errors.Is(err, explore.ErrConflict):
		we.Status = http.StatusConflict
	case errors.As(err, &me):
		we.Status = http.StatusBadGateway
		we.Help, we.Commands = me.Help, me.Commands
	}
	return we
}

// result returns v with the classified error.
func result[T any](v T, err error) (T, error) { return v, httpErr(err) }

func (b exploreBackend) Status(ctx context.Context) explore.Status { return b.x.Status(ctx) }

func (b exploreBackend) Search(ctx context.Context, text, traceback string, k int) (*explore.SearchResult, error) {
	return result(b.x.Search(ctx, text, traceback, k))
}

func (b exploreBackend) Symbols(ctx context.Context, path string) (*explore.SymbolsResult, error) {
	defs, err := b.x.Symbols(ctx, path)
	if err != nil {
		return nil, httpErr(err)
	}
	return &explore.SymbolsResult{Path: path, Symbols: defs}, nil
}

func (b exploreBackend) Tree(ctx context.Context) (*explore.TreeResult, error) {
	return result(b.x.Tree(ctx))
}

func (b exploreBackend) FindSymbols(ctx context.Context, q string) (*explore.SymbolMatches, error) {
	return result(b.x.FindSymbols(ctx, q))
}

func (b exploreBackend) Refs(ctx context.Context, path string) (*explore.RefsResult, error) {
	return result(b.x.Refs(ctx, path))
}

func (b exploreBackend) AST(ctx context.Context, path string, r *[2]int) (*explore.ASTNode, error) {
	return result(b.x.AST(ctx, path, r))
}

func (b exploreBackend) Edges(ctx context.Context, path string, defID int64) (*explore.Edges, error) {
	return result(b.x.Edges(ctx, path, defID))
}

func (b exploreBackend) File(ctx context.Context, path string, start, end int) (*explore.FileSlice, error) {
	return result(b.x.File(ctx, path, start, end))
}

func (b exploreBackend) Clone(source string) error { return httpErr(b.x.StartFromPage(source)) }

func (b exploreBackend) CheckDef(ctx context.Context, defID int64) error {
	_, err := b.x.DefByID(ctx, defID)
	return httpErr(err)
}

func (b exploreBackend) Propose(ctx context.Context, defID int64, task string, onText func(string)) (*explore.ModelProposal, error) {
	return result(b.x.Propose(ctx, defID, task, onText))
}

func (b exploreBackend) Apply(ctx context.Context, defID int64, replacement, fileHash, task string) (*explore.ApplyResult, error) {
	return result(b.x.Apply(ctx, defID, replacement, fileHash, task))
}

func (b exploreBackend) Undo(ctx context.Context) (*explore.UndoResult, error) {
	return result(b.x.Undo(ctx))
}
