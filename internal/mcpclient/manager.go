package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Timeouts of MCP traffic.
const (
	// ConnectTimeout bounds starting a server and its initialize handshake
	// (an npx-launched server may download itself first).
	ConnectTimeout = 30 * time.Second
	// CallTimeout bounds one tool call or list/read request.
	CallTimeout = 2 * time.Minute
)

// Server states, as /mcp and grit doctor show them.
const (
	StateIdle      = "not started"
	StateConnected = "connected"
	StateFailed    = "failed"
	StateStopped   = "stopped"
)

// Status is one server as /mcp shows it.
type Status struct {
	Name      string `json:"name"`
	Source    string `json:"source"`
	Transport string `json:"transport"`
	State     string `json:"state"`
	Tools     int    `json:"tools"`
	Restarts  int    `json:"restarts"`
	Error     string `json:"error,omitempty"`
	Log       string `json:"log,omitempty"`
}

// Manager holds a session's MCP servers.
type Manager struct {
	logDir  string
	version string

	mu      sync.Mutex
	servers map[string]*conn
	order   []string
	closed  bool
}

// conn is one server's connection, made on first use.
type conn struct {
	cfg Named

	mu       sync.Mutex // one connect at a time; guards the fields below
	session  *sdk.ClientSession
	tools    []*sdk.Tool
	listed   bool
	state    string
	err      error
	restarts int
	logFile  *os.File
}

// NewManager manages servers; stdio servers' stderr goes to logDir/<name>.log
// ("" discards it).
func NewManager(servers []Named, logDir, version string) *Manager {
	m := &Manager{logDir: logDir, version: version, servers: map[string]*conn{}}
	for _, s := range servers {
		m.servers[s.Name] = &conn{cfg: s, state: StateIdle}
		m.order = append(m.order, s.Name)
	}
	sort.Strings(m.order)
	return m
}

// Names are the configured servers' names, sorted.
func (m *Manager) Names() []string { return append([]string(nil), m.order...) }

func (m *Manager) get(name string) (*conn, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("mcp: the session is closing")
	}
	c, ok := m.servers[name]
	if !ok {
		return nil, fmt.Errorf("no MCP server %q (configured: %s)", name, strings.Join(m.order, ", "))
	}
	return c, nil
}

// connect starts the server if it is not running. Call with c.mu held.
func (m *Manager) connect(ctx context.Context, c *conn) error {
	if c.session != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "grit", Version: m.version}, nil)
	var t sdk.Transport
	switch c.cfg.Type {
	case "http", "streamable-http":
		t = &sdk.StreamableClientTransport{Endpoint: c.cfg.URL, HTTPClient: &http.Client{Transport: headerTransport{c.cfg.Headers}}, DisableStandaloneSSE: true, MaxRetries: -1}
	default:
		// Not bound to ctx: the server outlives this call; Close stops it.
		cmd := exec.Command(c.cfg.Command, c.cfg.Args...)
		cmd.Env = os.Environ()
		for k, v := range c.cfg.Env {
			cmd.Env = append(cmd.Env, k+"="+os.ExpandEnv(v))
		}
		if err := m.openLog(c); err == nil && c.logFile != nil {
			cmd.Stderr = c.logFile
		}
		t = &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	s, err := client.Connect(ctx, t, nil)
	if err != nil {
		c.state, c.err = StateFailed, err
		return fmt.Errorf("mcp server %s: connect: %w", c.cfg.Name, err)
	}
	c.session, c.state, c.err = s, StateConnected, nil
	return nil
}

func (m *Manager) openLog(c *conn) error {
	if m.logDir == "" || c.logFile != nil {
		return nil
	}
	if err := os.MkdirAll(m.logDir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(m.logDir, c.cfg.Name+".log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	c.logFile = f
	return nil
}

// do runs op on the server's session, starting it first; if the
// connection is gone (the server died), it restarts the server once and
// tries again.
func (m *Manager) do(ctx context.Context, name string, op func(context.Context, *sdk.ClientSession) error) error {
	c, err := m.get(name)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if err := m.connect(ctx, c); err != nil {
			return err
		}
		cctx, cancel := context.WithTimeout(ctx, CallTimeout)
		err := op(cctx, c.session)
		cancel()
		if err == nil || !isDisconnect(err) || attempt > 0 || ctx.Err() != nil {
			if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				return fmt.Errorf("mcp server %s did not answer within %s", name, CallTimeout)
			}
			return err
		}
		// The server died: restart it once.
		c.session.Close()
		c.session, c.listed = nil, false
		c.restarts++
	}
}

// isDisconnect reports whether err means the connection is gone.
func isDisconnect(err error) bool {
	if errors.Is(err, sdk.ErrConnectionClosed) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "connection closed") || strings.Contains(s, "EOF") || strings.Contains(s, "broken pipe")
}

// Tools lists the server's tools (once per connection).
func (m *Manager) Tools(ctx context.Context, name string) ([]*sdk.Tool, error) {
	c, err := m.get(name)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.listed {
		tools := c.tools
		c.mu.Unlock()
		return tools, nil
	}
	c.mu.Unlock()
	var tools []*sdk.Tool
	err = m.do(ctx, name, func(ctx context.Context, s *sdk.ClientSession) error {
		tools = nil
		for t, err := range s.Tools(ctx, nil) {
			if err != nil {
				return err
			}
			tools = append(tools, t)
		}
		return nil
	})
	if err != nil {
		c.mu.Lock()
		if c.state != StateFailed {
			c.err = err
		}
		c.mu.Unlock()
		return nil, err
	}
	c.mu.Lock()
	c.tools, c.listed = tools, true
	c.mu.Unlock()
	return tools, nil
}

// Call calls a tool of a server.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (*sdk.CallToolResult, error) {
	return call(ctx, m, server, func(ctx context.Context, s *sdk.ClientSession) (*sdk.CallToolResult, error) {
		return s.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	})
}

// Resources lists a server's resources.
func (m *Manager) Resources(ctx context.Context, server string) ([]*sdk.Resource, error) {
	return list(ctx, m, server, func(c *sdk.ServerCapabilities) bool { return c.Resources != nil },
		func(ctx context.Context, s *sdk.ClientSession) iter.Seq2[*sdk.Resource, error] {
			return s.Resources(ctx, nil)
		})
}

// ReadResource reads one resource of a server.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) (*sdk.ReadResourceResult, error) {
	return call(ctx, m, server, func(ctx context.Context, s *sdk.ClientSession) (*sdk.ReadResourceResult, error) {
		return s.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	})
}

// Prompts lists a server's prompts.
func (m *Manager) Prompts(ctx context.Context, server string) ([]*sdk.Prompt, error) {
	return list(ctx, m, server, func(c *sdk.ServerCapabilities) bool { return c.Prompts != nil },
		func(ctx context.Context, s *sdk.ClientSession) iter.Seq2[*sdk.Prompt, error] {
			return s.Prompts(ctx, nil)
		})
}

// GetPrompt renders one prompt of a server with args.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*sdk.GetPromptResult, error) {
	return call(ctx, m, server, func(ctx context.Context, s *sdk.ClientSession) (*sdk.GetPromptResult, error) {
		return s.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	})
}

// call makes one request of a server (Manager.do: started on demand,
// retried once after a broken connection).
func call[T any](ctx context.Context, m *Manager, server string, f func(context.Context, *sdk.ClientSession) (T, error)) (T, error) {
	var out T
	err := m.do(ctx, server, func(ctx context.Context, s *sdk.ClientSession) error {
		var err error
		out, err = f(ctx, s)
		return err
	})
	return out, err
}

// list collects every page of a server's listing; none when the server
// does not declare the capability (has).
func list[T any](ctx context.Context, m *Manager, server string, has func(*sdk.ServerCapabilities) bool, all func(context.Context, *sdk.ClientSession) iter.Seq2[T, error]) ([]T, error) {
	var out []T
	err := m.do(ctx, server, func(ctx context.Context, s *sdk.ClientSession) error {
		out = nil
		if !has(s.InitializeResult().Capabilities) {
			return nil
		}
		for x, err := range all(ctx, s) {
			if err != nil {
				return err
			}
			out = append(out, x)
		}
		return nil
	})
	return out, err
}

// Status reports every server's state without starting any.
func (m *Manager) Status() []Status {
	var out []Status
	for _, name := range m.order {
		c := m.servers[name]
		c.mu.Lock()
		st := Status{Name: name, Source: c.cfg.Source, Transport: "stdio", State: c.state, Tools: len(c.tools), Restarts: c.restarts}
		if c.cfg.Type == "http" || c.cfg.Type == "streamable-http" {
			st.Transport = "http"
		}
		if c.err != nil {
			st.Error = c.err.Error()
		}
		if c.logFile != nil {
			st.Log = c.logFile.Name()
		}
		c.mu.Unlock()
		out = append(out, st)
	}
	return out
}

// Close stops every server; later calls fail.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	var errs []error
	for _, name := range m.order {
		c := m.servers[name]
		c.mu.Lock()
		if c.session != nil {
			if err := c.session.Close(); err != nil && !isDisconnect(err) {
				errs = append(errs, fmt.Errorf("mcp server %s: %w", name, err))
			}
			c.session = nil
			c.state = StateStopped
		}
		if c.logFile != nil {
			c.logFile.Close()
			c.logFile = nil
		}
		c.mu.Unlock()
	}
	return errors.Join(errs...)
}

// headerTransport adds configured headers (an API token) to every request.
type headerTransport struct{ headers map[string]string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, os.ExpandEnv(v))
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}
