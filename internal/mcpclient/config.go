// Package mcpclient connects a session to external MCP servers, as Claude
// Code does: servers are configured in .mcp.json at the repository root
// (honoured once the repository is trusted) and in the user's settings
// (mcpServers), in Claude Code's shape; each server's tools become Grit
// tools named mcp__<server>__<tool>, with their schemas passed through.
//
// The principal types are Config (the servers and where they come from),
// Manager (the running connections of one session) and the tools it makes.
// A Manager is safe for concurrent use. A server is started on the first
// call that needs it (listing its tools, a tool call), restarted once if
// it dies, bounded by timeouts, and stopped by Close; a stdio server's
// stderr goes to a log file, never to the terminal. It uses the official
// go-sdk client.
package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/edit"
)

// ProjectFile is the repository's MCP configuration, Claude Code's name.
const ProjectFile = ".mcp.json"

// Server is one configured server, Claude Code's fields: command, args and
// env for stdio; type "http" with url and headers for streamable HTTP.
type Server struct {
	Type    string            `json:"type,omitempty"` // "stdio" (default) or "http"
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// Named is a server with its name and the file it came from.
type Named struct {
	Name   string `json:"name"`
	Source string `json:"source"` // "project" (.mcp.json) or "user"
	Server
}

var serverName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// Validate checks a server's fields and says what is wrong.
func (s Server) Validate(name string) error {
	if !serverName.MatchString(name) || strings.Contains(name, "__") {
		return fmt.Errorf("mcp server %q: a name is letters, digits, - and _ (no double underscore)", name)
	}
	switch s.Type {
	case "", "stdio":
		if s.Command == "" {
			return fmt.Errorf("mcp server %q: a stdio server needs a command", name)
		}
	case "http", "streamable-http":
		if !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
			return fmt.Errorf("mcp server %q: an http server needs a url (http:// or https://)", name)
		}
	default:
		return fmt.Errorf("mcp server %q: unknown type %q (expected: stdio, http)", name, s.Type)
	}
	return nil
}

// File is the JSON shape of .mcp.json and of the settings' key.
type File struct {
	MCPServers map[string]Server `json:"mcpServers"`
}

// Load returns the configured servers: the user's (settings' mcpServers,
// raw from the user settings file's unknown keys) and, when project, the
// repository's .mcp.json, which wins on a name both define. Broken entries
// are warnings, left out.
func Load(root string, userMCPServers json.RawMessage, project bool) ([]Named, []string) {
	byName := map[string]Named{}
	var warnings []string
	add := func(source string, servers map[string]Server) {
		for name, s := range servers {
			if err := s.Validate(name); err != nil {
				warnings = append(warnings, err.Error())
				continue
			}
			byName[name] = Named{Name: name, Source: source, Server: s}
		}
	}
	if len(userMCPServers) > 0 {
		var servers map[string]Server
		if err := json.Unmarshal(userMCPServers, &servers); err != nil {
			warnings = append(warnings, fmt.Sprintf("mcpServers in user settings: %v", err))
		}
		add("user", servers)
	}
	if project {
		f, err := ReadFile(filepath.Join(root, ProjectFile))
		if err != nil {
			warnings = append(warnings, err.Error())
		}
		add("project", f.MCPServers)
	}
	out := make([]Named, 0, len(byName))
	for _, n := range byName {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, warnings
}

// ReadFile reads a .mcp.json; a missing file is an empty one.
func ReadFile(path string) (File, error) {
	var f File
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("%s: %w (expected {\"mcpServers\": {\"NAME\": {\"command\": ..., \"args\": [...]}}})", path, err)
	}
	return f, nil
}

// Edit changes the mcpServers object of the JSON file at path (.mcp.json
// or a settings file), keeping every other key, and writes it atomically.
// change gets the current servers and returns the new ones.
func Edit(path string, change func(map[string]Server) (map[string]Server, error)) error {
	doc := map[string]json.RawMessage{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read %s: %w", path, err)
	default:
		if err := json.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("%s is not a JSON object: %w", path, err)
		}
	}
	servers := map[string]Server{}
	if raw, ok := doc["mcpServers"]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return fmt.Errorf("%s: mcpServers: %w", path, err)
		}
	}
	servers, err = change(servers)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(servers)
	if err != nil {
		return err
	}
	doc["mcpServers"] = raw
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return edit.WriteFileAtomic(path, append(out, '\n'), 0o644)
}
