package tool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestRead(t *testing.T) {
	long := strings.Repeat("x", readLineCut+50)
	env, _ := testEnv(t, map[string]string{
		"a.txt":     "one\ntwo\nthree\n",
		"noeol.txt": "one\ntwo",
		"crlf.txt":  "one\r\ntwo\r\n",
		"empty.txt": "",
		"long.txt":  "short\n" + long + "\n",
		"bin.dat":   "ELF\x00\x01\x02",
		"utf16.txt": "\xff\xfeh\x00i\x00",
		"dir/x.txt": "x",
	})
	tests := []struct {
		name    string
		in      map[string]any
		want    string
		wantErr string
	}{
		{"numbered", map[string]any{"file_path": "a.txt"}, "     1\tone\n     2\ttwo\n     3\tthree\n", ""},
		{"absolute path", map[string]any{"file_path": env.Root + "/a.txt"}, "     1\tone\n     2\ttwo\n     3\tthree\n", ""},
		{"no final newline", map[string]any{"file_path": "noeol.txt"}, "     1\tone\n     2\ttwo\n", ""},
		{"crlf shown without cr", map[string]any{"file_path": "crlf.txt"}, "     1\tone\n     2\ttwo\n", ""},
		{"offset and limit", map[string]any{"file_path": "a.txt", "offset": 2, "limit": 1}, "     2\ttwo\n[limit reached: lines 2-2 of 3 shown; continue with offset=3]\n", ""},
		{"offset past end", map[string]any{"file_path": "a.txt", "offset": 9}, "(a.txt has 3 lines; offset 9 is past the end)", ""},
		{"empty", map[string]any{"file_path": "empty.txt"}, "(empty.txt is empty)", ""},
		{"long line cut", map[string]any{"file_path": "long.txt", "offset": 2}, fmt.Sprintf("     2\t%s [… line cut at %d characters; %d bytes in all]\n", long[:readLineCut], readLineCut, len(long)), ""},
		{"binary", map[string]any{"file_path": "bin.dat"}, "", "binary file"},
		{"utf16", map[string]any{"file_path": "utf16.txt"}, "", "UTF-16"},
		{"directory", map[string]any{"file_path": "dir"}, "", "is a directory"},
		{"missing", map[string]any{"file_path": "nope.txt"}, "", "does not exist"},
		{"outside", map[string]any{"file_path": "../outside/secret.txt"}, "", "outside the workspace"},
		{"no path", map[string]any{}, "", "needs file_path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, Read{}, env, tt.in)
			if tt.wantErr != "" {
				if !res.IsError || !strings.Contains(res.Content, tt.wantErr) {
					t.Errorf("Read(%v) = %+v, want an error containing %q", tt.in, res, tt.wantErr)
				}
				return
			}
			if res.IsError || res.Content != tt.want {
				t.Errorf("Read(%v) = %q (error %v), want %q", tt.in, res.Content, res.IsError, tt.want)
			}
		})
	}
	if _, ok := env.ReadState("a.txt"); !ok {
		t.Error("Read did not record the file's state")
	}
	if _, ok := env.ReadState("bin.dat"); ok {
		t.Error("a refused Read recorded the file's state")
	}
}

// B10: a huge single-line file and a long file come back bounded.
func TestReadBounded(t *testing.T) {
	big := `{"k":"` + strings.Repeat("v", 100<<10) + `"}`
	var many strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&many, "line %d %s\n", i, strings.Repeat("y", 60))
	}
	env, _ := testEnv(t, map[string]string{"min.json": big, "many.txt": many.String(), "cjk.txt": strings.Repeat(strings.Repeat("日本語", 100)+"\n", 500)})
	for _, p := range []string{"min.json", "many.txt", "cjk.txt"} {
		res := call(t, Read{}, env, map[string]any{"file_path": p})
		if res.IsError {
			t.Fatalf("Read(%s) = %+v", p, res)
		}
		if len(res.Content) > readMaxBytes+200 || estimateTokens(res.Content) > readMaxTokens+100 {
			t.Errorf("Read(%s): %d bytes, ~%d tokens; want at most %d bytes, %d tokens", p, len(res.Content), estimateTokens(res.Content), readMaxBytes, readMaxTokens)
		}
		if p != "min.json" && !strings.Contains(res.Content, "continue with offset=") {
			t.Errorf("Read(%s) does not say how to read on:\n...%s", p, res.Content[max(0, len(res.Content)-200):])
		}
	}
}

func TestEdit(t *testing.T) {
	tests := []struct {
		name    string
		content string
		in      map[string]any
		want    string // file after; "" with wantErr means unchanged
		wantErr error
	}{
		{"once", "a = 1\nb = 2\n", map[string]any{"old_string": "b = 2", "new_string": "b = 3"}, "a = 1\nb = 3\n", nil},
		{"not found", "a = 1\n", map[string]any{"old_string": "c = 1", "new_string": "c = 2"}, "", errMatch},
		{"twice", "x\nx\n", map[string]any{"old_string": "x", "new_string": "y"}, "", errMatch},
		{"replace all", "x\nx\n", map[string]any{"old_string": "x", "new_string": "y", "replace_all": true}, "y\ny\n", nil},
		{"crlf", "a\r\nb\r\nc\r\n", map[string]any{"old_string": "a\nb", "new_string": "A\nB\nB2"}, "A\r\nB\r\nB2\r\nc\r\n", nil},
		{"mixed eol pi#8544", "a\r\nb\nc", map[string]any{"old_string": "c", "new_string": "C"}, "a\r\nb\nC", nil},
		{"latin1 elsewhere", "caf\xe9\nx = 1\n", map[string]any{"old_string": "x = 1", "new_string": "x = 2"}, "caf\xe9\nx = 2\n", nil},
		{"latin1 line through fffd", "s = 'caf\xe9'\n", map[string]any{"old_string": "s = 'caf\uFFFD'", "new_string": "t = 'caf\uFFFD'"}, "t = 'caf\xe9'\n", nil},
		{"fffd refused", "abc\n", map[string]any{"old_string": "b", "new_string": "\uFFFD"}, "", errAny},
		{"bom kept", "\xef\xbb\xbfhello\n", map[string]any{"old_string": "hello", "new_string": "bye"}, "\xef\xbb\xbfbye\n", nil},
		{"binary refused", "a\x00b", map[string]any{"old_string": "a", "new_string": "c"}, "", errAny},
		{"utf16 refused", "\xff\xfea\x00", map[string]any{"old_string": "a", "new_string": "c"}, "", errAny},
		{"same strings", "a\n", map[string]any{"old_string": "a", "new_string": "a"}, "", errAny},
		{"empty old on existing", "a\n", map[string]any{"old_string": "", "new_string": "b"}, "", errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _ := testEnv(t, map[string]string{"f.txt": tt.content})
			os.Chmod(filepath.Join(env.Root, "f.txt"), 0o640)
			// Read bypassing the tool's text checks, as if the model had seen it.
			b, _ := os.ReadFile(filepath.Join(env.Root, "f.txt"))
			env.MarkRead("f.txt", stateOf(b, fakeInfo{}))
			tt.in["file_path"] = "f.txt"
			res, err := runErr(t, Edit{}.run, env, tt.in)
			got := readWS(t, env, "f.txt")
			if tt.wantErr != nil {
				if err == nil || tt.wantErr == errMatch && !strings.Contains(err.Error(), "old_string") {
					t.Errorf("Edit(%q, %v) = %+v, %v; want an error", tt.content, tt.in, res, err)
				}
				if got != tt.content {
					t.Errorf("file after a refused Edit = %q, want it unchanged %q", got, tt.content)
				}
				return
			}
			if err != nil {
				t.Fatalf("Edit(%q, %v) error: %v", tt.content, tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Edit(%q, %v): file = %q, want %q", tt.content, tt.in, got, tt.want)
			}
			if fi, _ := os.Stat(filepath.Join(env.Root, "f.txt")); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode after Edit = %v, want 0640", fi.Mode().Perm())
			}
			if len(res.Changed) != 1 || res.Changed[0] != "f.txt" {
				t.Errorf("Changed = %v, want [f.txt]", res.Changed)
			}
		})
	}
}

var (
	errMatch = errors.New("match error")
	errAny   = errors.New("any error")
)

func TestEditMessages(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"f.py": "x = 1\nx = 1\n"})
	call(t, Read{}, env, map[string]any{"file_path": "f.py"})
	res := call(t, Edit{}, env, map[string]any{"file_path": "f.py", "old_string": "x = 1", "new_string": "x = 2"})
	if !res.IsError || !strings.Contains(res.Content, "matches 2 places") || !strings.Contains(res.Content, "replace_all") {
		t.Errorf("ambiguous Edit = %+v, want advice naming 2 matches and replace_all", res)
	}
	res = call(t, Edit{}, env, map[string]any{"file_path": "f.py", "old_string": "y = 1", "new_string": "x = 2"})
	if !res.IsError || !strings.Contains(res.Content, "not found") {
		t.Errorf("missing Edit = %+v, want advice saying not found", res)
	}
	res = call(t, Edit{}, env, map[string]any{"file_path": "f.py", "old_string": "x = 1\nx = 1", "new_string": "x = 2"})
	if res.IsError || !strings.Contains(res.Content, "     1\tx = 2") {
		t.Errorf("Edit = %+v, want success with a numbered snippet", res)
	}
}

// B7: never read, or changed since read → refused, nothing written.
func TestEditStale(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"f.txt": "a\n"})
	if _, err := runErr(t, Edit{}.run, env, map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "b"}); !errors.Is(err, ErrNotRead) {
		t.Errorf("Edit before Read: err = %v, want ErrNotRead", err)
	}
	call(t, Read{}, env, map[string]any{"file_path": "f.txt"})
	os.WriteFile(filepath.Join(env.Root, "f.txt"), []byte("a\nmore\n"), 0o644)
	if _, err := runErr(t, Edit{}.run, env, map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "b"}); !errors.Is(err, ErrStale) {
		t.Errorf("Edit after an outside change: err = %v, want ErrStale", err)
	}
	if got := readWS(t, env, "f.txt"); got != "a\nmore\n" {
		t.Errorf("file = %q, want the outside change kept", got)
	}
	// Successive edits after one read are fine: the tool's own write is known.
	call(t, Read{}, env, map[string]any{"file_path": "f.txt"})
	for _, e := range [][2]string{{"a", "b"}, {"more", "less"}} {
		if res := call(t, Edit{}, env, map[string]any{"file_path": "f.txt", "old_string": e[0], "new_string": e[1]}); res.IsError {
			t.Fatalf("Edit %v = %+v", e, res)
		}
	}
	if got := readWS(t, env, "f.txt"); got != "b\nless\n" {
		t.Errorf("file = %q, want %q", got, "b\nless\n")
	}
}

// B8: two sessions edit the same file from the same read: exactly one wins,
// the other is told the file is stale, and no update is lost.
func TestEditConcurrentSessions(t *testing.T) {
	for round := 0; round < 20; round++ {
		env1, _ := testEnv(t, map[string]string{"f.txt": "alpha\nbeta\n"})
		env2, err := NewEnv(env1.Root, env1.Runner)
		if err != nil {
			t.Fatal(err)
		}
		call(t, Read{}, env1, map[string]any{"file_path": "f.txt"})
		call(t, Read{}, env2, map[string]any{"file_path": "f.txt"})
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, e := range []struct {
			env      *Env
			old, new string
		}{{env1, "alpha", "ALPHA"}, {env2, "beta", "BETA"}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = runErr(t, Edit{}.run, e.env, map[string]any{"file_path": "f.txt", "old_string": e.old, "new_string": e.new})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, ErrStale):
				t.Fatalf("loser's error = %v, want ErrStale", err)
			}
		}
		got := readWS(t, env1, "f.txt")
		if ok != 1 || (got != "ALPHA\nbeta\n" && got != "alpha\nBETA\n") {
			t.Fatalf("round %d: %d edits succeeded, file %q; want exactly one", round, ok, got)
		}
	}
}

func TestWrite(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"old.txt": "old\n"})
	res := call(t, Write{}, env, map[string]any{"file_path": "new/dir/f.txt", "content": "hi\n"})
	if res.IsError || readWS(t, env, "new/dir/f.txt") != "hi\n" {
		t.Fatalf("Write(new) = %+v", res)
	}
	if _, err := runErr(t, Write{}.run, env, map[string]any{"file_path": "old.txt", "content": "x"}); !errors.Is(err, ErrNotRead) {
		t.Errorf("Write over an unread file: err = %v, want ErrNotRead", err)
	}
	call(t, Read{}, env, map[string]any{"file_path": "old.txt"})
	if res := call(t, Write{}, env, map[string]any{"file_path": "old.txt", "content": "new\n"}); res.IsError || readWS(t, env, "old.txt") != "new\n" {
		t.Errorf("Write after Read = %+v, file %q", res, readWS(t, env, "old.txt"))
	}
	os.WriteFile(filepath.Join(env.Root, "old.txt"), []byte("changed\n"), 0o644)
	if _, err := runErr(t, Write{}.run, env, map[string]any{"file_path": "old.txt", "content": "x"}); !errors.Is(err, ErrStale) {
		t.Errorf("Write over a changed file: err = %v, want ErrStale", err)
	}
	// The file just written can be edited without a Read.
	if res := call(t, Edit{}, env, map[string]any{"file_path": "new/dir/f.txt", "old_string": "hi", "new_string": "ho"}); res.IsError {
		t.Errorf("Edit after Write = %+v", res)
	}
	if res := call(t, Write{}, env, map[string]any{"file_path": "new", "content": "x"}); !res.IsError {
		t.Errorf("Write over a directory = %+v, want an error", res)
	}
	if res := call(t, Write{}, env, map[string]any{"file_path": "x.txt"}); !res.IsError {
		t.Errorf("Write without content = %+v, want an error", res)
	}
	// No temp files left behind.
	entries, _ := os.ReadDir(env.Root)
	for _, e := range entries {
		if strings.Contains(e.Name(), "grit-tmp") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
}

func TestEditCreatesWithEmptyOld(t *testing.T) {
	env, _ := testEnv(t, nil)
	res := call(t, Edit{}, env, map[string]any{"file_path": "n.txt", "old_string": "", "new_string": "fresh\n"})
	if res.IsError || readWS(t, env, "n.txt") != "fresh\n" {
		t.Errorf("Edit create = %+v", res)
	}
}

func BenchmarkReadLarge(b *testing.B) {
	env, err := NewEnv(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(env.Root, "big.txt"), bytes.Repeat([]byte("some line of source code here\n"), 100000), 0o644)
	in := mustJSON(map[string]any{"file_path": "big.txt"})
	b.ReportAllocs()
	for b.Loop() {
		if res, err := (Read{}).Run(context.Background(), env, in); err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
