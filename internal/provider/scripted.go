package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
)

// Scripted replays model turns from a JSON file, for tests and demos:
//
//	{"turns": [{"content": [{"type": "text", "text": "..."},
//	                        {"type": "tool_use", "id": "t1", "name": "Read", "input": {...}}],
//	            "stop_reason": "tool_use",
//	            "usage": {"input_tokens": 10, "output_tokens": 5}}]}
//
// Content blocks have the Anthropic Messages shape. Each Send takes the next
// turn and streams its text as deltas, like a real provider; running out of
// turns is an error. A turn with "hang": true streams its content and then
// waits for the context to end, returning the partial reply with ctx.Err():
// interruption and crash tests use it to stop a run at a known point.
// Scripted records every Request it receives (see Requests). It is safe for
// concurrent use.
type Scripted struct {
	path   string
	turns  []ScriptedTurn
	vision bool

	mu       sync.Mutex
	next     int       // index of the next turn to play
	requests []Request // deep copies, in arrival order
}

// ScriptedTurn is one recorded model reply.
type ScriptedTurn struct {
	Model      string     `json:"model,omitempty"`
	Content    []Block    `json:"content"`
	StopReason StopReason `json:"stop_reason"`
	Usage      *Usage     `json:"usage,omitempty"`
	// Hang makes Send wait for cancellation after streaming the content.
	Hang bool `json:"hang,omitempty"`
}

type scriptFile struct {
	Turns []ScriptedTurn `json:"turns"`
	// Vision makes the scripted model one that accepts images.
	Vision bool `json:"vision,omitempty"`
}

// AcceptsImages is the script's "vision" field.
func (s *Scripted) AcceptsImages() bool { return s.vision }

// NewScripted loads a script file; see Scripted for its format.
func NewScripted(path string) (Provider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scripted provider: %w", err)
	}
	return ParseScripted(path, data)
}

// ParseScripted builds a Scripted provider from the script's bytes; name is
// used in Name and in errors.
func ParseScripted(name string, data []byte) (*Scripted, error) {
	var f scriptFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("scripted provider: parse %s: %w (expected {\"turns\": [{\"content\": [...], \"stop_reason\": \"...\"}]})", name, err)
	}
	for i, t := range f.Turns {
		if t.StopReason == "" {
			return nil, fmt.Errorf("scripted provider: %s: turn %d has no stop_reason (expected end_turn, tool_use, max_tokens, refusal, ...)", name, i+1)
		}
		for j, b := range t.Content {
			switch b.Type {
			case BlockText:
			case BlockToolUse:
				if b.ID == "" || b.Name == "" {
					return nil, fmt.Errorf("scripted provider: %s: turn %d block %d: tool_use needs id and name", name, i+1, j+1)
				}
				if len(b.Input) == 0 {
					f.Turns[i].Content[j].Input = json.RawMessage(`{}`)
				}
			default:
				return nil, fmt.Errorf("scripted provider: %s: turn %d block %d: unknown block type %q (expected text, tool_use)", name, i+1, j+1, b.Type)
			}
		}
	}
	return &Scripted{path: name, turns: f.Turns, vision: f.Vision}, nil
}

// Name is "scripted:PATH".
func (s *Scripted) Name() string { return "scripted:" + s.path }

// Requests returns copies of every request received so far, in order.
func (s *Scripted) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = copyRequest(r)
	}
	return out
}

// Used reports how many turns have been played.
func (s *Scripted) Used() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// Send plays the next turn.
func (s *Scripted) Send(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	s.mu.Lock()
	s.requests = append(s.requests, copyRequest(*req))
	if s.next >= len(s.turns) {
		n := s.next
		s.mu.Unlock()
		return nil, fmt.Errorf("scripted provider: no turn left (%d used)", n)
	}
	turn := s.turns[s.next]
	s.next++
	s.mu.Unlock()

	if err := ctx.Err(); err != nil {
		return &Response{Model: turn.Model, StopReason: turn.StopReason}, err
	}
	resp := &Response{Model: turn.Model, StopReason: turn.StopReason}
	if resp.Model == "" {
		resp.Model = req.Model
	}
	if turn.Usage != nil {
		resp.Usage = *turn.Usage
	}
	emit := func(e Event) {
		if onEvent != nil {
			onEvent(e)
		}
	}
	for _, b := range turn.Content {
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		switch b.Type {
		case BlockText:
			// Stream word by word, as a real provider delivers deltas.
			var sofar strings.Builder
			for _, chunk := range splitDeltas(b.Text) {
				if err := ctx.Err(); err != nil {
					resp.Content = append(resp.Content, Block{Type: BlockText, Text: sofar.String()})
					return resp, err
				}
				sofar.WriteString(chunk)
				emit(Event{Type: "text_delta", Text: chunk})
			}
			resp.Content = append(resp.Content, b)
		case BlockToolUse:
			emit(Event{Type: "tool_use_start", Name: b.Name})
			b.Input = append(json.RawMessage(nil), b.Input...)
			resp.Content = append(resp.Content, b)
		}
	}
	if turn.Hang {
		<-ctx.Done()
		return resp, ctx.Err()
	}
	emit(Event{Type: "message_stop"})
	return resp, nil
}

// splitDeltas cuts text after each space, keeping every byte.
func splitDeltas(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

func copyRequest(r Request) Request {
	c := r
	c.Messages = make([]Message, len(r.Messages))
	for i, m := range r.Messages {
		c.Messages[i] = Message{Role: m.Role, Content: append([]Block(nil), m.Content...)}
	}
	c.Tools = append([]ToolSpec(nil), r.Tools...)
	if r.Temperature != nil {
		t := *r.Temperature
		c.Temperature = &t
	}
	return c
}
