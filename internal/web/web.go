// Package web is the explorer's face: a net/http server with a JSON API under
// /api/ and a page built from embedded static assets (no CDN, no inline
// script). Every service call goes through a Backend, which app implements
// (app imports web and wires it: cli → app → web, so the faces stay peers).
//
// Security invariants: the server binds loopback unless given an explicit
// token of at least MinToken characters; every request's Host must be on
// the allowlist (localhost, 127.0.0.1, [::1] and the bind host; on a
// non-loopback bind also this machine's host name and interface addresses;
// and any --allow-host name, with the server's port), which defeats DNS
// rebinding; every /api/ request and page carries the per-run token (an HttpOnly,
// SameSite=Strict cookie obtained from the printed URL, or a Bearer header);
// every POST also carries a matching Origin and a JSON body; the CSP is
// default-src 'self'. Reads are confined to the repository by app (os.Root).
// Only /api/clone, /api/apply and /api/undo change anything on disk.
//
// A Server is safe for concurrent use once Listen has returned.
package web

import (
	"context"

	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/explore"
)

// Options configure a Server.
type Options struct {
	// Addr is host:port to bind; "" means 127.0.0.1:8080. A host that is not
	// loopback is refused unless Token is set.
	Addr string
	// Token is the access token; "" means a random one for this run. A
	// given token must be at least MinToken characters.
	Token string
	// AllowHosts are further host names (or IPs) a browser may use to reach
	// the server, e.g. a DNS name or a proxy's; no scheme, no port.
	AllowHosts []string
}

// MinToken is the shortest access token accepted: 32 characters of a random
// hex token are 128 bits, beyond guessing over the network.
const MinToken = 32

// Backend is what the server serves. Its results are the explorer's Go
// types, which are the JSON shapes of docs/api.md (TestAPIDoc holds the two
// together); errors that are a client's mistake are *Error with a status.
// ExploreBackend implements it over an explore.Explorer.
type Backend interface {
	Status(ctx context.Context) explore.Status
	Search(ctx context.Context, text, traceback string, k int) (*explore.SearchResult, error)
	Tree(ctx context.Context) (*explore.TreeResult, error)
	FindSymbols(ctx context.Context, q string) (*explore.SymbolMatches, error)
	Refs(ctx context.Context, path string) (*explore.RefsResult, error)
	Symbols(ctx context.Context, path string) (*explore.SymbolsResult, error)
	AST(ctx context.Context, path string, r *[2]int) (*explore.ASTNode, error)
	Edges(ctx context.Context, path string, defID int64) (*explore.Edges, error)
	File(ctx context.Context, path string, start, end int) (*explore.FileSlice, error)
	// Clone starts loading a path or git URL in the background.
	Clone(source string) error
	// CheckDef returns an error if defID is not a definition.
	CheckDef(ctx context.Context, defID int64) error
	// Propose asks the model, streaming text to onText; it writes nothing.
	Propose(ctx context.Context, defID int64, task string, onText func(string)) (*explore.ModelProposal, error)
	Apply(ctx context.Context, defID int64, replacement, fileHash, task string) (*explore.ApplyResult, error)
	Undo(ctx context.Context) (*explore.UndoResult, error)
}

// Server serves one Backend.
type Server struct {
	b       Backend
	addr    string
	token   string
	mux     *http.ServeMux
	port    string          // set by Listen
	hosts   map[string]bool // host names allowed in the Host header; set by Listen
	started time.Time
}

// New returns a Server for b. It does not listen yet.
func New(b Backend, opts Options) (*Server, error) {
	s := &Server{b: b, addr: opts.Addr, token: opts.Token, started: time.Now()}
	if s.addr == "" {
		s.addr = "127.0.0.1:8080"
	}
	host, _, err := net.SplitHostPort(s.addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w (expected host:port, e.g. 127.0.0.1:8080)", s.addr, err)
	}
	if !isLoopback(host) && opts.Token == "" {
		return nil, fmt.Errorf("address %q is not loopback: pass --token (at least %d characters, e.g. $(openssl rand -hex 16)) to expose the explorer beyond this machine", s.addr, MinToken)
	}
	if opts.Token != "" && len(opts.Token) < MinToken {
		return nil, fmt.Errorf("--token is %d characters, too short to guess-proof: give at least %d (e.g. $(openssl rand -hex 16))", len(opts.Token), MinToken)
	}
	if s.token == "" {
		b := make([]byte, 24)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("token: %w", err)
		}
		s.token = hex.EncodeToString(b)
	}
	s.hosts = map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}
	if host != "" && !isUnspecified(host) {
		s.hosts[strings.ToLower(host)] = true
	}
	if !isLoopback(host) {
		for _, h := range machineNames() {
			s.hosts[h] = true
		}
	}
	for _, h := range opts.AllowHosts {
		name, err := allowedHost(h)
		if err != nil {
			return nil, err
		}
		s.hosts[name] = true
	}
	s.mux = s.routes()
	return s, nil
}

// isLoopback reports whether host names only this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func isUnspecified(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// machineNames are the names a browser on another machine may use for this
// one: its host name and its interface addresses.
func machineNames() []string {
	var out []string
	if h, err := os.Hostname(); err == nil && h != "" {
		out = append(out, strings.ToLower(h))
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				out = append(out, ipn.IP.String())
			}
		}
	}
	return out
}

// allowedHost checks one --allow-host value: a host name or an IP address,
// without scheme or port.
func allowedHost(h string) (string, error) {
	name := strings.ToLower(strings.TrimSuffix(strings.Trim(h, "[]"), "."))
	if ip := net.ParseIP(name); ip != nil {
		return ip.String(), nil
	}
	if name == "" || len(name) > 253 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" || strings.HasPrefix(name, "-") {
		return "", fmt.Errorf("--allow-host %q: give a host name or an IP address, without scheme or port (e.g. --allow-host devbox.example.com)", h)
	}
	return name, nil
}

// Listen binds the address and fixes the port the Host check expects.
func (s *Server) Listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", s.addr, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	s.port = port
	return ln, nil
}

// Serve serves on ln until ctx is done, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// Token is the access token of this run.
func (s *Server) Token() string { return s.token }

// URL is the address to open, carrying the token; valid after Listen.
func (s *Server) URL() string {
	host, _, _ := net.SplitHostPort(s.addr)
	if host == "" || isUnspecified(host) {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, s.port), Path: "/", RawQuery: "token=" + url.QueryEscape(s.token)}
	return u.String()
}

// RemoteURL is the address to open from another machine (this machine's
// host name), or "" when the server binds loopback only; valid after Listen.
func (s *Server) RemoteURL() string {
	host, _, _ := net.SplitHostPort(s.addr)
	if isLoopback(host) {
		return ""
	}
	if isUnspecified(host) {
		h, err := os.Hostname()
		if err != nil || h == "" {
			return ""
		}
		host = h
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, s.port), Path: "/", RawQuery: "token=" + url.QueryEscape(s.token)}
	return u.String()
}

// Port is the bound port; valid after Listen.
func (s *Server) Port() int { p, _ := strconv.Atoi(s.port); return p }

// Handler is the whole server with its security layer.
func (s *Server) Handler() http.Handler { return s.secure(s.mux) }
