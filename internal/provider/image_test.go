package provider

import (
	"context"
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
		body := string(srv.got()[0].Body)
		if !strings.Contains(body, `{"tool_use_id":"call_1"`) || !strings.Contains(body, `{"source":{"data":"iVBORw0KGgo=","media_type":"image/png","type":"base64"},"type":"image"}`) ||
			strings.Index(body, `"tool_result"`) > strings.Index(body, `"image"`) {
			t.Errorf("request body: %s", body)
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
		body := string(srv.got()[0].Body)
		tool := strings.Index(body, `"role":"tool"`)
		img := strings.Index(body, `{"image_url":{"url":"data:image/png;base64,iVBORw0KGgo="},"type":"image_url"}`)
		if tool < 0 || img < tool || !strings.Contains(body[tool:], `"role":"user"`) {
			t.Errorf("request body: %s", body)
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
