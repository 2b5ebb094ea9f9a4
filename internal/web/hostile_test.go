package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Issue 21 through the real explorer server.

// TestFileRefusesFIFO (finding 4): /api/file on a FIFO answers 400 at
// once instead of leaving a request (and a goroutine) stuck forever.
func TestFileRefusesFIFO(t *testing.T) {
	f := startFixture(t, "")
	if err := syscall.Mkfifo(filepath.Join(f.root, "pipe.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.client.Timeout = time.Minute // a hang shows as a failure, not a stuck test
	for _, ep := range []string{"/api/file?path=pipe.py", "/api/ast?path=pipe.py"} {
		resp, b := f.do("GET", ep, "", f.auth())
		if resp.StatusCode != 400 {
			t.Errorf("GET %s = %d %s, want 400", ep, resp.StatusCode, b)
		}
	}
}

// TestCloneRefusesPlainDirectory (finding 10): the page's clone endpoint
// given a plain directory other than the served one (such as /etc) does
// not index it in place: nothing is written there. The served repository
// itself may be reopened.
func TestCloneRefusesPlainDirectory(t *testing.T) {
	f := startFixture(t, "")
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "passwd.py"), []byte("x = 1\n"), 0o644)
	body, _ := json.Marshal(map[string]string{"source": other})
	resp, b := f.post("/api/clone", string(body))
	f.srv.X.Wait()
	if resp.StatusCode != 400 {
		t.Errorf("POST /api/clone %s = %d %s, want 400", other, resp.StatusCode, b)
	}
	if _, err := os.Stat(filepath.Join(other, ".grit")); err == nil {
		t.Errorf("%s/.grit was written", other)
	}
	body, _ = json.Marshal(map[string]string{"source": f.root})
	if resp, b := f.post("/api/clone", string(body)); resp.StatusCode != 202 {
		t.Errorf("POST /api/clone of the served repository = %d %s, want 202", resp.StatusCode, b)
	}
	f.srv.X.Wait()
}
