package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const chromiumPath = "/usr/bin/chromium"

// artifactDir is $GRIT_ARTIFACTS, else a temporary directory (logged).
func artifactDir(t *testing.T) string {
	if d := os.Getenv("GRIT_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := t.TempDir()
	t.Logf("screenshots in %s (set GRIT_ARTIFACTS to keep them)", d)
	return d
}

// TestBrowser drives Debian's chromium through the page: load it with the
// printed URL, search with the keyboard, select results, and check every tab.
func TestBrowser(t *testing.T) {
	bin := chromiumPath
	if _, err := os.Stat(bin); err != nil {
		if bin, err = exec.LookPath("chromium"); err != nil {
			t.Skip("SKIPPING THE BROWSER TEST: chromium is not installed (apt-get install chromium)")
		}
	}
	script, err := filepath.Abs("testdata/model-reply.json")
	if err != nil {
		t.Fatal(err)
	}
	f := startFixture(t, "scripted:"+script)
	arts := artifactDir(t)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 900),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	var mu sync.Mutex
	var consoleErrors []string
	listenErr := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			consoleErrors = append(consoleErrors, e.ExceptionDetails.Text+" "+exceptionDesc(e.ExceptionDetails))
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.LevelError {
				consoleErrors = append(consoleErrors, e.Entry.Text)
			}
		}
	})
	if listenErr != nil {
		t.Fatal(listenErr)
	}
	shot := func(name string) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			var buf []byte
			if err := chromedp.FullScreenshot(&buf, 95).Do(ctx); err != nil {
				return err
			}
			p := filepath.Join(arts, name)
			if err := os.WriteFile(p, buf, 0o644); err != nil {
				return err
			}
			t.Logf("screenshot %s", p)
			return os.WriteFile("/tmp/grit-explore.png", buf, 0o644)
		})
	}
	text := func(sel string) string {
		t.Helper()
		var s string
		if err := chromedp.Run(ctx, chromedp.Text(sel, &s, chromedp.ByQuery)); err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	count := func(sel string) int {
		t.Helper()
		var n int
		if err := chromedp.Run(ctx, chromedp.Evaluate(`document.querySelectorAll(`+quoteJS(sel)+`).length`, &n)); err != nil {
			t.Fatalf("count %s: %v", sel, err)
		}
		return n
	}

	// Load with the token; the page must drop it from the address bar.
	var loc string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(f.srv.URL()),
		chromedp.WaitVisible("#q", chromedp.ByID),
		chromedp.Location(&loc),
	); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(loc, "token") {
		t.Errorf("address after load = %q, want the token stripped", loc)
	}
	if err := chromedp.Run(ctx, chromedp.WaitVisible(`#repo-stats`, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if s := text("#repo-stats"); !strings.Contains(s, "4 files") {
		t.Errorf("repo stats = %q, want 4 files", s)
	}

	// "/" focuses the search; type a task and press Enter.
	if err := chromedp.Run(ctx,
		chromedp.Click("body", chromedp.ByQuery),
		chromedp.KeyEvent("/"),
		chromedp.KeyEvent("get_adapter raises InvalidSchema when no adapter prefix matches the url"),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible("#hit-0", chromedp.ByID),
		chromedp.WaitVisible(".sym", chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if s := text("#hit-0 .r-name"); !strings.Contains(s, "Session.get_adapter") {
		t.Errorf("first result = %q, want Session.get_adapter", s)
	}
	if n := count("#hit-0 .sig-bar"); n == 0 {
		t.Errorf("first result has no signal bars")
	}
	if s := text("#hit-0 .src"); !strings.Contains(s, "def get_adapter(self, url):") {
		t.Errorf("first result's inline body = %q, want the function's source", s)
	}
	if n := count("#hit-0 .src .tok-kw"); n == 0 {
		t.Errorf("first result's body is not highlighted (no keyword spans)")
	}
	if s := text("#sel-title"); s != "Session.get_adapter" {
		t.Errorf("selected = %q, want Session.get_adapter", s)
	}
	if s := text("#symbols"); !strings.Contains(s, "def resolve_redirects(self, resp, req)") || !strings.Contains(s, "class TooManyRedirects(Exception)") {
		t.Errorf("symbols tab = %q, want every definition of sessions.py with its signature", s)
	}
	if s := text("#sym-head"); !strings.Contains(s, "bytes [") {
		t.Errorf("symbol head = %q, want the byte range", s)
	}
	if err := chromedp.Run(ctx, shot("explore-search.png")); err != nil {
		t.Fatal(err)
	}

	// Arrow keys move, Enter selects.
	if err := chromedp.Run(ctx,
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible("#hit-1.selected", chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	second := text("#hit-1 .r-name")
	if s := text("#sel-title"); !strings.Contains(second, s) {
		t.Errorf("after ArrowDown+Enter selected = %q, want the second result %q", s, second)
	}
	// Back to the first.
	if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible("#hit-0.selected", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}

	// AST: node types with byte ranges; selecting a node marks its source.
	if err := chromedp.Run(ctx,
		chromedp.Click("#tab-ast", chromedp.ByID),
		chromedp.WaitVisible(".node-row", chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if s := text("#ast-tree"); !strings.Contains(s, "function_definition") || !strings.Contains(s, "for_statement") {
		t.Errorf("AST tab = %.200q, want function_definition and for_statement", s)
	}
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('.node-row')).find(r => r.textContent.includes('for_statement')).click()`, nil),
		chromedp.WaitVisible("#ast-code .hl-mark", chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	var marked string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#ast-code .hl-mark')).map(e => e.textContent).join('')`, &marked)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(marked, "for prefix, adapter in self.adapters.items():") {
		t.Errorf("marked source = %.80q, want the for statement", marked)
	}
	if err := chromedp.Run(ctx, shot("explore-ast.png")); err != nil {
		t.Fatal(err)
	}

	// Edges: callers and callees with weights, and navigation.
	if err := chromedp.Run(ctx,
		chromedp.Click("#tab-edges", chromedp.ByID),
		chromedp.WaitVisible(".edge-section", chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if s := text("#edges"); !strings.Contains(s, "Callers of get_adapter") || !strings.Contains(s, "Session.send") || !strings.Contains(s, "requests/adapters.py") {
		t.Errorf("edges tab = %.300q, want Session.send as a caller and the adapters import", s)
	}
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('.edge.nav')).find(r => r.textContent.includes('Session.send')).click()`, nil),
	); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#sel-title", "Session.send")
	if err := chromedp.Run(ctx, shot("explore-edges.png")); err != nil {
		t.Fatal(err)
	}

	// Model: back to get_adapter, ask, stream, diff; nothing written until Apply.
	orig, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py"))
	if err := chromedp.Run(ctx,
		chromedp.Click("#hit-0", chromedp.ByID),
		chromedp.Click("#tab-model", chromedp.ByID),
		chromedp.WaitVisible("#task", chromedp.ByID),
	); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#sel-title", "Session.get_adapter")
	if s := text("#model-spec"); !strings.HasPrefix(s, "scripted:") {
		t.Errorf("model spec = %q, want the configured scripted model", s)
	}
	if err := chromedp.Run(ctx,
		chromedp.Click("#ask-btn", chromedp.ByID),
		chromedp.WaitVisible(".diff-line.add", chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if s := text("#verdict"); !strings.Contains(s, "passes") {
		t.Errorf("verdict = %q, want it to pass the monitor", s)
	}
	if s := text("#reply"); !strings.Contains(s, "best = None") {
		t.Errorf("streamed reply = %.100q, want the model's text", s)
	}
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Fatalf("the file changed before Apply")
	}
	if err := chromedp.Run(ctx, shot("explore-model.png")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#apply-btn", chromedp.ByID), chromedp.WaitVisible(".note.ok", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); !strings.Contains(string(now), "best = None") {
		t.Errorf("Apply did not write the replacement")
	}
	if err := chromedp.Run(ctx, chromedp.Click("#undo-btn", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#model-note", "Restored requests/sessions.py")
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Errorf("Undo did not restore the file")
	}

	// Dark theme and a narrow window still render.
	if err := chromedp.Run(ctx,
		chromedp.Click("#tab-symbols", chromedp.ByID),
		chromedp.Click("#theme-btn", chromedp.ByID),
		chromedp.EmulateViewport(420, 900),
		shot("explore-narrow-dark.png"),
		chromedp.EmulateViewport(1440, 900),
		shot("explore-dark.png"),
		chromedp.Click("#theme-btn", chromedp.ByID),
		chromedp.Click("#tab-ast", chromedp.ByID),
		shot("explore-light.png"),
	); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(consoleErrors) > 0 {
		t.Errorf("console errors: %v", consoleErrors)
	}
}

// waitText polls until sel's text contains want (the page updates
// asynchronously); the test's context bounds the wait.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	var s string
	for {
		if err := chromedp.Run(ctx, chromedp.Text(sel, &s, chromedp.ByQuery)); err != nil {
			t.Fatalf("waiting for %q in %s: %v (last %q)", want, sel, err, s)
		}
		if strings.Contains(s, want) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %q in %s: %v (last %q)", want, sel, ctx.Err(), s)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func quoteJS(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

func exceptionDesc(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}
