package provider

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
)

// TestModelUnreachable: a model endpoint that refuses connections gets a
// message saying how to start Ollama or choose another model.
func TestModelUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	p, err := New("ollama:qwen2.5-coder:7b", Options{BaseURL: "http://" + addr, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Send(context.Background(), &Request{Messages: []Message{{Role: RoleUser, Content: []Block{{Type: "text", Text: "hi"}}}}}, nil)
	if err == nil {
		t.Fatal("Send to a closed port succeeded")
	}
	msg := Unreachable("ollama:qwen2.5-coder:7b", err)
	for _, want := range []string{"ollama serve", "ollama pull qwen2.5-coder:7b", "--model"} {
		if !strings.Contains(msg, want) {
			t.Errorf("ModelUnreachable(%v) = %q, want it to mention %q", err, msg, want)
		}
	}
	if got := Unreachable("ollama:x", fmt.Errorf("some other failure")); got != "" {
		t.Errorf("ModelUnreachable(other error) = %q, want empty", got)
	}
}
