package app

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/grit-dev/grit/internal/web"
)

// ExploreServeOptions configure StartExplorer.
type ExploreServeOptions struct {
	Source string // a directory, a bare repository or a git URL
	Addr   string // host:port; "" means 127.0.0.1:8080
	Token  string // "" means random for this run
	Model  string // provider spec for the Model tab; "" resolves via ExploreModelSpec
	// CacheDir overrides $XDG_CACHE_HOME/grit (tests).
	CacheDir string
}

// ExploreServer is a listening explorer: the web face over an Explorer.
type ExploreServer struct {
	X   *Explorer
	srv *web.Server
	ln  net.Listener
}

// StartExplorer validates the source, listens, and starts loading the source
// in the background (progress shows in the page). Call Serve next.
func StartExplorer(opts ExploreServeOptions) (*ExploreServer, error) {
	src, err := ParseSource(opts.Source)
	if err != nil {
		return nil, err
	}
	x := NewExplorer(ExploreOptions{Model: ExploreModelSpec(opts.Model), CacheDir: opts.CacheDir, Served: src.Dir})
	srv, err := web.New(ExploreBackend(x), web.Options{Addr: opts.Addr, Token: opts.Token})
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
	return &ExploreServer{X: x, srv: srv, ln: ln}, nil
}

// URL is the page's address with the access token.
func (s *ExploreServer) URL() string { return s.srv.URL() }

// Serve serves until ctx is done, then closes the explorer.
func (s *ExploreServer) Serve(ctx context.Context) error {
	defer s.X.Close()
	return s.srv.Serve(ctx, s.ln)
}

// ExploreBackend adapts x to the web face: results pass through as JSON
// values, and errors are classified into HTTP statuses here, so that neither
// the Explorer knows HTTP nor web knows the services.
func ExploreBackend(x *Explorer) web.Backend { return exploreBackend{x} }

type exploreBackend struct{ x *Explorer }

// httpErr wraps err with the status its sentinel maps to.
func httpErr(err error) error {
	if err == nil {
		return nil
	}
	we := &web.Error{Status: http.StatusInternalServerError, Err: err}
	var me *ModelError
	switch {
	case errors.Is(err, ErrOutsideRepo):
		we.Status = http.StatusForbidden
	case errors.Is(err, ErrNotFound):
		we.Status = http.StatusNotFound
	case errors.Is(err, ErrBadRequest):
		we.Status = http.StatusBadRequest
	case errors.Is(err, ErrNotReady):
		we.Status = http.StatusServiceUnavailable
	case errors.Is(err, ErrBusy), errors.Is(err, ErrConflict):
		we.Status = http.StatusConflict
	case errors.As(err, &me):
		we.Status = http.StatusBadGateway
		we.Detail = map[string]any{"help": me.Help, "commands": me.Commands}
	}
	return we
}

// result returns v, or a nil interface with the classified error.
func result[T any](v T, err error) (any, error) {
	if err != nil {
		return nil, httpErr(err)
	}
	return v, nil
}

func (b exploreBackend) Status(ctx context.Context) any { return b.x.Status(ctx) }

func (b exploreBackend) Search(ctx context.Context, text, traceback string, k int) (any, error) {
	return result(b.x.Search(ctx, text, traceback, k))
}

// SymbolsResult is /api/symbols' answer.
type SymbolsResult struct {
	Path    string `json:"path"`
	Symbols []Def  `json:"symbols"`
}

func (b exploreBackend) Symbols(ctx context.Context, path string) (any, error) {
	defs, err := b.x.Symbols(ctx, path)
	if err != nil {
		return nil, httpErr(err)
	}
	return SymbolsResult{Path: path, Symbols: defs}, nil
}

func (b exploreBackend) AST(ctx context.Context, path string, r *[2]int) (any, error) {
	return result(b.x.AST(ctx, path, r))
}

func (b exploreBackend) Edges(ctx context.Context, path string, defID int64) (any, error) {
	return result(b.x.Edges(ctx, path, defID))
}

func (b exploreBackend) File(ctx context.Context, path string, start, end int) (any, error) {
	return result(b.x.File(ctx, path, start, end))
}

func (b exploreBackend) Clone(source string) error { return httpErr(b.x.StartFromPage(source)) }

func (b exploreBackend) CheckDef(ctx context.Context, defID int64) error {
	_, err := b.x.DefByID(ctx, defID)
	return httpErr(err)
}

func (b exploreBackend) Propose(ctx context.Context, defID int64, task string, onText func(string)) (any, error) {
	return result(b.x.Propose(ctx, defID, task, onText))
}

func (b exploreBackend) Apply(ctx context.Context, defID int64, replacement, fileHash, task string) (any, error) {
	return result(b.x.Apply(ctx, defID, replacement, fileHash, task))
}

func (b exploreBackend) Undo(ctx context.Context) (any, error) { return result(b.x.Undo(ctx)) }
