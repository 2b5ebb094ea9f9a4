package search

import "testing"

func TestTogether(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		terms []string
		want  bool
	}{
		{"adjacent prose", "the exit code is wrong", []string{"exit", "code"}, true},
		{"one identifier", "calls private_dir twice", []string{"private", "dir"}, true},
		{"within the window", "exit status and return code", []string{"exit", "code"}, true},
		{"scattered", "pluggy was installed. " + "words words words words words words words " + "then a dir", []string{"pluggy", "dir"}, false},
		{"three words", "the pretty printer output", []string{"pretty", "printer", "output"}, true},
		{"a term missing", "exit only", []string{"exit", "code"}, false},
	}
	for _, tt := range tests {
		pos := map[string][]int{}
		for p, tok := range Tokenize(tt.text) {
			pos[stem(tok)] = append(pos[stem(tok)], p)
		}
		if got := together(pos, tt.terms); got != tt.want {
			t.Errorf("%s: together(%q, %q) = %v, want %v", tt.name, tt.text, tt.terms, got, tt.want)
		}
	}
}
