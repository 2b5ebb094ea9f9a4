package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// imageTurns are a Read of an image answered with its image block.
func imageTurns() []Message {
	return []Message{
		{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "What is in shot.png?"}}},
		{Role: RoleAssistant, Content: []Block{{Type: BlockToolUse, ID: "call_1", Name: "Read", Input: []byte(`{"file_path":"shot.png"}`)}}},
		{Role: RoleUser, Content: []Block{
			{Type: BlockToolResult, ToolUseID: "call_1", Content: "Image shot.png (1x1 png)."},
			{Type: BlockImage, MediaType: "image/png", Data: "iVBORw0KGgo="},
		}},
	}
}

// TestImageWireFormats: an image block goes out in each API's own shape,
// after the tool results: Anthropic's image source, OpenAI's image_url data
// URL in a user message after the tool message, Ollama's images field.
func TestImageWireFormats(t *testing.T) {
	ctx := context.Background()
	t.Run("anthropic", func(t *testing.T) {
		rec := loadRecording(t, "anthropic")
		srv := newReplayServer(t, rec.http(t, "text"))
		p, _ := newTestAnthropic(t, srv)
		if _, err := p.Send(ctx, &Request{MaxTokens: 100, Messages: imageTurns()}, nil); err != nil {
			t.Fatal(err)
		}
		msgs := wireMessages(t, srv.got()[0])
		last := msgs[len(msgs)-1]["content"]
		want := []any{
			map[string]any{"type": "tool_result", "tool_use_id": "call_1", "content": []any{map[string]any{"type": "text", "text": "Image shot.png (1x1 png)."}}},
			map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
		}
		if d := diffJSON(want, last); d != "" {
			t.Errorf("last message's content (-want +got):\n%s", d)
		}
		if !p.AcceptsImages() {
			t.Error("anthropic models take images")
		}
	})
	t.Run("openai", func(t *testing.T) {
		rec := loadRecording(t, "openai")
		srv := newReplayServer(t, rec.http(t, "text"))
		p, _ := newTestOpenAI(t, srv, "")
		if _, err := p.Send(ctx, &Request{MaxTokens: 100, Messages: imageTurns()}, nil); err != nil {
			t.Fatal(err)
		}
		msgs := wireMessages(t, srv.got()[0])
		want := []any{
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "Image shot.png (1x1 png)."},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw0KGgo="}}}},
		}
		if len(msgs) < 2 {
			t.Fatalf("messages = %v, want a tool message then a user message with the image", msgs)
		}
		if d := diffJSON(want, []any{msgs[len(msgs)-2], msgs[len(msgs)-1]}); d != "" {
			t.Errorf("last two messages (-want +got):\n%s", d)
		}
		if !p.AcceptsImages() {
			t.Error("gpt-4.1-mini takes images")
		}
	})
	t.Run("ollama", func(t *testing.T) {
		rec := loadRecording(t, "ollama")
		srv := newReplayServer(t, rec.http(t, "text", "DONE_REASON", "stop"))
		srv.route("/api/show", rec.http(t, "show"))
		p, _ := newTestOllama(t, srv, Options{})
		if _, err := p.Send(ctx, &Request{MaxTokens: 100, Messages: imageTurns()}, nil); err != nil {
			t.Fatal(err)
		}
		body := string(chatRequests(srv)[0].Body)
		if !strings.Contains(body, `"role":"tool"`) || !strings.Contains(body, `{"role":"user","content":"","images":["iVBORw0KGgo="]}`) {
			t.Errorf("request body: %s", body)
		}
		if p.AcceptsImages() {
			t.Errorf("%s is not a vision model", p.Name())
		}
		if !(&ollamaProvider{model: "llama3.2-vision:11b"}).AcceptsImages() {
			t.Error("llama3.2-vision takes images")
		}
	})
}

// wireMessages returns the messages of a request body.
func wireMessages(t *testing.T, r received) []map[string]any {
	t.Helper()
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body: %v\n%s", err, r.Body)
	}
	return body.Messages
}
