package config

import (
	"fmt"
	"testing"
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
		if got := fmt.Sprint(SplitToolList(tt.in)); got != tt.want {
			t.Errorf("splitToolList(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
