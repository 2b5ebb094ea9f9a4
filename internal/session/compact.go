package session

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"text/template"

	"github.com/grit-dev/grit/internal/provider"
)

// BytesPerToken converts text size to an estimated token count when no
// provider has counted. Calibration: tokenizers of current models give
// about 4 bytes per token on English prose and 3 to 3.5 on source code and
// JSON (denser punctuation, short identifiers); a prompt here is mostly code,
// tool schemas and tool output, so 3.6 errs a little on the high side, which
// is the safe side for compaction. No tokenizer runs offline in this
// repository, so the constant is corrected at run time: once the provider
// reports the input tokens of a request, Compactor.Scale is the measured
// ratio of those to the estimate, and every later estimate is multiplied by it.
const BytesPerToken = 3.6

// perMessageTokens and perBlockTokens are the framing each message and
// content block costs beyond its text (role markers, ids, JSON keys).
const (
	perMessageTokens = 4
	perBlockTokens   = 3
)

// EstimateTokens estimates the tokens of s (uncalibrated).
func EstimateTokens(s string) int {
	return int(math.Ceil(float64(len(s)) / BytesPerToken))
}

// EstimateMessages estimates the tokens of a conversation (uncalibrated).
func EstimateMessages(msgs []provider.Message) int {
	n := 0
	for _, m := range msgs {
		n += perMessageTokens
		for _, b := range m.Content {
			n += perBlockTokens + EstimateTokens(b.Text) + EstimateTokens(b.Name) + EstimateTokens(string(b.Input)) + EstimateTokens(b.Content)
		}
	}
	return n
}

// EstimateTools estimates the tokens of tool specs as they are sent (uncalibrated).
func EstimateTools(tools []provider.ToolSpec) int {
	n := 0
	for _, t := range tools {
		n += perBlockTokens + EstimateTokens(t.Name) + EstimateTokens(t.Description) + EstimateTokens(string(t.InputSchema))
	}
	return n
}

// Compaction thresholds.
const (
	minReserve = 2_000  // tokens kept free in any known window
	maxReserve = 13_000 // tokens kept free in a large window
)

// Reserve is the autocompact buffer of a window: the tokens kept free for
// the summary and the next replies. A fifth of the window, at least
// minReserve and at most maxReserve, and never more than half the window
// (4k → 2,000; 32k → 6,400; 200k → 13,000). An unknown window (0) has none.
func Reserve(window int) int {
	if window <= 0 {
		return 0
	}
	return min(max(window/5, minReserve), maxReserve, window/2)
}

// Threshold is the conversation size at which compaction starts: the window
// less its Reserve; 0 when the window is unknown (never compact automatically).
func Threshold(window int) int {
	if window <= 0 {
		return 0
	}
	return window - Reserve(window)
}

// ErrCompactionStuck means a compaction left the conversation over the
// threshold, so compacting again would only repeat itself.
var ErrCompactionStuck = errors.New("the conversation is still over the compaction threshold after compacting")

//go:embed compact.md
var compactTemplate string

var compactTmpl = template.Must(template.New("compact.md").Option("missingkey=error").Parse(compactTemplate))

// SummaryPrefix starts the message a compacted conversation begins with.
const SummaryPrefix = "This session continues an earlier conversation that was compacted to free the context window. The summary of it so far:\n\n"

// SummarySuffix ends that message.
const SummarySuffix = "\n\nContinue from where the conversation stopped, without redoing finished work; read a file again before editing it."

// Compactor implements the agent's Compactor: when a conversation nears the
// model's window less a Reserve, the model writes a structured summary
// (compact.md) and a new window starts from it. It also meters the window
// for /context (Used, Scale). It never compacts on its own when Window is 0
// (unknown), and it guards against ping-pong: when a compaction leaves the
// conversation still over the threshold, the next one fails with
// ErrCompactionStuck instead of summarizing the summary again.
//
// ShouldCompact is called before every model call and remembers what was
// sent, so that Used can add to the provider's count only what came after.
// A Compactor is safe for concurrent use.
type Compactor struct {
	// Provider is the model that writes the summary (the session's current
	// one: /model may switch it).
	Provider func() provider.Provider
	// Window is the model's context window in tokens; 0 is unknown.
	Window int
	// Overhead estimates the tokens of the request prefix: system prompt
	// and tool specs (uncalibrated); nil counts 0.
	Overhead func() int
	// Reload runs after a summary is made, before its size is checked: the
	// app re-reads the context files from disk and rebuilds the system prompt.
	Reload func()
	// MaxTokens bounds the summary; 0 derives it from the window.
	MaxTokens int

	// mu guards the fields below.
	mu       sync.Mutex
	focus    string         // /compact's focus for the next Compact
	stuck    int            // tokens after the last compaction when it left us over; 0 = not stuck
	sentLen  int            // messages in the last request sent
	counted  int            // messages in the request lastSeen counts
	lastSeen provider.Usage // usage passed to the last ShouldCompact
	stale    provider.Usage // usage that predates a compaction or a /clear
	scale    float64        // provider tokens / estimated tokens; 0 = not measured
	spent    provider.Usage // usage of the summary calls
}

// SetFocus makes the next Compact's summary focus on focus (/compact focus).
func (c *Compactor) SetFocus(focus string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.focus = strings.TrimSpace(focus)
}

// Reset forgets the metering after the conversation was cleared (/clear).
func (c *Compactor) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stuck, c.sentLen, c.counted = 0, 0, 0
	c.stale = c.lastSeen
}

// Observe records that the last request held the first sent messages of
// the conversation and that the provider counted it as last: a resumed
// session's last usage record.
func (c *Compactor) Observe(sent int, last provider.Usage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sentLen, c.counted, c.lastSeen = sent, sent, last
}

// Spent is the usage of the summary calls so far.
func (c *Compactor) Spent() provider.Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.spent
}

// Scale is the calibration factor applied to estimates: the provider's
// count over the estimate for the last request, or 1 before any count.
func (c *Compactor) Scale() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scaleLocked()
}

func (c *Compactor) scaleLocked() float64 {
	if c.scale == 0 {
		return 1
	}
	return c.scale
}

func (c *Compactor) overhead() int {
	if c.Overhead == nil {
		return 0
	}
	return c.Overhead()
}

// Used returns the tokens the next request would take: the provider's
// count of the last request plus an estimate of what came after, when the
// provider counted; else a calibrated estimate of everything.
func (c *Compactor) Used(messages []provider.Message, last provider.Usage) (tokens int, counted bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usedLocked(messages, last)
}

func (c *Compactor) usedLocked(messages []provider.Message, last provider.Usage) (int, bool) {
	base := last.InputTokens + last.CacheReadTokens + last.CacheWriteTokens
	if base > 0 && last != c.stale && c.counted <= len(messages) {
		return base + c.scaled(EstimateMessages(messages[c.counted:])), true
	}
	return c.scaled(c.overhead() + EstimateMessages(messages)), false
}

func (c *Compactor) scaled(n int) int { return int(math.Round(float64(n) * c.scaleLocked())) }

// ShouldCompact reports whether the conversation, whose last model call
// used last, must be compacted before the next call; and remembers what is
// about to be sent.
func (c *Compactor) ShouldCompact(messages []provider.Message, last provider.Usage) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(messages) < c.sentLen {
		c.stale = last // shrunk without us (/clear): the count is of another conversation
	}
	if last != c.lastSeen && last != c.stale {
		// A new count, of the request sent last: calibrate against its estimate.
		c.counted = c.sentLen
		if base := last.InputTokens + last.CacheReadTokens + last.CacheWriteTokens; base > 0 && c.sentLen <= len(messages) {
			if est := c.overhead() + EstimateMessages(messages[:c.sentLen]); est > 0 {
				c.scale = min(max(float64(base)/float64(est), 0.25), 4)
			}
		}
	}
	c.lastSeen = last
	used, _ := c.usedLocked(messages, last)
	threshold := Threshold(c.Window)
	switch {
	case c.Window <= 0 || used < threshold:
		c.stuck = 0
	case c.stuck > 0:
		return true // Compact reports why it will not go round again
	case len(messages) >= 2:
		return true
	}
	c.sentLen = len(messages)
	return false
}

// Compact asks the model for a structured summary of messages and returns
// the new conversation: one user message holding it.
func (c *Compactor) Compact(ctx context.Context, messages []provider.Message) ([]provider.Message, error) {
	c.mu.Lock()
	focus, stuck := c.focus, c.stuck
	c.focus = ""
	c.mu.Unlock()
	if stuck > 0 {
		return nil, c.stuckError(stuck)
	}
	if c.Provider == nil || c.Provider() == nil {
		return nil, errors.New("compact: no model to write the summary")
	}
	p := c.Provider()
	req, err := c.summaryRequest(messages, focus)
	if err != nil {
		return nil, err
	}
	resp, err := p.Send(ctx, req, nil)
	if resp != nil {
		c.mu.Lock()
		c.spent.Add(resp.Usage)
		c.mu.Unlock()
	}
	if err != nil {
		return nil, fmt.Errorf("summarize with %s: %w", p.Name(), err)
	}
	summary := strings.TrimSpace(resp.Message().Text())
	if summary == "" {
		return nil, fmt.Errorf("summarize with %s: the model returned no text (stop reason %q)", p.Name(), resp.StopReason)
	}
	if resp.StopReason == provider.StopMaxTokens {
		summary += "\n\n[summary cut by the output token limit]"
	}
	out := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: SummaryPrefix + summary + SummarySuffix}}}}
	if c.Reload != nil {
		c.Reload()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stale = c.lastSeen
	c.sentLen, c.counted = 0, 0
	after := c.scaled(c.overhead() + EstimateMessages(out))
	c.stuck = 0
	if c.Window > 0 && after >= Threshold(c.Window) {
		// Going on would compact the summary again at once: keep it, stop.
		c.stuck = after
		return out, c.stuckErrorLocked(after)
	}
	return out, nil
}

// stuckError explains why the conversation is not compacted again.
func (c *Compactor) stuckError(after int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stuckErrorLocked(after)
}

func (c *Compactor) stuckErrorLocked(after int) error {
	return fmt.Errorf("%w: %d tokens after compacting, threshold %d (a %d-token window less a %d-token reserve), and the system prompt, context files and tools alone take about %d. "+
		"Not compacting again: run /clear to start afresh, shorten the context files or memory (see /context), or use a model with a larger window",
		ErrCompactionStuck, after, Threshold(c.Window), c.Window, Reserve(c.Window), c.scaled(c.overhead()))
}

// Summary request bounds.
const (
	summaryMinTokens     = 512
	summaryMaxTokens     = 8192
	summaryUnknownWindow = 4096
	// transcriptUnknownBytes bounds the transcript sent for a summary when
	// the window is unknown.
	transcriptUnknownBytes = 400_000
	toolInputCut           = 600   // bytes of a tool call's input shown
	toolResultCut          = 2_000 // bytes of a tool result shown
	firstMessageCut        = 4_000 // bytes of the first user message kept when the middle goes
)

// summaryTokens is the output bound of the summary call.
func (c *Compactor) summaryTokens() int {
	if c.MaxTokens > 0 {
		return c.MaxTokens
	}
	if c.Window <= 0 {
		return summaryUnknownWindow
	}
	return min(max(Reserve(c.Window)*3/4, summaryMinTokens), summaryMaxTokens)
}

// CompactPrompt renders the summary instructions (compact.md) for a focus
// and a word budget.
func CompactPrompt(focus string, words int) (string, error) {
	var b strings.Builder
	err := compactTmpl.Execute(&b, struct {
		Focus string
		Words int
	}{focus, words})
	if err != nil {
		return "", fmt.Errorf("compact prompt: %w", err)
	}
	return strings.TrimSpace(b.String()), nil
}

// summaryRequest builds the summary call: the instructions as the system
// prompt and the conversation rendered as text in one user message, cut
// to fit the window (the start and the most recent messages are kept).
func (c *Compactor) summaryRequest(messages []provider.Message, focus string) (*provider.Request, error) {
	out := c.summaryTokens()
	system, err := CompactPrompt(focus, out*2/3)
	if err != nil {
		return nil, err
	}
	budget := transcriptUnknownBytes
	if c.Window > 0 {
		tokens := c.Window - out - EstimateTokens(system) - 256
		budget = max(int(float64(tokens)*BytesPerToken/c.Scale()), 1_000)
	}
	text := "<conversation>\n" + RenderTranscript(messages, budget) + "\n</conversation>\n\nWrite the summary of this conversation now, as the instructions say."
	return &provider.Request{
		System:    system,
		Messages:  []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: text}}}},
		MaxTokens: out,
	}, nil
}

// RenderTranscript renders a conversation as plain text for a summary, in
// at most budget bytes: tool inputs and results are cut, and when the whole
// does not fit, the first message and the most recent ones are kept with a
// marker for what was left out between them.
func RenderTranscript(messages []provider.Message, budget int) string {
	names := map[string]string{} // tool_use id → tool name
	var entries []string
	for _, m := range messages {
		for _, b := range m.Content {
			switch b.Type {
			case provider.BlockText:
				if strings.TrimSpace(b.Text) != "" {
					entries = append(entries, strings.ToUpper(string(m.Role))+": "+strings.TrimSpace(b.Text))
				}
			case provider.BlockToolUse:
				names[b.ID] = b.Name
				entries = append(entries, fmt.Sprintf("ASSISTANT called %s %s", b.Name, cut(compactJSON(b.Input), toolInputCut)))
			case provider.BlockToolResult:
				label := "RESULT of " + orUnknown(names[b.ToolUseID])
				if b.IsError {
					label += " (error)"
				}
				entries = append(entries, label+": "+cut(b.Content, toolResultCut))
			}
		}
	}
	total := 0
	for _, e := range entries {
		total += len(e) + 2
	}
	if total <= budget || len(entries) == 0 {
		return strings.Join(entries, "\n\n")
	}
	first := cut(entries[0], min(firstMessageCut, budget/4))
	room := budget - len(first) - 80
	i := len(entries)
	for i > 1 && room-(len(entries[i-1])+2) >= 0 {
		i--
		room -= len(entries[i]) + 2
	}
	if i == len(entries) { // not even the last entry fits whole
		i--
		entries[i] = cut(entries[i], max(room, 200))
	}
	parts := []string{first}
	if i > 1 {
		parts = append(parts, fmt.Sprintf("[... %d earlier entries left out to fit the window ...]", i-1))
	}
	return strings.Join(append(parts, entries[i:]...), "\n\n")
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := n
	for k > 0 && s[k]&0xC0 == 0x80 {
		k--
	}
	return s[:k] + fmt.Sprintf(" [... %d bytes cut]", len(s)-k)
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func orUnknown(s string) string {
	if s == "" {
		return "a tool"
	}
	return s
}
