package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/index/treesitter"
	"github.com/grit-dev/grit/internal/sandbox"
)

// doctorResult is one check's outcome.
type doctorResult struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`        // version, path or state
	Fix    string `json:"fix,omitempty"` // what to do when not OK
	Needed bool   `json:"needed"`        // grit cannot do its main job without it
}

// doctorCheck checks one thing in the repository at root.
type doctorCheck func(ctx context.Context, root string) doctorResult

// doctorChecks is the list `grit doctor` runs, in order.
func doctorChecks() []doctorCheck {
	return []doctorCheck{
		binaryCheck("git", true, "git", "--version", "apt-get install -y git"),
		binaryCheck("rg", false, "rg", "--version", "apt-get install -y ripgrep (without it, search's content signal falls back to a slower in-process scan)"),
		binaryCheck("ctags", false, "ctags", "--version", "apt-get install -y universal-ctags (only for grit bench index)"),
		binaryCheck("bwrap", false, "bwrap", "--version", "apt-get install -y bubblewrap (sandboxed commands)"),
		binaryCheck("chromium", false, "chromium", "--version", "apt-get install -y chromium (explorer browser tests)"),
		indexCheck,
		languagesCheck,
		sandboxCheck,
		mcpCheck,
		// Checks register here, one line each.
	}
}

// binaryCheck finds a program on PATH and asks its version.
func binaryCheck(name string, needed bool, bin, flag, fix string) doctorCheck {
	return func(ctx context.Context, root string) doctorResult {
		r := doctorResult{Name: name, Needed: needed}
		p, err := exec.LookPath(bin)
		if err != nil {
			r.Detail, r.Fix = "not found on PATH", fix
			return r
		}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, p, flag).Output()
		if err != nil {
			r.Detail, r.Fix = fmt.Sprintf("%s does not run: %v", p, err), fix
			return r
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		r.OK, r.Detail = true, line+" ("+p+")"
		return r
	}
}

// indexCheck opens the index read-only-ish (no update) and reports its state.
func indexCheck(ctx context.Context, root string) doctorResult {
	r := doctorResult{Name: "index", Needed: true}
	if _, err := os.Stat(index.DBPath(root)); err != nil {
		r.Detail, r.Fix = "no index in "+root, "grit index "+root
		return r
	}
	var warned []string
	ix, err := app.OpenIndex(ctx, root, index.Options{Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		r.Detail, r.Fix = err.Error(), "rm -rf "+root+"/.grit && grit index "+root
		return r
	}
	defer ix.Close()
	if len(warned) > 0 {
		r.Detail, r.Fix = strings.Join(warned, "; "), "grit index "+root
		return r
	}
	if err := ix.DB().IntegrityCheck(ctx); err != nil {
		r.Detail, r.Fix = err.Error(), "rm -rf "+root+"/.grit && grit index "+root
		return r
	}
	files, err := ix.Files(ctx)
	if err != nil {
		r.Detail, r.Fix = err.Error(), "grit index "+root
		return r
	}
	if len(files) == 0 {
		r.Detail, r.Fix = "the index is empty", "grit index "+root
		return r
	}
	var newest time.Time
	for _, f := range files {
		if f.MTime.After(newest) {
			newest = f.MTime
		}
	}
	r.OK = true
	r.Detail = fmt.Sprintf("%d files, integrity ok, newest file indexed %s", len(files), newest.Format(time.DateTime))
	return r
}

// languagesCheck lists the languages the index parses, grouped by level of
// support (treesitter.Level), each with its file extensions, and those this
// binary was built without, with the build tags that add them.
func languagesCheck(ctx context.Context, root string) doctorResult {
	r := doctorResult{Name: "languages", OK: true}
	byLevel := map[treesitter.Level][]string{}
	var levels []treesitter.Level
	langs := treesitter.Support()
	for _, l := range langs {
		if _, ok := byLevel[l.Level]; !ok {
			levels = append(levels, l.Level)
		}
		byLevel[l.Level] = append(byLevel[l.Level], l.Name+" ("+strings.Join(l.Exts, " ")+")")
	}
	parts := make([]string, 0, len(levels))
	for _, lv := range levels {
		parts = append(parts, string(lv)+" ("+lv.What()+"): "+strings.Join(byLevel[lv], ", "))
	}
	// Languages left out of this build, grouped by the tags that add them.
	byTags := map[string][]string{}
	var tags []string
	for _, u := range treesitter.NotBuiltIn() {
		if _, ok := byTags[u.Tags]; !ok {
			tags = append(tags, u.Tags)
		}
		byTags[u.Tags] = append(byTags[u.Tags], u.Name+" ("+strings.Join(u.Exts, " ")+")")
	}
	for _, t := range tags {
		parts = append(parts, "not built in (build with -tags "+t+"): "+strings.Join(byTags[t], ", "))
	}
	r.Detail = fmt.Sprintf("%d languages; %s", len(langs), strings.Join(parts, "; "))
	return r
}

// sandboxCheck reports the OS sandbox backend Bash commands will run under.
func sandboxCheck(ctx context.Context, root string) doctorResult {
	r := doctorResult{Name: "sandbox"}
	var notes []string
	for _, b := range sandbox.Probe() {
		if b.Available && !r.OK {
			r.OK = true
			r.Detail = "backend " + b.Name + ": " + b.Detail
			continue
		}
		notes = append(notes, b.Name+": "+b.Detail)
	}
	if !r.OK {
		r.Detail = strings.Join(notes, "; ")
		r.Fix = "apt-get install -y bubblewrap; without a backend Bash refuses to run in sandboxed mode (set sandbox.enabled=false in settings to run unsandboxed, at your own risk)"
	}
	return r
}

func newDoctorCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor [PATH]",
		Short: "Check what Grit needs: git, rg, the index, the sandbox, which models answer, and the Claude Code setup",
		Long: `Doctor checks the programs Grit uses and the state of the index of the
repository at PATH (default: the current directory), and prints a fix for each
thing that is missing or broken. It lists the Claude Code files it found
(.claude/settings.json, CLAUDE.md, .claude/skills, commands, agents, .mcp.json),
which a session uses and what it ignores, and why. It exits non-zero when
something Grit needs for its main job (git, rg, a healthy index) is not there.`,
		Example: `  grit doctor
  grit doctor --json | jq '.[] | select(.ok | not)'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := rootArg(args)
			if err != nil {
				return err
			}
			var results []doctorResult
			failed := false
			for _, c := range doctorChecks() {
				r := c(e.ctx, root)
				results = append(results, r)
				failed = failed || (!r.OK && r.Needed)
			}
			results = append(results, providerChecks(e.ctx, root)...)
			claudeRoot := "" // the current directory's repository, as a session takes it
			if len(args) == 1 {
				claudeRoot = args[0]
			}
			results = append(results, claudeChecks(claudeRoot)...)
			if asJSON {
				if err := writeJSON(e.Out, results); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					mark := "ok  "
					if !r.OK {
						mark = map[bool]string{true: "FAIL", false: "warn"}[r.Needed]
					}
					fmt.Fprintf(e.Out, "%s  %-9s %s\n", mark, r.Name, r.Detail)
					if !r.OK && r.Fix != "" {
						fmt.Fprintf(e.Out, "      %-9s fix: %s\n", "", r.Fix)
					}
				}
			}
			if failed {
				return quietError{ExitError}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
