package locate

import "testing"

func TestRequestN(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    int
		want int
	}{
		{"unset", 0, DefaultK},
		{"negative", -3, DefaultK},
		{"within", 7, 7},
		{"at cap", MaxK, MaxK},
		{"over cap", MaxK + 1, MaxK},
	} {
		if got := (Request{K: tc.k}).N(); got != tc.want {
			t.Errorf("%s: Request{K: %d}.N() = %d, want %d", tc.name, tc.k, got, tc.want)
		}
	}
}

func TestRequestEmpty(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Request
		want bool
	}{
		{"nothing", Request{}, true},
		{"blanks", Request{Task: " \n\t", Traceback: "  "}, true},
		{"task", Request{Task: "parse_url fails"}, false},
		{"traceback only", Request{Traceback: "File \"a.py\", line 3"}, false},
	} {
		if got := tc.r.Empty(); got != tc.want {
			t.Errorf("%s: Empty() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
