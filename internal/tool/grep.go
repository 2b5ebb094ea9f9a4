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

	"github.com/google/jsonschema-go/jsonschema"
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
	Pattern    string `json:"pattern" jsonschema:"Regular expression (ripgrep syntax)"`
	Path       string `json:"path,omitempty" jsonschema:"File or directory to search (default: workspace root)"`
	Glob       string `json:"glob,omitempty" jsonschema:"Filter files, e.g. *.py or src/**/*.{ts,tsx}"`
	Type       string `json:"type,omitempty" jsonschema:"File type, e.g. py, go, js"`
	OutputMode string `json:"output_mode,omitempty" jsonschema:"Default files_with_matches"`
	I          bool   `json:"-i,omitempty" jsonschema:"Ignore case"`
	N          *bool  `json:"-n,omitempty" jsonschema:"Line numbers (content mode, default true)"`
	A          int    `json:"-A,omitempty" jsonschema:"Lines after each match"`
	B          int    `json:"-B,omitempty" jsonschema:"Lines before each match"`
	C          int    `json:"-C,omitempty" jsonschema:"Lines around each match"`
	HeadLimit  int    `json:"head_limit,omitempty" jsonschema:"Show only the first N lines or files"`
	Multiline  bool   `json:"multiline,omitempty" jsonschema:"Let . and patterns span lines"`
}

func (Grep) Name() string        { return "Grep" }
func (Grep) Description() string { return grepDesc() }
func (Grep) Schema() json.RawMessage {
	return rawSchema[grepInput](func(p map[string]*jsonschema.Schema) {
		Enum("content", "files_with_matches", "count")(p["output_mode"])
	})
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
