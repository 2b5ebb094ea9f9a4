package mcp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.base.RoundTrip(r)
}

func TestHTTP(t *testing.T) {
	root := newRepo(t)
	s, err := New(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.ServeHTTP(ctx, ln, "s3cret") }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	}()
	url := "http://" + ln.Addr().String() + Endpoint

	for _, tc := range []struct {
		name, token string
		ok          bool
	}{
		{"right token", "s3cret", true},
		{"no token", "", false},
		{"wrong token", "s3cret2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1, DisableStandaloneSSE: true,
				HTTPClient: &http.Client{Transport: bearer{tc.token, http.DefaultTransport}}}
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), tr, nil)
			if !tc.ok {
				if err == nil {
					cs.Close()
					t.Fatalf("connect with token %q succeeded, want refused", tc.token)
				}
				return
			}
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			got, isErr := call(t, cs, "locate", map[string]any{"task": "tax for an amount", "k": 1})
			if isErr || !strings.Contains(got, "1. shop/pricing.py::tax_for") {
				t.Errorf("locate over HTTP: %s", got)
			}
		})
	}

	// A plain request without the token gets 401, and one with a foreign
	// Host header is refused (DNS rebinding) even with the token.
	for _, tc := range []struct {
		name, auth, host string
		want             int
	}{
		{"no token", "", "", http.StatusUnauthorized},
		{"foreign host", "Bearer s3cret", "evil.example:80", http.StatusForbidden},
	} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
}

func TestCheckAddr(t *testing.T) {
	for _, tc := range []struct {
		addr     string
		explicit bool
		wantErr  error // nil: accepted; errAny: some error
	}{
		{"127.0.0.1:8765", false, nil},
		{"127.0.0.1:0", false, nil},
		{"localhost:8765", false, nil},
		{"[::1]:8765", false, nil},
		{"0.0.0.0:8765", false, ErrNotLoopback},
		{"192.168.1.2:8765", false, ErrNotLoopback},
		{":8765", false, ErrNotLoopback},
		{"0.0.0.0:8765", true, nil},
		{"8765", false, errAny},
		{"127.0.0.1:", false, errAny},
	} {
		err := CheckAddr(tc.addr, tc.explicit)
		switch {
		case tc.wantErr == nil && err != nil:
			t.Errorf("CheckAddr(%q, %v) = %v, want nil", tc.addr, tc.explicit, err)
		case tc.wantErr == errAny && err == nil, tc.wantErr == ErrNotLoopback && !errors.Is(err, ErrNotLoopback):
			t.Errorf("CheckAddr(%q, %v) = %v, want %v", tc.addr, tc.explicit, err, tc.wantErr)
		}
	}
}

var errAny = errors.New("any error")
