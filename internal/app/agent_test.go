package app

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/provider"
)

func TestSplitToolList(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"Bash(git log:*),Read"}, "[Bash(git log:*) Read]"},
		{[]string{"Bash(git diff:*) Edit", "Write"}, "[Bash(git diff:*) Edit Write]"},
		{[]string{" Read , ,Grep "}, "[Read Grep]"},
		{[]string{"Bash(npm run test:*, x)"}, "[Bash(npm run test:*, x)]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(splitToolList(tt.in)); got != tt.want {
			t.Errorf("splitToolList(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestModelUnreachable: a model endpoint that refuses connections gets a
// message saying how to start Ollama or choose another model.
func TestModelUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	p, err := provider.New("ollama:qwen2.5-coder:7b", provider.Options{BaseURL: "http://" + addr, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Send(context.Background(), &provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: "text", Text: "hi"}}}}}, nil)
	if err == nil {
		t.Fatal("Send to a closed port succeeded")
	}
	msg := ModelUnreachable("ollama:qwen2.5-coder:7b", err)
	for _, want := range []string{"ollama serve", "ollama pull qwen2.5-coder:7b", "--model"} {
		if !strings.Contains(msg, want) {
			t.Errorf("ModelUnreachable(%v) = %q, want it to mention %q", err, msg, want)
		}
	}
	if got := ModelUnreachable("ollama:x", fmt.Errorf("some other failure")); got != "" {
		t.Errorf("ModelUnreachable(other error) = %q, want empty", got)
	}
}
