package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
)

// DefaultManagedPath is where administrators put settings that override
// everyone's.
const DefaultManagedPath = "/etc/grit/managed-settings.json"

// DefaultModel is the model used when neither flags, env nor settings name one.
const DefaultModel = "ollama:qwen2.5-coder:7b"

// DefaultClaudeManagedPath is where administrators put Claude Code's
// managed settings (Linux); Grit reads them below its own managed file.
const DefaultClaudeManagedPath = "/etc/claude-code/managed-settings.json"

// LoadOptions tunes Load; the zero value reads the real locations.
type LoadOptions struct {
	// Home is the user's home directory; "" means os.UserHomeDir.
	Home string
	// ManagedPath overrides DefaultManagedPath (tests); a test that sets it
	// also stops DefaultClaudeManagedPath from being read unless
	// ClaudeManagedPath names a file.
	ManagedPath       string
	ClaudeManagedPath string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
}

// Layer is one settings file as read.
type Layer struct {
	Path     string   // the file; "" for the built-in defaults and the environment
	Exists   bool     // false when the file is absent (its Settings are empty)
	Settings Settings // as written in that file
}

// Sources keeps every layer apart, so that the permission engine can apply
// its own precedence (managed > user > project) and ignore an untrusted
// project's layers. Each scope's Claude Code file is read beside Grit's
// and merged under it (Grit's wins a scalar both set; lists accumulate):
// User, Project, Local and Managed hold both; Files lists every file read.
type Sources struct {
	Defaults Layer
	User     Layer // ~/.claude/settings.json, then ~/.config/grit/settings.json ($XDG_CONFIG_HOME honoured)
	Project  Layer // <root>/.claude/settings.json, then <root>/.grit/settings.json
	Local    Layer // <root>/.claude/settings.local.json, then <root>/.grit/settings.local.json
	Managed  Layer // /etc/claude-code/managed-settings.json, then /etc/grit/managed-settings.json
	Env      Layer // GRIT_MODEL, GRIT_PERMISSION_MODE, GRIT_MAX_TURNS
	// Files are the settings files looked for, in precedence order
	// (lowest first), with what was read and what was ignored.
	Files []File
}

// File is one settings file looked for.
type File struct {
	Scope  string   `json:"scope"` // "user", "project", "local", "managed"
	Claude bool     `json:"claude"`
	Path   string   `json:"path"`
	Exists bool     `json:"exists"`
	Notes  []string `json:"notes,omitempty"` // keys ignored, and why
}

// Layers returns the layers from lowest to highest precedence.
func (s Sources) Layers() []Layer {
	return []Layer{s.Defaults, s.User, s.Project, s.Local, s.Managed, s.Env}
}

// Defaults are the built-in settings.
func Defaults() Settings {
	return Settings{Model: DefaultModel, Permissions: Permissions{DefaultMode: "default"}}
}

// UserDir is Grit's directory in the user's config home:
// $XDG_CONFIG_HOME/grit, else ~/.config/grit.
func UserDir(home string, getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "grit")
	}
	return filepath.Join(home, ".config", "grit")
}

// Load reads every settings layer for the project at root and merges them:
// defaults < user < project < project local < managed < environment. A file
// that does not parse is an error naming the file and the line and column.
func Load(root string, opts LoadOptions) (Settings, Sources, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	home := opts.Home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return Settings{}, Sources{}, fmt.Errorf("load settings: %w", err)
		}
		home = h
	}
	managed := opts.ManagedPath
	if managed == "" {
		managed = DefaultManagedPath
	}
	claudeManaged := opts.ClaudeManagedPath
	if claudeManaged == "" && opts.ManagedPath == "" {
		claudeManaged = DefaultClaudeManagedPath
	}
	src := Sources{Defaults: Layer{Exists: true, Settings: Defaults()}}
	var err error
	// read reads a scope's Claude Code file (claude, "" for none) and
	// Grit's (grit) into l, Grit's over Claude Code's.
	read := func(l *Layer, scope, claude, grit string) {
		if err != nil {
			return
		}
		var c Layer
		if claude != "" {
			if c, err = ReadFile(claude); err != nil {
				return
			}
			var notes []string
			c.Settings, notes = FromClaude(c.Settings)
			src.Files = append(src.Files, File{Scope: scope, Claude: true, Path: claude, Exists: c.Exists, Notes: notes})
		}
		if *l, err = ReadFile(grit); err != nil {
			return
		}
		src.Files = append(src.Files, File{Scope: scope, Path: grit, Exists: l.Exists, Notes: ignoredKeys(l.Settings)})
		l.Settings = Merge(c.Settings, l.Settings)
		l.Exists = l.Exists || c.Exists
	}
	read(&src.User, "user", filepath.Join(home, ".claude", "settings.json"), filepath.Join(UserDir(home, getenv), "settings.json"))
	if root != "" {
		read(&src.Project, "project", filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, ".grit", "settings.json"))
		read(&src.Local, "local", filepath.Join(root, ".claude", "settings.local.json"), filepath.Join(root, ".grit", "settings.local.json"))
	}
	read(&src.Managed, "managed", claudeManaged, managed)
	if err != nil {
		return Settings{}, Sources{}, err
	}
	src.Env, err = envLayer(getenv)
	if err != nil {
		return Settings{}, Sources{}, err
	}
	layers := src.Layers()
	all := make([]Settings, len(layers))
	for i, l := range layers {
		all[i] = l.Settings
	}
	return Merge(all...), src, nil
}

func envLayer(getenv func(string) string) (Layer, error) {
	var s Settings
	s.Model = getenv("GRIT_MODEL")
	s.Permissions.DefaultMode = getenv("GRIT_PERMISSION_MODE")
	if v := getenv("GRIT_MAX_TURNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return Layer{}, fmt.Errorf("GRIT_MAX_TURNS=%q: want a non-negative integer", v)
		}
		s.MaxTurns = n
	}
	if s.Permissions.DefaultMode != "" {
		if err := ValidMode(s.Permissions.DefaultMode); err != nil {
			return Layer{}, fmt.Errorf("GRIT_PERMISSION_MODE: %w", err)
		}
	}
	return Layer{Exists: true, Settings: s}, nil
}

// Modes are the permission modes, as in Claude Code.
var Modes = []string{"default", "acceptEdits", "plan", "bypassPermissions"}

// ValidMode reports an error unless m is one of Modes.
func ValidMode(m string) error {
	for _, v := range Modes {
		if m == v {
			return nil
		}
	}
	return fmt.Errorf("unknown permission mode %q (expected: %s)", m, strings.Join(Modes, ", "))
}

// ReadFile reads one settings file. A missing file is an empty layer, not an
// error; a file that does not parse is an error naming it and the position.
func ReadFile(path string) (Layer, error) {
	l := Layer{Path: path}
	data, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("read settings: %w", err)
	}
	l.Exists = true
	if len(bytes.TrimSpace(data)) == 0 {
		return l, nil
	}
	s, err := Parse(data)
	if err != nil {
		return l, fmt.Errorf("settings file %s: %w", path, err)
	}
	if s.Permissions.DefaultMode != "" {
		if err := ValidMode(s.Permissions.DefaultMode); err != nil {
			return l, fmt.Errorf("settings file %s: permissions.defaultMode: %w", path, err)
		}
	}
	l.Settings = s
	return l, nil
}

// Parse decodes one settings document. Unknown keys are kept in Extra.
// Errors carry the line and column.
func Parse(data []byte) (Settings, error) {
	var s Settings
	if err := json.Unmarshal(data, &s); err != nil {
		return Settings{}, positioned(data, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Settings{}, positioned(data, err)
	}
	known := knownKeys()
	for k, v := range raw {
		if !known[k] {
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[k] = v
		}
	}
	return s, nil
}

// positioned adds "line L, column C" to JSON errors that carry an offset.
func positioned(data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 {
		return err
	}
	// Offset counts the bytes read, the offending one included.
	if off > 0 {
		off--
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	if col < 1 {
		col = 1
	}
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

func knownKeys() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeOf(Settings{})
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}

// MarshalJSON writes the known fields and the unknown keys kept in Extra.
func (s Settings) MarshalJSON() ([]byte, error) {
	type plain Settings
	b, err := json.Marshal(plain(s))
	if err != nil || len(s.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range s.Extra {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

// Merge combines layers, lowest precedence first. Scalars: the last non-zero
// value wins. Permission rule lists, additional directories and hook
// matchers accumulate (duplicates dropped); env, providers and Extra merge
// by key, later keys winning.
func Merge(layers ...Settings) Settings {
	var out Settings
	for _, l := range layers {
		if l.Model != "" {
			out.Model = l.Model
		}
		if l.MaxTurns != 0 {
			out.MaxTurns = l.MaxTurns
		}
		p := &out.Permissions
		p.Allow = appendUnique(p.Allow, l.Permissions.Allow...)
		p.Ask = appendUnique(p.Ask, l.Permissions.Ask...)
		p.Deny = appendUnique(p.Deny, l.Permissions.Deny...)
		p.AdditionalDirectories = appendUnique(p.AdditionalDirectories, l.Permissions.AdditionalDirectories...)
		if l.Permissions.DefaultMode != "" {
			p.DefaultMode = l.Permissions.DefaultMode
		}
		for ev, hs := range l.Hooks {
			if out.Hooks == nil {
				out.Hooks = map[string][]Hook{}
			}
			out.Hooks[ev] = append(out.Hooks[ev], hs...)
		}
		for k, v := range l.Env {
			if out.Env == nil {
				out.Env = map[string]string{}
			}
			out.Env[k] = v
		}
		for k, v := range l.Providers {
			if out.Providers == nil {
				out.Providers = map[string]Provider{}
			}
			cur := out.Providers[k]
			if v.BaseURL != "" {
				cur.BaseURL = v.BaseURL
			}
			if v.ContextWindow != 0 {
				cur.ContextWindow = v.ContextWindow
			}
			if v.ToolCalls != "" {
				cur.ToolCalls = v.ToolCalls
			}
			out.Providers[k] = cur
		}
		sb := &out.Sandbox
		if l.Sandbox.Enabled != nil {
			v := *l.Sandbox.Enabled
			sb.Enabled = &v
		}
		sb.Network = sb.Network || l.Sandbox.Network
		sb.WritablePaths = appendUnique(sb.WritablePaths, l.Sandbox.WritablePaths...)
		sb.EnvPassthrough = appendUnique(sb.EnvPassthrough, l.Sandbox.EnvPassthrough...)
		for k, v := range l.Extra {
			if out.Extra == nil {
				out.Extra = map[string]json.RawMessage{}
			}
			out.Extra[k] = v
		}
	}
	return out
}

func appendUnique(dst []string, src ...string) []string {
	for _, s := range src {
		dup := false
		for _, d := range dst {
			if d == s {
				dup = true
				break
			}
		}
		if !dup {
			dst = append(dst, s)
		}
	}
	return dst
}

// readRegular reads a settings file that must be a regular file, without
// blocking on a FIFO put in its place (config imports nothing of Grit's,
// so this is span.ReadFile's check in small).
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, maxSettingsBytes))
}

// maxSettingsBytes bounds a settings file; real ones are a few KB.
const maxSettingsBytes = 4 << 20
