package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const chromiumPath = "/usr/bin/chromium"

// artifactDir is $GRIT_SCREENSHOT_DIR (or $GRIT_ARTIFACTS), else a
// temporary directory (logged).
func artifactDir(t *testing.T) string {
	d := os.Getenv("GRIT_SCREENSHOT_DIR")
	if d == "" {
		d = os.Getenv("GRIT_ARTIFACTS")
	}
	if d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d = t.TempDir()
	t.Logf("screenshots in %s (set GRIT_SCREENSHOT_DIR to keep them)", d)
	return d
}

// TestBrowser drives Debian's chromium through the page: open a deep link
// with the printed URL's token, follow a caller to its line, go Back, go to
// a file and a symbol with the finders, search with the keyboard, follow an
// identifier across every tab, ask the model, and look at it at 1400x900
// and 400x800 (screenshots in artifactDir).
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
		chromedp.WindowSize(1400, 900),
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

	key := func(k string) { do(chromedp.KeyEvent(k)) }
	location := func() string {
		t.Helper()
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimPrefix(loc, f.base)
	}
	waitLocation := func(want string) {
		t.Helper()
		for {
			if strings.HasPrefix(location(), want) {
				return
			}
			select {
			case <-ctx.Done():
				t.Fatalf("address = %q, want %q", location(), want)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	clickText := func(sel, want string) {
		t.Helper()
		ok := eval(`(() => { const e = Array.from(document.querySelectorAll(` + quoteJS(sel) + `)).find(r => r.textContent.includes(` + quoteJS(want) + `)); if (!e) return ''; e.click(); return 'ok'; })()`)
		if ok != "ok" {
			t.Fatalf("no %s containing %q", sel, want)
		}
	}

	// A deep link opens with the printed URL's token added: the symbol, the
	// tab, and the token gone from the address bar.
	do(chromedp.Navigate(f.base+"/symbol/requests/sessions.py::Session.send?tab=edges&token="+f.token), chromedp.WaitVisible(css("#q")))
	if loc := location(); loc != "/symbol/requests/sessions.py::Session.send?tab=edges" {
		t.Errorf("address after a deep link = %q, want the same view without the token", loc)
	}
	waitText(t, ctx, "#sel-title", "Session.send")
	waitText(t, ctx, "#edges", "Callees of send")
	if s := eval(`document.querySelector('#tab-edges').getAttribute('aria-selected')`); s != "true" {
		t.Errorf("?tab=edges opened with the Edges tab selected = %s", s)
	}
	// get_adapter is called as self.get_adapter: resolved through the class.
	waitText(t, ctx, "#edges", "same class")
	waitText(t, ctx, "#edges", "Session.resolve_redirects")
	if s := text("#edges"); !strings.Contains(s, "1 call") {
		t.Errorf("edges = %.300q, want weights in call sites", s)
	}
	waitText(t, ctx, "#repo-stats", "4 files")
	shot("explore-deeplink-edges-1400.png")

	// A caller opens at its call site's line in the Code tab.
	clickText("#edges .edge-label", "Session.resolve_redirects")
	waitText(t, ctx, "#sel-title", "Session.resolve_redirects")
	waitLocation("/symbol/requests/sessions.py::Session.resolve_redirects#L19")
	do(chromedp.WaitVisible(css("#code .line.target")))
	if s := text("#code .line.target"); !strings.Contains(s, "resp = self.send(req)") {
		t.Errorf("the caller opened at %q, want its call site's line", s)
	}

	// Back returns to Session.send with the Edges tab.
	do(chromedp.NavigateBack())
	waitText(t, ctx, "#sel-title", "Session.send")
	waitText(t, ctx, "#edges", "Callees of send")
	if loc := location(); loc != "/symbol/requests/sessions.py::Session.send?tab=edges" {
		t.Errorf("address after Back = %q", loc)
	}

	// Go to file: t, a fuzzy query, Enter.
	do(chromedp.Click(css("body")))
	key("t")
	do(chromedp.WaitVisible(css("#finder-input")))
	eval(`document.getElementById('finder-input').value = '', ''`) // CDP also types the key a keydown handler consumed
	key("adptr")
	waitText(t, ctx, "#finder-list", "requests/adapters.py")
	key(kb.Enter)
	waitText(t, ctx, "#sel-title", "requests/adapters.py")
	waitLocation("/file/requests/adapters.py")
	waitText(t, ctx, "#code", "class HTTPAdapter:")
	if s := eval(`document.querySelector('#tab-code').getAttribute('aria-selected')`); s != "true" {
		t.Errorf("go to file did not show the Code tab")
	}

	// Search with the keyboard: one line per hit, the first hit selected,
	// its whole file shown with the definition marked.
	key("/")
	if id := eval(`document.activeElement.id`); id != "q" {
		t.Errorf("after '/' the focus is on %q, want the search box", id)
	}
	eval(`document.getElementById('q').value = '', ''`)
	do(
		chromedp.KeyEvent("get_adapter raises InvalidSchema when no adapter prefix matches the url"),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(css("#hit-0")),
	)
	if s := text("#hit-0 .r-name"); s != "Session.get_adapter" {
		t.Errorf("first result = %q, want Session.get_adapter", s)
	}
	if n := count("#hit-0 .r-strip .seg"); n == 0 {
		t.Errorf("first result has no signal strip")
	}
	waitText(t, ctx, "#sel-title", "Session.get_adapter")
	waitLocation("/symbol/requests/sessions.py::Session.get_adapter?q=get_adapter")
	waitText(t, ctx, "#code", "class TooManyRedirects(Exception):")
	if s := text("#code .line.in-def"); !strings.Contains(s, "def get_adapter(self, url):") {
		t.Errorf("marked lines = %.100q, want get_adapter's", s)
	}
	if n := count("#code .tok-kw"); n == 0 {
		t.Errorf("the file is not highlighted (no keyword spans)")
	}
	h := eval(`String(document.querySelector('#hit-0').getBoundingClientRect().height)`)
	if n, _ := strconv.ParseFloat(h, 64); n > 48 {
		t.Errorf("a result is %s px tall, want one line and its strip", h)
	}
	shot("explore-search-1400.png")

	// Expanding a result shows its bars, what they add up to, and its source.
	do(chromedp.Focus(css("#hit-0")))
	key(" ")
	do(chromedp.WaitVisible(css("#hit-0 .r-more")))
	if s := text("#hit-0 .r-sum"); !strings.Contains(s, "add up to") {
		t.Errorf("signal sum line = %q", s)
	}
	if s := text("#hit-0 .r-more"); !strings.Contains(s, "def get_adapter(self, url):") || !strings.Contains(s, "lines 26–30") {
		t.Errorf("expanded result = %.200q, want its line range and source", s)
	}
	shot("explore-expanded-1400.png")

	// j moves, Enter selects the second hit.
	key("j")
	key(kb.Enter)
	do(chromedp.WaitReady(css("#hit-1.selected")))
	second := text("#hit-1 .r-name")
	waitText(t, ctx, "#sel-title", second)

	// Clicking a resolved identifier in the Code tab jumps to its definition;
	// every tab follows.
	clickText("#hit-0", "Session.get_adapter")
	waitText(t, ctx, "#sel-title", "Session.get_adapter")
	do(chromedp.WaitVisible(css("#code a.ref.via-file")))
	clickText("#code a.ref.via-file", "InvalidSchema")
	waitText(t, ctx, "#sel-title", "InvalidSchema")
	waitText(t, ctx, "#sel-sub", "class")
	do(chromedp.Click(css("#tab-symbols")))
	if s := text("#symbols .sym.selected"); !strings.Contains(s, "class InvalidSchema(Exception)") {
		t.Errorf("Symbols tab selection = %q, want InvalidSchema", s)
	}
	do(chromedp.Click(css("#tab-ast")), chromedp.WaitVisible(css(".node-row")))
	waitText(t, ctx, "#ast-tree", "class_definition")
	do(chromedp.Click(css("#tab-edges")))
	waitText(t, ctx, "#edges", "Callers of InvalidSchema")
	waitText(t, ctx, "#edges", "Session.get_adapter")

	// A symbol chosen in the Symbols tab drives the AST tab.
	do(chromedp.Click(css("#tab-symbols")))
	clickText("#symbols .sym-sig", "def get_adapter(self, url)")
	waitText(t, ctx, "#sel-title", "Session.get_adapter")
	do(chromedp.Click(css("#tab-ast")), chromedp.WaitVisible(css(".node-row")))
	waitText(t, ctx, "#ast-tree", "for_statement")
	clickText(".node-row", "for_statement")
	do(chromedp.WaitVisible(css("#ast-code .hl-mark")))
	marked := eval(`Array.from(document.querySelectorAll('#ast-code .hl-mark')).map(e => e.textContent).join('')`)
	if !strings.HasPrefix(marked, "for prefix, adapter in self.adapters.items():") {
		t.Errorf("marked source = %.80q, want the for statement", marked)
	}
	shot("explore-ast-1400.png")

	// Go to symbol with Ctrl-K.
	do(chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.WaitVisible(css("#finder-input")))
	eval(`document.getElementById('finder-input').value = '', ''`)
	key("HTTPAd")
	waitText(t, ctx, "#finder-list", "HTTPAdapter")
	shot("explore-finder-1400.png")
	key(kb.Enter)
	waitText(t, ctx, "#sel-title", "HTTPAdapter")

	// Model: back to get_adapter, ask, stream, diff; nothing written until Apply.
	orig, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py"))
	clickText("#hit-0", "Session.get_adapter")
	waitText(t, ctx, "#sel-title", "Session.get_adapter")
	do(chromedp.Click(css("#tab-model")), chromedp.WaitVisible(css("#task")))
	if s := text("#model-spec"); !strings.HasPrefix(s, "scripted:") {
		t.Errorf("model spec = %q, want the configured scripted model", s)
	}
	do(chromedp.SendKeys(css("#task"), "prefer the longest matching prefix"), chromedp.Click(css("#ask-btn")), chromedp.WaitVisible(css(".diff-line.add")))
	if s := text("#verdict"); !strings.Contains(s, "passes") {
		t.Errorf("verdict = %q, want it to pass the monitor", s)
	}
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Fatalf("the file changed before Apply")
	}
	shot("explore-model-1400.png")
	do(chromedp.Click(css("#apply-btn")), chromedp.WaitVisible(css(".note.ok")))
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); !strings.Contains(string(now), "best = None") {
		t.Errorf("Apply did not write the replacement")
	}
	do(chromedp.Click(css("#undo-btn")))
	waitText(t, ctx, "#model-note", "Restored requests/sessions.py")
	if now, _ := os.ReadFile(filepath.Join(f.root, "requests", "sessions.py")); string(now) != string(orig) {
		t.Errorf("Undo did not restore the file")
	}

	// Help.
	do(chromedp.Click(css("body")))
	key("?")
	do(chromedp.WaitVisible(css("#help")))
	if s := text("#help"); !strings.Contains(s, "go to symbol") {
		t.Errorf("help = %.200q", s)
	}
	key(kb.Escape)

	// Tab goes from the search box to the results, then the tabs; with the
	// Files list shown, to the tree.
	tabStops := func(n int) string {
		t.Helper()
		do(chromedp.Focus(css("#q")))
		var stops []string
		for i := 0; i < n; i++ {
			key(kb.Tab)
			stops = append(stops, eval(`(document.activeElement.className || document.activeElement.id).split(' ')[0]`))
		}
		return strings.Join(stops, " ")
	}
	if s := tabStops(12); !regexp.MustCompile(`result.*tab`).MatchString(s) {
		t.Errorf("Tab stops from the search box: %s, want a result, then the tabs", s)
	}
	do(chromedp.Click(css(".side-tab[data-side=files]")), chromedp.WaitVisible(css(".t-row")))
	if s := tabStops(12); !regexp.MustCompile(`t-row.*tab`).MatchString(s) {
		t.Errorf("Tab stops with the file tree: %s, want the tree, then the tabs", s)
	}
	do(chromedp.Click(css(".side-tab[data-side=results]")))

	// An empty query says so; a failed clone shows its reason first, keeps
	// the URL in the field and can be dismissed.
	eval(`document.getElementById('q').value = '', ''`)
	do(chromedp.Focus(css("#q")), chromedp.KeyEvent(kb.Enter))
	waitText(t, ctx, "#results-meta", "Type a task")
	bad := "file:///nonexistent/repo.git"
	do(chromedp.SendKeys(css("#clone-input"), bad), chromedp.Click(css("#clone-btn")), chromedp.WaitVisible(css("#job.error")))
	waitText(t, ctx, "#job", "Could not load")
	waitText(t, ctx, "#job-msg", "does not appear to be a git repository")
	if s := text("#job-msg"); !strings.HasPrefix(s, "'/nonexistent/repo.git' does not appear to be a git repository") || !strings.HasSuffix(s, "("+bad+")") {
		t.Errorf("failed clone says %q, want the reason first, then the URL", s)
	}
	if v := eval(`document.getElementById('clone-input').value`); v != bad {
		t.Errorf("after a failed clone the field holds %q, want %q", v, bad)
	}
	shot("explore-clone-error-1400.png")
	do(chromedp.Click(css("#job-dismiss")), chromedp.WaitNotVisible(css("#job")))
	eval(`document.getElementById('clone-input').value = '', ''`)
	do(chromedp.SendKeys(css("#q"), "get_adapter raises InvalidSchema"), chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css("#hit-0")))

	// A phone: one pane at a time, the details one tap away, nothing
	// sideways.
	do(chromedp.Click(css("#tab-code")), chromedp.EmulateViewport(400, 800))
	do(chromedp.Click(css("#pane-list")), chromedp.WaitVisible(css("#hit-0")))
	noSideways(t, eval, "results at 400 px")
	shot("explore-results-400.png")
	clickText("#hit-0", "Session.get_adapter")
	do(chromedp.WaitVisible(css("#code .line.in-def")))
	if s := eval(`String(document.querySelector('#tab-code').getBoundingClientRect().top < 800)`); s != "true" {
		t.Errorf("at 400x800 the tabs are below the first screen")
	}
	noSideways(t, eval, "details at 400 px")
	shot("explore-details-400.png")
	do(chromedp.Click(css("#theme-btn")), chromedp.Click(css("#tab-edges")))
	waitText(t, ctx, "#edges", "Callers of get_adapter")
	noSideways(t, eval, "edges at 400 px")
	shot("explore-edges-dark-400.png")
	do(chromedp.EmulateViewport(1400, 900))
	shot("explore-dark-1400.png")

	mu.Lock()
	defer mu.Unlock()
	if len(consoleErrors) > 0 {
		t.Errorf("console errors: %v", consoleErrors)
	}
}

// noSideways fails if any element reaches past the window or is cut by a
// box that hides overflow (boxes that scroll, like code, may hold wider
// content): a phone shows no horizontal scrollbar.
func noSideways(t *testing.T, eval func(string) string, what string) {
	t.Helper()
	wide := `(() => { const w = document.documentElement.clientWidth; const out = [];
	  if (document.documentElement.scrollWidth > w + 1) out.push('page scrolls sideways: ' + document.documentElement.scrollWidth + '>' + w);
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
	    if ((ox === 'auto' || ox === 'scroll') && !el.matches('.code, .code *, pre, textarea, .stream, .panel, .ast-tree') && el.scrollWidth > el.clientWidth + 1)
	      out.push((el.id || el.className || el.tagName) + ' scrolls sideways: ' + el.scrollWidth + '>' + el.clientWidth);
	  }
	  return out.slice(0, 6).join(' '); })()`
	if s := eval(wide); s != "" {
		t.Errorf("%s: these reach past the window: %s", what, s)
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
