package tool

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/grit-dev/grit/internal/sandbox"
)

// Limits of Bash.
const (
	bashDefaultTimeoutMS = 120000
	bashMaxTimeoutMS     = 600000
	bashMaxOutput        = 30000 // bytes kept, head and tail
)

//go:embed bash.md
var bashMD string

var bashDesc = render("bash.md", bashMD)

// Bash runs a shell command through env.Runner. The working directory
// persists between calls: each script ends by printing a marker line with
// its final directory, which Run strips from the output.
type Bash struct{}

type bashInput struct {
	Command     string `json:"command" jsonschema:"The command"`
	Timeout     int    `json:"timeout,omitempty" jsonschema:"Milliseconds (default 120000)"`
	Description string `json:"description,omitempty" jsonschema:"What it does, in 5-10 words"`
	// RunInBackground starts the command as a background shell (BashOutput reads it).
	RunInBackground bool `json:"run_in_background,omitempty" jsonschema:"Run in the background; read it with BashOutput"`
}

func (Bash) Name() string        { return "Bash" }
func (Bash) Description() string { return bashDesc() }
func (Bash) Kind() Kind          { return KindExecute }
func (Bash) Schema() json.RawMessage {
	return rawSchema[bashInput](func(p map[string]*jsonschema.Schema) {
		Max(600000)(p["timeout"])
	})
}

func (t Bash) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (Bash) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in bashInput
	if err := decode("Bash", input, &in); err != nil {
		return Result{}, err
	}
	if strings.TrimSpace(in.Command) == "" {
		return Result{}, fixf(nil, "Bash needs a command.")
	}
	if env.Runner == nil {
		return Result{}, errors.New("bash: no command runner in this session")
	}
	timeout := time.Duration(in.Timeout) * time.Millisecond
	if in.Timeout <= 0 {
		timeout = bashDefaultTimeoutMS * time.Millisecond
	}
	timeout = min(timeout, bashMaxTimeoutMS*time.Millisecond)

	var notes []string
	cwd := env.Cwd()
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() || !env.inside(cwd) {
		cwd = env.realRoot()
		env.SetCwd("")
		notes = append(notes, "The working directory no longer existed; reset to "+cwd+".")
	}
	if in.RunInBackground {
		id, err := env.Shells().Start(env.Runner, in.Command, in.Command, cwd)
		if err != nil {
			return Result{}, fmt.Errorf("bash: %w", err)
		}
		return Result{Content: fmt.Sprintf("Command running in background with ID: %s. Read its output with BashOutput (bash_id %q); stop it with KillShell.", id, id)}, nil
	}
	var rnd [12]byte
	rand.Read(rnd[:])
	marker := "__grit_cwd_" + hex.EncodeToString(rnd[:]) + "__"
	script := fmt.Sprintf("trap 'printf \"\\n%s%%s\\n\" \"$(pwd -P)\"' EXIT\n%s", marker, in.Command)

	res, err := env.Runner.Run(ctx, sandbox.Spec{Script: script, Dir: cwd, Timeout: timeout, MaxOutput: bashMaxOutput, Env: env.Vars})
	if err != nil {
		return Result{}, fmt.Errorf("bash: %w", err)
	}
	out := res.Output
	if i := strings.LastIndex(out, "\n"+marker); i >= 0 {
		dir, _, _ := strings.Cut(out[i+1+len(marker):], "\n")
		out = out[:i]
		switch {
		case dir == cwd:
		case env.inside(dir):
			env.SetCwd(dir)
		default:
			env.SetCwd("")
			notes = append(notes, fmt.Sprintf("The shell left the workspace (%s); its working directory was reset to %s.", dir, env.realRoot()))
		}
	}
	var b strings.Builder
	b.WriteString(out)
	if out == "" {
		b.WriteString("(no output)")
	}
	if !strings.HasSuffix(out, "\n") {
		b.WriteByte('\n')
	}
	if res.TimedOut {
		fmt.Fprintf(&b, "[timed out after %s; the command and its children were killed]\n", timeout)
	} else if res.ExitCode != 0 {
		fmt.Fprintf(&b, "[exit code %d]\n", res.ExitCode)
	}
	for _, n := range notes {
		b.WriteString("[" + n + "]\n")
	}
	return Result{Content: strings.TrimSuffix(b.String(), "\n"), IsError: res.TimedOut || res.ExitCode != 0}, nil
}
