package mcp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Endpoint is the path of the streamable HTTP transport.
const Endpoint = "/mcp"

// ErrNotLoopback refuses a non-loopback listen address without an explicit token.
var ErrNotLoopback = errors.New("refusing to serve MCP beyond this machine without an explicit --token")

// NewToken returns a random bearer token (32 bytes, hex).
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// CheckAddr validates an --http address: host and port are required, and a
// host that is not loopback (127.0.0.0/8, ::1, localhost) is refused unless
// the token was given explicitly.
func CheckAddr(addr string, explicitToken bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %w (expected HOST:PORT, e.g. 127.0.0.1:8765)", addr, err)
	}
	if port == "" {
		return fmt.Errorf("--http %q: no port (expected HOST:PORT, e.g. 127.0.0.1:8765)", addr)
	}
	if isLoopback(host) || explicitToken {
		return nil
	}
	return fmt.Errorf("--http %q: %w (listen on 127.0.0.1, or pass --token)", addr, ErrNotLoopback)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// HTTPHandler serves the streamable HTTP transport at Endpoint, behind
// "Authorization: Bearer <token>" (401 otherwise). The SDK also refuses
// requests reaching a loopback listener with a non-loopback Host header
// (DNS rebinding).
func (s *Server) HTTPHandler(token string) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.server }, nil)
	want := []byte("Bearer " + token)
	mux := http.NewServeMux()
	mux.Handle(Endpoint, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if token == "" || subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="grit mcp"`)
			http.Error(w, "grit mcp: missing or wrong token: send Authorization: Bearer <the token grit mcp printed>", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	return mux
}

// ServeHTTP serves the streamable HTTP transport on ln until ctx ends, then
// shuts down gracefully.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, token string) error {
	srv := &http.Server{Handler: s.HTTPHandler(token), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("mcp http: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
		return nil
	}
}
