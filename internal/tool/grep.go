package tool

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
)

// Limits of Grep.
const (
	grepDefaultHead = 200   // lines or files shown when head_limit is 0
	grepMaxBytes    = 30000 // bytes of output
)

//go:embed grep.md
var grepMD string

var grepDesc = render("grep.md", grepMD)

// Grep searches file contents with ripgrep, confined to the workspace.
type Grep struct{}

type grepInput struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Glob       string `json:"glob"`
	Type       string `json:"type"`
	OutputMode string `json:"output_mode"`
	I          bool   `json:"-i"`
	N          *bool  `json:"-n"`
	A          int    `json:"-A"`
	B          int    `json:"-B"`
	C          int    `json:"-C"`
	HeadLimit  int    `json:"head_limit"`
	Multiline  bool   `json:"multiline"`
}

func (Grep) Name() string        { return "Grep" }
func (Grep) Description() string { return grepDesc() }
func (Grep) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"pattern":{"type":"string","description":"Regular expression (ripgrep syntax)"},` +
		`"path":{"type":"string","description":"File or directory to search (default: workspace root)"},` +
		`"glob":{"type":"string","description":"Filter files, e.g. *.py or src/**/*.{ts,tsx}"},` +
		`"type":{"type":"string","description":"File type, e.g. py, go, js"},` +
		`"output_mode":{"type":"string","enum":["content","files_with_matches","count"],"description":"Default files_with_matches"},` +
		`"-i":{"type":"boolean","description":"Ignore case"},` +
		`"-n":{"type":"boolean","description":"Line numbers (content mode, default true)"},` +
		`"-A":{"type":"integer","description":"Lines after each match"},` +
		`"-B":{"type":"integer","description":"Lines before each match"},` +
		`"-C":{"type":"integer","description":"Lines around each match"},` +
		`"head_limit":{"type":"integer","description":"Show only the first N lines or files"},` +
		`"multiline":{"type":"boolean","description":"Let . and patterns span lines"}},` +
		`"required":["pattern"]}`)
}

func (t Grep) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (Grep) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in grepInput
	if err := decode("Grep", input, &in); err != nil {
		return Result{}, err
	}
	if in.Pattern == "" {
		return Result{}, fixf(nil, "Grep needs a pattern.")
	}
	rg, err := exec.LookPath("rg")
	if err != nil {
		return Result{}, fixf(err, "Grep needs ripgrep (rg), which is not installed here. Use Bash with grep -rn instead.")
	}
	mode := in.OutputMode
	switch mode {
	case "":
		mode = "files_with_matches"
	case "content", "files_with_matches", "count":
	default:
		return Result{}, fixf(nil, "output_mode %q is not one of content, files_with_matches, count.", mode)
	}
	target := "."
	if in.Path != "" {
		if target, err = env.resolve(in.Path); err != nil {
			return Result{}, err
		}
		if err := env.checkSearchTarget(target); err != nil {
			return Result{}, err
		}
	}
	args := []string{"--no-config", "--color=never", "--hidden", "--glob=!.git", "--glob=!.grit",
		"--max-columns=500", "--max-columns-preview", "--with-filename"}
	if in.I {
		args = append(args, "-i")
	}
	if in.Multiline {
		args = append(args, "-U", "--multiline-dotall")
	}
	if in.Glob != "" {
		args = append(args, "--glob", in.Glob)
	}
	if in.Type != "" {
		args = append(args, "--type", in.Type)
	}
	switch mode {
	case "files_with_matches":
		args = append(args, "--files-with-matches")
	case "count":
		args = append(args, "--count")
	case "content":
		if in.N == nil || *in.N {
			args = append(args, "-n")
		}
		for _, c := range []struct {
			flag string
			n    int
		}{{"-A", in.A}, {"-B", in.B}, {"-C", in.C}} {
			if c.n > 0 {
				args = append(args, c.flag, strconv.Itoa(c.n))
			}
		}
	}
	args = append(args, "-e", in.Pattern, "--", target)

	cmd := exec.CommandContext(ctx, rg, args...)
	cmd.Dir = env.realRoot()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return Result{Content: "No matches found."}, nil
	case errors.As(err, &ee) && stdout.Len() == 0:
		return Result{}, fixf(nil, "rg failed: %s", strings.TrimSpace(stderr.String()))
	case !errors.As(err, &ee):
		return Result{}, fmt.Errorf("grep: run rg: %w", err)
	}

	var lines []string
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, strings.TrimPrefix(sc.Text(), "./"))
	}
	if mode == "files_with_matches" {
		sortByMTime(env, lines)
	}
	head := in.HeadLimit
	if head <= 0 {
		head = grepDefaultHead
	}
	var b strings.Builder
	shown := 0
	for _, l := range lines {
		if shown == head || b.Len()+len(l)+1 > grepMaxBytes {
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
		shown++
	}
	if shown < len(lines) {
		fmt.Fprintf(&b, "[%d of %d lines shown; narrow the search or set head_limit]\n", shown, len(lines))
	}
	if ee != nil {
		fmt.Fprintf(&b, "[rg: %s]\n", strings.TrimSpace(firstLine(stderr.String())))
	}
	return Result{Content: strings.TrimSuffix(b.String(), "\n")}, nil
}

// sortByMTime orders workspace paths newest first (ties by path).
func sortByMTime(env *Env, paths []string) {
	r, err := env.openRoot()
	if err != nil {
		sort.Strings(paths)
		return
	}
	defer r.Close()
	mt := make(map[string]int64, len(paths))
	for _, p := range paths {
		if fi, err := r.Lstat(p); err == nil {
			mt[p] = fi.ModTime().UnixNano()
		}
	}
	sort.SliceStable(paths, func(i, j int) bool {
		if mt[paths[i]] != mt[paths[j]] {
			return mt[paths[i]] > mt[paths[j]]
		}
		return paths[i] < paths[j]
	})
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
