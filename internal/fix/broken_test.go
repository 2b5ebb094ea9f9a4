package fix

import "testing"

func TestBrokenTestCommand(t *testing.T) {
	tests := []struct {
		name   string
		run    TestRun
		broken bool
	}{
		{"passing", TestRun{ExitCode: 0, Passed: true}, false},
		{"failing tests", TestRun{ExitCode: 1, Output: "FAILED test_calc.py::test_add"}, false},
		{"go test failure", TestRun{ExitCode: 1, Output: "--- FAIL: TestTotal"}, false},
		{"command not found", TestRun{ExitCode: 127, Output: "bash: pytets: command not found"}, true},
		{"not executable", TestRun{ExitCode: 126}, true},
		{"python without pytest", TestRun{ExitCode: 1, Output: "/usr/bin/python3: No module named pytest"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := brokenTestCommand(&tt.run) != ""; got != tt.broken {
				t.Errorf("brokenTestCommand(%+v) broken = %v, want %v", tt.run, got, tt.broken)
			}
		})
	}
}
