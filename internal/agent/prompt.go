package agent

import (
	_ "embed"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/template"
	"time"
)

//go:embed prompts/system.md
var systemTemplate string

// PlanModePrompt is the system prompt section sent while plan mode is on.
//
//go:embed prompts/plan.md
var PlanModePrompt string

var systemTmpl = template.Must(template.New("system.md").Option("missingkey=error").Parse(systemTemplate))

// PromptEnv is what the system prompt says about the environment.
type PromptEnv struct {
	Cwd      string
	GitRepo  bool
	Platform string // "linux/amd64"
	Date     string // "2006-01-02"
}

// DetectPromptEnv describes the environment of a session in dir.
func DetectPromptEnv(dir string) PromptEnv {
	return PromptEnv{
		Cwd:      dir,
		GitRepo:  inGitRepo(dir),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Date:     time.Now().Format("2006-01-02"),
	}
}

// inGitRepo reports whether dir or a parent has a .git entry.
func inGitRepo(dir string) bool {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// SystemPrompt renders the default system prompt for env, followed by the
// extra sections (context files, --append-system-prompt), each separated by
// a blank line.
func SystemPrompt(env PromptEnv, extra ...string) string {
	var b strings.Builder
	if err := systemTmpl.Execute(&b, env); err != nil {
		// The template is embedded and its data fixed: a failure is a bug
		// the golden test catches.
		panic("agent: system prompt template: " + err.Error())
	}
	out := strings.TrimSpace(b.String())
	for _, x := range extra {
		if x = strings.TrimSpace(x); x != "" {
			out += "\n\n" + x
		}
	}
	return out
}
