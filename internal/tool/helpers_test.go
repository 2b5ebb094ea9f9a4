package tool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/span"
)

// testEnv makes a workspace in a temp dir, with files from a name → content
// map, and an outside directory next to it holding a sentinel file.
func testEnv(t *testing.T, files map[string]string) (env *Env, outside string) {
	t.Helper()
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside bytes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, err := NewEnv(ws, sandbox.NewPlain())
	if err != nil {
		t.Fatal(err)
	}
	return env, outside
}

// call runs a tool with input given as a Go value.
func call(t *testing.T, tl Tool, env *Env, input any) Result {
	t.Helper()
	b, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), env, b)
	if err != nil {
		t.Fatalf("%s(%s): Go error %v (want a result)", tl.Name(), b, err)
	}
	return res
}

// runErr runs a tool's internal run, returning the error unconverted so
// tests can check the sentinel.
func runErr(t *testing.T, run func(context.Context, *Env, json.RawMessage) (Result, error), env *Env, input any) (Result, error) {
	t.Helper()
	b, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	return run(context.Background(), env, b)
}

// treeHash hashes every file name, mode and content under dir, without
// following symlinks: the sentinel that proves nothing outside changed.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	var names []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	for _, p := range names {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		h.Write([]byte(p + "\x00" + fi.Mode().String() + "\x00"))
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func readWS(t *testing.T, env *Env, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.Root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fakeInfo is a FileInfo for stateOf when only the content matters.
type fakeInfo struct{ fs.FileInfo }

func (fakeInfo) ModTime() time.Time { return time.Time{} }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func spanRange(s, e int) span.Range { return span.Range{Start: s, End: e} }
