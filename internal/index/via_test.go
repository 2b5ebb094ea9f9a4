package index

import "testing"

func TestResolvedVia(t *testing.T) {
	imported := map[string]bool{"pkg/b.py": true}
	for _, tc := range []struct {
		name, callerPath, callerParent string
		callee                         Def
		want                           string
	}{
		{"sibling method", "pkg/a.py", "Session", Def{Path: "pkg/a.py", Parent: "Session"}, ViaClass},
		{"same file, other class", "pkg/a.py", "Session", Def{Path: "pkg/a.py", Parent: "Other"}, ViaFile},
		{"same file, module level", "pkg/a.py", "", Def{Path: "pkg/a.py"}, ViaFile},
		{"imported file", "pkg/a.py", "", Def{Path: "pkg/b.py"}, ViaImport},
		{"only definition", "pkg/a.py", "Session", Def{Path: "pkg/c.py", Parent: "Session"}, ViaName},
	} {
		if got := ResolvedVia(tc.callerPath, tc.callerParent, tc.callee, imported); got != tc.want {
			t.Errorf("%s: ResolvedVia(%q, %q, %s) = %q, want %q", tc.name, tc.callerPath, tc.callerParent, tc.callee.Path, got, tc.want)
		}
	}
}
