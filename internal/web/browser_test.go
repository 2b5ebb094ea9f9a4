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
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(bctx); err != nil { // starts the browser, without a timeout
		t.Fatalf("start chromium: %v", err)
	}
	ctx, cancel := context.WithTimeout(bctx, 90*time.Second)
	defer cancel()

	// Collect uncaught exceptions and console errors (CSP violations land there).
	var mu sync.Mutex
	var consoleErrors []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				mu.Lock()
				consoleErrors = append(consoleErrors, m.Text)
				mu.Unlock()
			}
		}
	}()

	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	shot := func(name string) {
		t.Helper()
		buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(arts, name)
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", p)
		if err := os.WriteFile("/tmp/grit-explore.png", buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	eval := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("evaluate %s: %v", js, err)
		}
		return s
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+quoteJS(sel)+`).length`))
		if err != nil {
			t.Fatalf("count %s: %v", sel, err)
		}
		return n
	}
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }

	// Load with the token; the page must drop it from the address bar.
	do(chromedp.Navigate(f.srv.URL()), chromedp.WaitVisible(css("#q")))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(loc, "token") {
		t.Errorf("address after load = %q, want the token stripped", loc)
	}
	waitText(t, ctx, "#repo-stats", "4 files")

	// "/" focuses the search; type a task and press Enter.
	do(
		chromedp.Click(css("body")),
		chromedp.KeyEvent("/"),
	)
	if id := eval(`document.activeElement.id`); id != "q" {
		t.Errorf("after '/' the focus is on %q, want the search box", id)
	}
	eval(`document.getElementById('q').value = '', ''`) // CDP's char event types the '/' that a browser's keydown handler suppresses
	do(
		chromedp.KeyEvent("get_adapter raises InvalidSchema when no adapter prefix matches the url"),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(css("#hit-0")),
		chromedp.WaitVisible(css(".sym")),
	)
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
	waitText(t, ctx, "#sel-title", "Session.get_adapter")
	waitText(t, ctx, "#symbols", "class TooManyRedirects(Exception)")
	if s := text("#symbols"); !strings.Contains(s, "def resolve_redirects(self, resp, req)") {
		t.Errorf("symbols tab = %q, want every definition of sessions.py with its signature", s)
	}
	if s := text("#sym-head"); !strings.Contains(s, "bytes [") {
		t.Errorf("symbol head = %q, want the byte range", s)
	}
	shot("explore-search.png")

	// Arrow keys move, Enter selects.
	do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(css("#hit-1.selected")))
	second := text("#hit-1 .r-name")
	if s := text("#sel-title"); !strings.Contains(second, s) {
		t.Errorf("after ArrowDown+Enter selected = %q, want the second result %q", s, second)
	}
	do(chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(css("#hit-0.selected")))
	waitText(t, ctx, "#sel-title", "Session.get_adapter")

	// AST: node types with byte ranges; selecting a node marks its source.
	do(chromedp.Click(css("#tab-ast")), chromedp.WaitVisible(css(".node-row")))
	waitText(t, ctx, "#ast-tree", "for_statement")
	if s := text("#ast-tree"); !strings.Contains(s, "function_definition") {
		t.Errorf("AST tab = %.200q, want function_definition", s)
	}
	eval(`Array.from(document.querySelectorAll('.node-row')).find(r => r.textContent.includes('for_statement')).click(), ''`)
	do(chromedp.WaitVisible(css("#ast-code .hl-mark")))
	marked := eval(`Array.from(document.querySelectorAll('#ast-code .hl-mark')).map(e => e.textContent).join('')`)
	if !strings.HasPrefix(marked, "for prefix, adapter in self.adapters.items():") {
		t.Errorf("marked source = %.80q, want the for statement", marked)
	}
	shot("explore-ast.png")

	// Edges: callers and callees with weights, and navigation.
	do(chromedp.Click(css("#tab-edges")), chromedp.WaitVisible(css(".edge-section")))
	waitText(t, ctx, "#edges", "Callers of get_adapter")
	if s := text("#edges"); !strings.Contains(s, "Session.send") || !strings.Contains(s, "requests/adapters.py") {
		t.Errorf("edges tab = %.300q, want Session.send as a caller and the adapters import", s)
	}
	shot("explore-edges.png")
	eval(`Array.from(document.querySelectorAll('.edge.nav')).find(r => r.textContent.includes('Session.send')).click(), ''`)
	waitText(t, ctx, "#sel-title", "Session.send")

	// Model: back to get_adapter, ask, stream, diff; nothing written until Apply.
	orig, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py"))
	do(chromedp.Click(css("#hit-0")), chromedp.Click(css("#tab-model")), chromedp.WaitVisible(css("#task")))
	waitText(t, ctx, "#sel-title", "Session.get_adapter")
	if s := text("#model-spec"); !strings.HasPrefix(s, "scripted:") {
		t.Errorf("model spec = %q, want the configured scripted model", s)
	}
	do(chromedp.Click(css("#ask-btn")), chromedp.WaitVisible(css(".diff-line.add")))
	if s := text("#verdict"); !strings.Contains(s, "passes") {
		t.Errorf("verdict = %q, want it to pass the monitor", s)
	}
	if s := text("#reply"); !strings.Contains(s, "best = None") {
		t.Errorf("streamed reply = %.100q, want the model's text", s)
	}
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Fatalf("the file changed before Apply")
	}
	shot("explore-model.png")
	do(chromedp.Click(css("#apply-btn")), chromedp.WaitVisible(css(".note.ok")))
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); !strings.Contains(string(now), "best = None") {
		t.Errorf("Apply did not write the replacement")
	}
	do(chromedp.Click(css("#undo-btn")))
	waitText(t, ctx, "#model-note", "Restored requests/sessions.py")
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Errorf("Undo did not restore the file")
	}

	// Dark theme and a narrow window still render.
	do(chromedp.Click(css("#tab-symbols")), chromedp.Click(css("#theme-btn")), chromedp.EmulateViewport(420, 900))
	shot("explore-narrow-dark.png")
	// Nothing overflows sideways at phone width: no element reaches past
	// the window or is cut by a box that hides overflow (boxes that scroll,
	// like code, may hold wider content).
	wide := `(() => { const w = document.documentElement.clientWidth; const out = [];
	  for (const el of document.querySelectorAll('body *')) {
	    const r = el.getBoundingClientRect(); if (r.width === 0 || r.height === 0) continue;
	    let limit = w, scrolls = false;
	    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
	      const ox = getComputedStyle(p).overflowX;
	      if (ox === 'auto' || ox === 'scroll') { scrolls = true; break; }
	      if (ox === 'hidden' || ox === 'clip') limit = Math.min(limit, p.getBoundingClientRect().right);
	    }
	    if (!scrolls && r.right > limit + 1) out.push((el.id || el.className || el.tagName) + ':' + Math.round(r.right) + '>' + Math.round(limit));
	    const ox = getComputedStyle(el).overflowX;
	    if ((ox === 'auto' || ox === 'scroll') && !el.matches('.code, pre, textarea, .stream') && el.scrollWidth > el.clientWidth + 1)
	      out.push((el.id || el.className || el.tagName) + ' scrolls sideways: ' + el.scrollWidth + '>' + el.clientWidth);
	  }
	  return out.slice(0, 6).join(' '); })()`
	if s := eval(wide); s != "" {
		t.Errorf("at 420 px these reach past the window: %s", s)
	}
	do(chromedp.EmulateViewport(1440, 900))
	shot("explore-dark.png")
	do(chromedp.Click(css("#theme-btn")), chromedp.Click(css("#tab-ast")))
	shot("explore-light.png")

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
		var err error
		if s, err = chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel))); err != nil {
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
