package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOperations(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string
	}{
		{"builtin call", "print(str(e)) shows only the last line", map[string]string{"__str__": "the task calls str()"}},
		{"two builtins", "hash(a) differs though len(a) == len(b)", map[string]string{
			"__hash__": "the task calls hash()",
			"__len__":  "the task calls len()",
			"__eq__":   "the task compares with ==",
		}},
		{"inequality", "a != b is True", map[string]string{"__ne__": "the task compares with !=", "__eq__": "the task compares with !="}},
		{"instantiation", "duplicates should be removed at Instantiation", map[string]string{
			"__init__": "the task is about instantiation",
			"__new__":  "the task is about instantiation",
		}},
		{"names that only contain a builtin", "print(x); isinstance(x, str); to_str(x); sprint(y)", map[string]string{}},
		{"no operation", "the docs are wrong", map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, operations(tt.in)); diff != "" {
				t.Errorf("operations(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
