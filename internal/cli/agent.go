package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/agent"
	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/contextlayer"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/spf13/cobra"
)

// agentFlags are the root command's flags, Claude Code's names.
type agentFlags struct {
	print          bool
	outputFormat   string
	cont           bool
	resume         string
	model          string
	permissionMode string
	maxTurns       int
	allowed        []string
	disallowed     []string
	appendSystem   string
	verbose        bool
	noTUI          bool
	// pickSession is -r given no ID: choose the session in a picker.
	pickSession bool
}

// newAgentCmd is the root command: `grit` (interactive), `grit -p` (headless),
// `-c` and `-r` (resume).
func newAgentCmd(e *env) *cobra.Command {
	var f agentFlags
	cmd := &cobra.Command{
		Use:   "grit [prompt]",
		Short: "Grit: a coding-agent harness that carries the intelligence so the model only edits",
		Long: `Grit indexes a repository with tree-sitter, finds the code a task is about with
deterministic signals (no model), and has a model rewrite one whole function,
verified by the tests. It is also a full agent: with no subcommand, a model
drives Grit's tools (Bash, Read, Edit, Write, Grep, Glob, Locate, EditFunction)
in a loop, as in Claude Code.

  grit                  interactive chat on a terminal (/help lists its commands)
  grit -p "task"        headless: run the task, print the result, exit
  cat log | grit -p "why does this fail?"   the prompt can come from stdin
  grit -c               continue this project's latest session; grit -r ID resumes one,
                        grit -r alone picks one from a list

The model is --model PROVIDER:MODEL (anthropic:, openai:, ollama:, scripted:PATH),
else "model" in settings, else ollama:qwen2.5-coder:7b. Settings are read from
~/.config/grit/settings.json, .grit/settings.json and .grit/settings.local.json,
and Claude Code's (~/.claude/settings.json, .claude/settings.json,
.claude/settings.local.json) beside them; grit doctor lists what is used.
In the default permission mode edits and commands ask on a terminal; headless,
they are refused unless a rule or --permission-mode allows them.

Also:
  grit index            index the current repository into .grit/index.db
  grit search "task"    rank the functions a task is about, with every signal's score
  grit fix "task"       the harness-driven fix: one function, verified by the tests
  grit sessions         list this project's sessions
  grit explore          the web explorer over the index and the search`,
		Example: `  grit -p "Fix the failing test in calc_test.go" --permission-mode acceptEdits
  grit -p "Summarise the open TODOs" --output-format json | jq -r .result
  grit -p "Run the tests" --allowedTools "Bash(go test:*),Read" --output-format stream-json
  grit -r 3f2a9c1e-... -p "Now add a test for the empty case"`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAgent(e, cmd, f, args)
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&f.print, "print", "p", false, "headless: run the prompt (argument or stdin), print the result and exit")
	fl.StringVar(&f.outputFormat, "output-format", "text", "headless output: text, json or stream-json")
	fl.BoolVarP(&f.cont, "continue", "c", false, "continue this project's most recent session")
	fl.StringVarP(&f.resume, "resume", "r", "", "resume the session with this ID (grit sessions lists them)")
	fl.StringVar(&f.model, "model", "", "the model as PROVIDER:MODEL (anthropic, openai, ollama, scripted)")
	fl.StringVar(&f.permissionMode, "permission-mode", "", "default, acceptEdits, plan or bypassPermissions")
	fl.IntVar(&f.maxTurns, "max-turns", 0, "most model calls in one turn (0: settings maxTurns, else 100)")
	fl.StringArrayVar(&f.allowed, "allowedTools", nil, `rules that allow tool calls, comma or space separated ("Bash(git diff:*),Read")`)
	fl.StringArrayVar(&f.disallowed, "disallowedTools", nil, "rules that deny tool calls; a bare tool name also hides the tool")
	fl.StringVar(&f.appendSystem, "append-system-prompt", "", "text appended to the system prompt")
	fl.BoolVar(&f.verbose, "verbose", false, "show tool calls and notices on stderr (headless text output)")
	fl.BoolVar(&f.noTUI, "no-tui", false, "interactive: the plain line-mode chat instead of the full-screen interface (also with TERM=dumb)")
	return cmd
}

func runAgent(e *env, cmd *cobra.Command, f agentFlags, args []string) error {
	switch f.outputFormat {
	case "text", "json", "stream-json":
	default:
		return usageErrorf("unknown --output-format %q (expected: text, json, stream-json)", f.outputFormat)
	}
	if f.permissionMode != "" {
		if err := config.ValidMode(f.permissionMode); err != nil {
			return usageErrorf("--permission-mode: %v", err)
		}
	}
	if f.resume == pickSessionArg {
		f.resume, f.pickSession = "", true
	}
	if f.cont && (f.resume != "" || f.pickSession) {
		return usageErrorf("use either -c/--continue or -r/--resume, not both")
	}
	prompt := strings.Join(args, " ")
	interactive := !f.print && isTTY(e.In) && isTTY(e.Out)
	if !interactive && e.In != nil && !isTTY(e.In) {
		data, err := io.ReadAll(e.In)
		if err != nil {
			return fmt.Errorf("read the prompt from stdin: %w", err)
		}
		if in := strings.TrimSpace(string(data)); in != "" {
			if prompt == "" {
				prompt = in
			} else {
				prompt += "\n\n" + in
			}
		}
	}
	if interactive {
		if useTUI(f) {
			return runTUI(e, f, prompt)
		}
		if f.pickSession {
			return usageErrorf("-r needs a session ID in line mode (grit sessions lists them)")
		}
		return runInteractive(e, f, prompt)
	}
	if f.pickSession {
		return usageErrorf("-r needs a session ID without a terminal (grit sessions lists them)")
	}
	if strings.TrimSpace(prompt) == "" {
		if f.print {
			return usageErrorf("-p needs a prompt: grit -p \"task\", or pipe it on stdin")
		}
		return cmd.Help()
	}
	return runHeadless(e, f, prompt)
}

func (f agentFlags) options(e *env) app.AgentOptions {
	return app.AgentOptions{
		Model: f.model, PermissionMode: f.permissionMode, MaxTurns: f.maxTurns,
		AllowedTools: f.allowed, DisallowedTools: f.disallowed, AppendSystemPrompt: f.appendSystem,
		Continue: f.cont, Resume: f.resume,
		Warnf: func(format string, a ...any) { fmt.Fprintf(e.Err, "grit: "+format+"\n", a...) },
	}
}

// resultJSON is Claude Code's result message.
type resultJSON struct {
	Type         string    `json:"type"`
	Subtype      string    `json:"subtype"`
	IsError      bool      `json:"is_error"`
	Result       string    `json:"result"`
	SessionID    string    `json:"session_id"`
	NumTurns     int       `json:"num_turns"`
	DurationMS   int64     `json:"duration_ms"`
	Usage        usageJSON `json:"usage"`
	TotalCostUSD float64   `json:"total_cost_usd"`
}

type usageJSON struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
}

func toUsageJSON(u provider.Usage) usageJSON {
	return usageJSON{u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens}
}

// streamMessage is a message of stream-json; an assistant message carries
// the usage of the call that produced it, cache reads and writes included,
// as in Claude Code.
type streamMessage struct {
	provider.Message
	Usage *usageJSON `json:"usage,omitempty"`
}

// streamLine is one line of stream-json.
type streamLine struct {
	Type           string         `json:"type"`
	Subtype        string         `json:"subtype,omitempty"`
	SessionID      string         `json:"session_id"`
	Message        *streamMessage `json:"message,omitempty"`
	Cwd            string         `json:"cwd,omitempty"`
	Model          string         `json:"model,omitempty"`
	Tools          []string       `json:"tools,omitempty"`
	PermissionMode string         `json:"permissionMode,omitempty"`
}

func runHeadless(e *env, f agentFlags, prompt string) error {
	start := time.Now()
	opts := f.options(e)
	enc := json.NewEncoder(e.Out)
	var sessionID string
	switch {
	case f.outputFormat == "stream-json":
		var usage *usageJSON // of the call whose message comes next
		opts.OnEvent = func(ev agent.Event) {
			switch ev.Kind {
			case agent.KindUsage:
				u := toUsageJSON(*ev.Usage)
				usage = &u
			case agent.KindAssistant:
				enc.Encode(streamLine{Type: "assistant", SessionID: sessionID, Message: &streamMessage{Message: *ev.Message, Usage: usage}})
				usage = nil
			case agent.KindToolResults:
				enc.Encode(streamLine{Type: "user", SessionID: sessionID, Message: &streamMessage{Message: *ev.Message}})
			}
		}
	case f.verbose:
		opts.OnEvent = func(ev agent.Event) { describeEvent(e.Err, ev) }
	}
	s, err := app.OpenAgent(e.ctx, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	layer, err := app.AttachContext(e.ctx, s, opts)
	if err != nil {
		return err
	}
	sessionID = s.Session.ID
	if f.outputFormat == "stream-json" {
		enc.Encode(streamLine{Type: "system", Subtype: "init", SessionID: sessionID, Cwd: s.Root, Model: s.Model,
			Tools: s.Agent.Tools().Names(), PermissionMode: s.Engine.Mode()})
	}
	res, runErr := s.RunPrompt(e.ctx, layer, prompt)
	if runErr != nil {
		if hint := provider.Unreachable(s.Model, runErr); hint != "" {
			runErr = errors.New(hint)
			res.Text = hint
		}
	}
	out := resultJSON{
		Type: "result", Subtype: orSubtype(res.Subtype), IsError: res.IsError || runErr != nil,
		Result: res.Text, SessionID: sessionID, NumTurns: res.Turns,
		DurationMS: time.Since(start).Milliseconds(), Usage: toUsageJSON(res.Usage),
	}
	if cost, ok := provider.CostUSD(s.Model, res.Usage); ok {
		out.TotalCostUSD = cost
	}
	code := ExitOK
	if out.IsError {
		code = ExitError
	}
	if errors.Is(runErr, context.Canceled) {
		code = ExitInterrupted
	}
	switch f.outputFormat {
	case "json", "stream-json":
		if err := enc.Encode(out); err != nil {
			return err
		}
		if code != ExitOK {
			return quietError{code}
		}
		return nil
	}
	if runErr != nil {
		return withCode(code, runErr)
	}
	fmt.Fprintln(e.Out, strings.TrimRight(res.Text, "\n"))
	if code != ExitOK {
		return quietError{code}
	}
	return nil
}

func orSubtype(s string) string {
	if s == "" {
		return agent.SubtypeDuringExecute
	}
	return s
}

// describeEvent prints a one-line account of tool calls and notices.
func describeEvent(w io.Writer, ev agent.Event) {
	switch ev.Kind {
	case agent.KindToolUse:
		if ev.ToolName == "TodoWrite" {
			describeTodos(w, ev.ToolInput)
			return
		}
		fmt.Fprintf(w, "⏺ %s(%s)\n", ev.ToolName, oneLine(summarizeInput(ev.ToolInput), 100))
	case agent.KindToolResults:
		for _, b := range ev.Message.Content {
			mark := "⎿"
			if b.IsError {
				mark = "⎿ error:"
			}
			fmt.Fprintf(w, "  %s %s\n", mark, oneLine(b.Content, 100))
		}
	case agent.KindNotice:
		fmt.Fprintf(w, "grit: %s\n", ev.Text)
	case agent.KindUsage:
		u := ev.Usage
		fmt.Fprintf(w, "  tokens: %d in (%d read from cache, %d written to it), %d out\n",
			u.InputTokens+u.CacheReadTokens+u.CacheWriteTokens, u.CacheReadTokens, u.CacheWriteTokens, u.OutputTokens)
	}
}

// summarizeInput shows the field that says what a call does.
func summarizeInput(input json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return string(input)
	}
	for _, k := range []string{"command", "file_path", "pattern", "task", "name", "plan", "url", "description", "bash_id", "shell_id"} {
		if v, ok := m[k].(string); ok {
			return v
		}
	}
	return string(input)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// chat is the interactive line-mode session.
type chat struct {
	e     *env
	s     *app.AgentSession
	opts  app.AgentOptions    // how s was opened, for /resume
	layer *contextlayer.Layer // context files, memory, skills, compaction
	in    *chatInput          // the user's messages
	// pending are messages that came while a prompt waited for its answer
	// (type-ahead, a paste): they run, in order, before new input is read.
	pending []inputMsg
	quit    bool
	// streaming says model text is being printed and needs a newline.
	streaming bool
}

// slashCommand is one interactive command. Others add theirs with one line
// in slashCommands.
type slashCommand struct {
	name  string // "/help"
	usage string // "/model [PROVIDER:MODEL]"
	help  string
	run   func(ctx context.Context, c *chat, arg string) error
}

func slashCommands() []slashCommand {
	return []slashCommand{
		{"/help", "/help", "list the commands", slashHelp},
		{"/exit", "/exit", "leave (Ctrl-D works too)", func(ctx context.Context, c *chat, arg string) error { c.quit = true; return nil }},
		{"/clear", "/clear", "start the conversation over (the transcript keeps it)", slashClear},
		{"/model", "/model [PROVIDER:MODEL]", "show or switch the model", slashModel},
		{"/permissions", "/permissions [MODE]", "show or switch the permission mode (default, acceptEdits, plan, bypassPermissions)", slashPermissions},
		{"/context", "/context", "show what fills the context window, row by row", slashContext},
		{"/compact", "/compact [FOCUS]", "summarize the conversation to free the window (optionally focused)", slashCompact},
		{"/skills", "/skills", "list the skills", slashSkills},
		{"/usage", "/usage", "show tokens, the share read from cache, and the cost", slashUsage},
		{"/memory", "/memory", "show the memory files (# NOTE adds a note)", slashMemory},
		{"/resume", "/resume [ID]", "list this project's sessions, or switch to one", slashResume},
		{"/goal", "/goal OBJECTIVE --until CMD", "work until CMD exits 0 (run by grit in the sandbox) or 10 turns are spent", slashGoal},
		{"/todos", "/todos", "show the task list (TodoWrite)", slashTodos},
		{"/mcp", "/mcp", "show the MCP servers: state, tool count, log", slashMCP},
		{"/bashes", "/bashes", "list the background shells (kill one with /bashes kill ID)", slashBashes},
		// Slash commands register here, one line each.
	}
}

func slashHelp(ctx context.Context, c *chat, arg string) error {
	for _, sc := range slashCommands() {
		fmt.Fprintf(c.e.Out, "  %-28s %s\n", sc.usage, sc.help)
	}
	helpCustom(c)
	fmt.Fprintln(c.e.Out, "  @path inlines a file or lists a directory; @path:SYMBOL inlines one definition.")
	fmt.Fprintln(c.e.Out, "  Ctrl-C interrupts the model; at the prompt it quits.")
	return nil
}

func slashClear(ctx context.Context, c *chat, arg string) error {
	if err := c.s.Agent.Clear(); err != nil {
		return err
	}
	if c.layer != nil {
		c.layer.Cleared()
	}
	fmt.Fprintln(c.e.Out, "Conversation cleared.")
	return nil
}

func slashModel(ctx context.Context, c *chat, arg string) error {
	if arg == "" {
		fmt.Fprintf(c.e.Out, "Model: %s\n", c.s.Model)
		return nil
	}
	if err := c.s.SetModel(arg); err != nil {
		return err
	}
	window := 0
	if c.layer != nil {
		window = contextlayer.WindowOf(ctx, arg, c.s.Settings, c.s.Agent.Provider())
		c.layer.SetModel(arg, window)
	}
	if window > 0 {
		fmt.Fprintf(c.e.Out, "Model: %s (context window %d tokens)\n", arg, window)
		return nil
	}
	fmt.Fprintf(c.e.Out, "Model: %s\n", arg)
	return nil
}

func slashPermissions(ctx context.Context, c *chat, arg string) error {
	if arg != "" {
		if err := c.s.Engine.SetMode(arg); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.e.Out, "Permission mode: %s\n", c.s.Engine.Mode())
	return nil
}

// dispatch runs a slash command line.
func (c *chat) dispatch(ctx context.Context, line string) error {
	name, arg, _ := strings.Cut(line, " ")
	for _, sc := range slashCommands() {
		if sc.name == name {
			return sc.run(ctx, c, strings.TrimSpace(arg))
		}
	}
	return fmt.Errorf("unknown command %s (/help lists them)", name)
}

// ttyAsker asks on the terminal: y, n, or a(lways) for this session.
type ttyAsker struct{ c *chat }

func (a ttyAsker) Ask(ctx context.Context, call agent.Call, reason string) (bool, error) {
	c := a.c
	c.endStream()
	name, input := call.Tool, call.Input
	if name == "ExitPlanMode" {
		return a.approvePlan(ctx, input)
	}
	grants := c.s.Engine.GrantsFor(name, input, call.Paths...)
	always := ""
	if len(grants) > 0 {
		always = fmt.Sprintf(", a = always allow %s this session", strings.Join(grants, ", "))
	}
	fmt.Fprintf(c.e.Err, "\n%s wants to run: %s\n  (%s)\nAllow? [y/N%s] ", name, oneLine(summarizeInput(input), 200), reason, always)
	answer, ok, err := c.answer(ctx)
	if err != nil || !ok {
		return false, err
	}
	switch answer {
	case "y", "yes":
		return true, nil
	case "a", "always":
		for _, g := range grants {
			if err := c.s.Engine.GrantSession(g); err != nil {
				return false, err
			}
		}
		return len(grants) > 0, nil
	}
	return false, nil
}

// approvePlan shows ExitPlanMode's plan in full and asks whether to go
// ahead: y leaves plan mode for default (edits ask), a for acceptEdits.
func (a ttyAsker) approvePlan(ctx context.Context, input json.RawMessage) (bool, error) {
	c := a.c
	var in struct {
		Plan string `json:"plan"`
	}
	json.Unmarshal(input, &in)
	fmt.Fprintf(c.e.Err, "\nThe plan:\n\n%s\n\nProceed? [y = yes, approve edits one by one / a = yes, accept edits / N = keep planning] ", strings.TrimSpace(in.Plan))
	answer, ok, err := c.answer(ctx)
	if err != nil || !ok {
		return false, err
	}
	switch answer {
	case "y", "yes":
		return true, nil
	case "a":
		return true, c.s.Engine.SetMode("acceptEdits")
	}
	return false, nil
}

// answer waits for the answer to a prompt just shown: a message typed
// after it appeared. A paste, or a line typed before the prompt (type-ahead
// while the model worked), never answers; it is kept as the next message.
func (c *chat) answer(ctx context.Context) (string, bool, error) {
	shown := time.Now()
	for {
		select {
		case <-ctx.Done():
			return "", false, ctx.Err()
		case m, ok := <-c.in.C:
			if !ok {
				return "", false, nil
			}
			if m.pasted || (c.in.tty && m.at.Before(shown)) {
				c.pending = append(c.pending, m)
				fmt.Fprintf(c.e.Err, "\n(input that was not typed at this prompt is kept for later; answer with a key)\n> ")
				continue
			}
			return strings.ToLower(strings.TrimSpace(m.text)), true, nil
		}
	}
}

func (c *chat) endStream() {
	if c.streaming {
		fmt.Fprintln(c.e.Out)
		c.streaming = false
	}
}

func (c *chat) onEvent(ev agent.Event) {
	switch ev.Kind {
	case agent.KindTextDelta:
		fmt.Fprint(c.e.Out, ev.Text)
		c.streaming = true
	case agent.KindAssistant:
		c.endStream()
	default:
		c.endStream()
		describeEvent(c.e.Err, ev)
	}
}

func runInteractive(e *env, f agentFlags, first string) error {
	// Ctrl-C interrupts the running turn, not the program: the turns run
	// on a context the interrupt signal of the process does not end.
	base := context.WithoutCancel(e.ctx)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)

	in, restore := startChatInput(e.In)
	defer restore()
	if in.tty && isTTY(e.Out) {
		// Bracketed paste: the terminal marks pasted text, so a multi-line
		// paste is one message.
		fmt.Fprint(e.Out, pasteOn)
		defer fmt.Fprint(e.Out, pasteOff)
	}
	c := &chat{e: e, in: in}
	opts := f.options(e)
	opts.Asker = ttyAsker{c}
	opts.OnEvent = c.onEvent
	s, err := app.OpenAgent(base, opts)
	if err != nil {
		return err
	}
	c.s = s
	defer func() { c.s.Close() }()
	c.opts = opts
	if c.layer, err = app.AttachContext(base, s, opts); err != nil {
		return err
	}
	fmt.Fprintf(e.Err, "grit · %s · %s mode · session %s\n/help for commands, Ctrl-D to quit.\n", s.Model, s.Engine.Mode(), s.Session.ID)

	turn := func(prompt string) {
		ctx, cancel := context.WithCancel(base)
		done := make(chan struct{})
		go func() {
			select {
			case <-sigs:
				cancel()
			case <-done:
			}
		}()
		res, err := s.RunPrompt(ctx, c.layer, prompt)
		close(done)
		cancel()
		c.endStream()
		switch {
		case errors.Is(err, context.Canceled):
			fmt.Fprintln(e.Err, "grit: interrupted; the partial reply is kept in the session.")
		case err != nil:
			if hint := provider.Unreachable(s.Model, err); hint != "" {
				err = errors.New(hint)
			}
			fmt.Fprintf(e.Err, "grit: %v\n", err)
		case res.IsError:
			fmt.Fprintf(e.Err, "grit: %s\n", res.Text)
		}
	}
	if strings.TrimSpace(first) != "" {
		turn(first)
	}
	defer s.End(base, "prompt_input_exit")
	for !c.quit {
		fmt.Fprint(e.Err, "> ")
		var m inputMsg
		if len(c.pending) > 0 {
			m, c.pending = c.pending[0], c.pending[1:]
			fmt.Fprintln(e.Err, oneLine(m.text, 100))
		} else {
			var ok bool
			select {
			case <-sigs:
				fmt.Fprintln(e.Err)
				return nil
			case m, ok = <-in.C:
				if !ok {
					fmt.Fprintln(e.Err)
					return nil
				}
			}
		}
		line := strings.TrimSpace(m.text)
		switch {
		case line == "":
		case m.pasted:
			turn(line) // a paste is a message, even one starting with / or #
		case strings.HasPrefix(line, "/") && !c.builtin(line) && c.layer != nil && c.layer.IsCommand(line):
			turn(line) // a custom command or a skill
		case strings.HasPrefix(line, "/"):
			if err := c.dispatch(base, line); err != nil {
				fmt.Fprintf(e.Err, "grit: %v\n", err)
			}
		case strings.HasPrefix(line, "#"):
			if err := memoryNote(c, line); err != nil {
				fmt.Fprintf(e.Err, "grit: %v\n", err)
			}
		default:
			turn(line)
		}
	}
	return nil
}
