package sandbox

import (
	"fmt"

	"github.com/grit-dev/grit/internal/config"
)

// ConfigFor is the sandbox for root under settings: isolation on
// (bwrap, else Landlock plus a network namespace) unless the settings say
// "sandbox": {"enabled": false}.
func ConfigFor(root string, s config.Settings) Config {
	backend := BackendAuto
	if s.Sandbox.Enabled != nil && !*s.Sandbox.Enabled {
		backend = BackendNone
	}
	// permissions.additionalDirectories widen the workspace for Bash too.
	writable := append(append([]string(nil), s.Sandbox.WritablePaths...), s.Permissions.AdditionalDirectories...)
	return Config{Workspace: root, Backend: backend, Network: s.Sandbox.Network,
		WritablePaths: writable, EnvPassthrough: s.Sandbox.EnvPassthrough}
}

// NewFor builds the Runner for Bash and for harness-run checks
// (goal mode's --until). With no working backend it fails and says how to
// fix it or opt out; it never runs commands unisolated unless the settings
// turned the sandbox off.
func NewFor(root string, s config.Settings) (Runner, error) {
	r, err := New(ConfigFor(root, s))
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w (set \"sandbox\": {\"enabled\": false} in settings to run commands without isolation)", err)
	}
	return r, nil
}
