package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/session"
)

// fixRepo extracts a fixture repository from internal/fix/testdata.
func fixRepo(t *testing.T, name string, crlf bool) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "fix", "testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		data := f.Data
		if crlf && !strings.HasSuffix(f.Name, ".mod") {
			data = edit.ConvertEOL(data, "\r\n")
		}
		p := filepath.Join(root, f.Name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A stand-in .git to prove nothing touches it.
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	return root
}

// scripted is a provider replaying replies, one per model call.
func scripted(t *testing.T, replies ...string) *provider.Scripted {
	t.Helper()
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type turn struct {
		Content    []block `json:"content"`
		StopReason string  `json:"stop_reason"`
	}
	var s struct {
		Turns []turn `json:"turns"`
	}
	for _, r := range replies {
		s.Turns = append(s.Turns, turn{Content: []block{{"text", r}}, StopReason: "end_turn"})
	}
	data, _ := json.Marshal(s)
	p, err := provider.ParseScripted("test", data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func runFix(t *testing.T, root, task string, p provider.Provider, o FixOptions) *fix.Report {
	t.Helper()
	o.Provider, o.Runner, o.NoSession = p, sandbox.NewPlain(), o.DataHome == ""
	if o.Test == "" { // detection is tested in package fix
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			o.Test = "go test -vet=off ." // one tiny package; vet only slows these runs
		} else {
			o.Test = pytestCommand(t) + " -q -x"
		}
	}
	var log bytes.Buffer
	o.Progress = &log
	rep, err := Fix(context.Background(), root, task, o)
	if err != nil {
		t.Fatalf("Fix: %v\n%s", err, log.String())
	}
	t.Logf("progress:\n%s", log.String())
	return rep
}

const clampFixed = "```go\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n```"

// totalFixed fixes pycart in total alone (parse_pct is not called yet).
const totalFixed = "```python\ndef total(prices, discount=\"0%\"):\n    \"\"\"Sum the prices and take the discount off.\"\"\"\n    s = sum(prices)\n    pct = float(discount.strip().rstrip(\"%\"))\n    return s * (100 - pct) / 100\n```"

func codes(rep *fix.Report) []string {
	var out []string
	for _, a := range rep.Attempts {
		out = append(out, a.Verdict.Code)
	}
	return out
}

func readFile(t *testing.T, root, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// transcript reads the session transcript of rep under data.
func transcript(t *testing.T, data string, rep *fix.Report) []byte {
	t.Helper()
	if rep.SessionID == "" {
		t.Fatal("no session id in the report")
	}
	matches, _ := filepath.Glob(filepath.Join(data, "grit", "sessions", "*", rep.SessionID+".jsonl"))
	if len(matches) != 1 {
		t.Fatalf("transcript for %s not found", rep.SessionID)
	}
	return readFile(t, filepath.Dir(matches[0]), filepath.Base(matches[0]))
}

// TestFixFirstAttemptAndUndo is the Go fixture, fixed on the first attempt,
// in an LF and a CRLF copy with an em dash, emoji and CJK around Clamp; the LF
// run also checks the transcript.
func TestFixFirstAttemptAndUndo(t *testing.T) {
	t.Parallel()
	for _, crlf := range []bool{false, true} {
		t.Run(map[bool]string{false: "LF", true: "CRLF"}[crlf], func(t *testing.T) {
			t.Parallel()
			root := fixRepo(t, "gocalc", crlf)
			before := readFile(t, root, "calc.go")
			data := ""
			if !crlf {
				data = t.TempDir()
			}
			rep := runFix(t, root, "Clamp returns lo when v is above hi; it should return hi", scripted(t, clampFixed), FixOptions{DataHome: data})
			if rep.Status != fix.StatusFixed || len(rep.Attempts) != 1 {
				t.Fatalf("status %s after %d attempts, want fixed after 1", rep.Status, len(rep.Attempts))
			}
			if rep.Baseline == nil || rep.Baseline.Passed || !rep.Attempts[0].Test.Passed {
				t.Errorf("tests should go fail → pass: baseline %+v, after %+v", rep.Baseline, rep.Attempts[0].Test)
			}
			if rep.Candidates[0].QName != "Clamp" {
				t.Errorf("top candidate %s, want Clamp", rep.Candidates[0].QName)
			}
			after := readFile(t, root, "calc.go")
			if !bytes.Contains(after, []byte("return hi")) {
				t.Errorf("calc.go not fixed:\n%s", after)
			}
			if crlf && bytes.Count(after, []byte("\n")) != bytes.Count(after, []byte("\r\n")) {
				t.Errorf("a CRLF file got LF line endings:\n%q", after)
			}
			if !bytes.Contains(after, []byte("émoji 😀, 漢字")) || !bytes.Contains(after, []byte("[lo, hi] — inclusive")) {
				t.Errorf("unicode text around the function changed:\n%s", after)
			}
			if len(rep.FilesChanged) != 1 || rep.FilesChanged[0] != "calc.go" || !strings.Contains(rep.Diff, "+\t\treturn hi") {
				t.Errorf("FilesChanged = %v, diff:\n%s", rep.FilesChanged, rep.Diff)
			}
			if rep.Attempts[0].PromptTokens <= 0 || rep.Attempts[0].PromptTokens > fix.DefaultPromptBudget {
				t.Errorf("prompt tokens = %d", rep.Attempts[0].PromptTokens)
			}
			if data != "" {
				tr := transcript(t, data, rep)
				for _, want := range []string{`"type":"step","ts":`, `"step":{"name":"candidates"`, `"step":{"name":"attempt"`, "Rewrite this function", "return hi", `"status":"fixed"`} {
					if !bytes.Contains(tr, []byte(want)) {
						t.Errorf("transcript lacks %q", want)
					}
				}
			}
			u, err := UndoFix(context.Background(), root, false)
			if err != nil {
				t.Fatalf("UndoFix: %v", err)
			}
			if restored := readFile(t, root, "calc.go"); !bytes.Equal(restored, before) || len(u.Restored) != 1 {
				t.Errorf("undo restored %v; calc.go equals the original: %v", u.Restored, bytes.Equal(restored, before))
			}
			if head := readFile(t, root, ".git/HEAD"); string(head) != "ref: refs/heads/main\n" {
				t.Errorf(".git/HEAD changed: %q", head)
			}
		})
	}
}

// TestFixRevertedAfterBudget: every attempt is written and fails its test
// (inside total, so no relocation); after the budget cart.py is restored.
func TestFixRevertedAfterBudget(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "pycart", false)
	before := readFile(t, root, "cart.py")
	wrong := func(expr string) string {
		return strings.Replace(totalFixed, `float(discount.strip().rstrip("%"))`, expr, 1)
	}
	p := scripted(t, wrong(`int(float(discount.strip().rstrip("%")))`), wrong(`round(float(discount.strip().rstrip("%")))`), wrong(`float(discount.strip().rstrip("%")) + 1`))
	rep := runFix(t, root, "total crashes for fractional discounts like 12.5%", p, FixOptions{Attempts: 3})
	if rep.Status != fix.StatusReverted || len(rep.Attempts) != 3 {
		t.Fatalf("status %s after %d attempts (%v), want reverted after 3", rep.Status, len(rep.Attempts), codes(rep))
	}
	for _, a := range rep.Attempts {
		if !a.Written || a.Test == nil || a.Test.Passed || a.Target != "cart.py:total" {
			t.Errorf("attempt %d on %s: written %v, test %+v; want cart.py:total written and failing", a.N, a.Target, a.Written, a.Test)
		}
	}
	if after := readFile(t, root, "cart.py"); !bytes.Equal(after, before) {
		t.Errorf("cart.py not restored after the budget was spent:\n%s", after)
	}
	if _, err := edit.LastSnapshot(root); err == nil {
		t.Errorf("a reverted run left a snapshot for undo")
	}
	// The second prompt carries the first test failure.
	reqs := p.Requests()
	if len(reqs) != 3 || !strings.Contains(reqs[1].Messages[0].Text(), "assert 88.0 == 87.5") {
		t.Errorf("retry prompt lacks the test failure:\n%s", reqs[1].Messages[0].Text())
	}
}

func TestFixMonitorRejections(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "gocalc", false)
	p := scripted(t,
		"Just change the second `return lo` to `return hi`.",
		"```go\nfunc Clamp(v, lo, hi int) int {\n\t// ... existing code ...\n\treturn hi\n}\n```",
		strings.Replace(clampFixed, "func Clamp(", "func ClampInt(", 1),
		strings.Replace(clampFixed, "func Clamp(v, lo, hi int) int", "func Clamp(v, lo, hi float64) float64", 1),
		"```go\nfunc Clamp(v, lo, hi int) int {\n\tif v > hi {\n\t\treturn hi\n\t}\n```",
		clampFixed+"\nNEW FUNCTION after Clamp\n```go\nfunc Scale(v int) int {\n\treturn v\n}\n```",
		clampFixed+"\nIMPORTS\n```go\nvar debug = false\n```",
		clampFixed)
	rep := runFix(t, root, "Clamp returns lo when v is above hi", p, FixOptions{Attempts: 8})
	want := []string{edit.CodeProse, edit.CodeElision, edit.CodeName, edit.CodeSignature, edit.CodeTruncated, edit.CodeCollision, edit.CodeImports, edit.CodeOK}
	if got := codes(rep); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("verdicts = %v, want %v", got, want)
	}
	if rep.Status != fix.StatusFixed {
		t.Errorf("status %s, want fixed", rep.Status)
	}
	if r := p.Requests(); !strings.Contains(r[2].Messages[0].Text(), "leaves code out") {
		t.Errorf("the retry prompt does not pass the rejection back:\n%s", r[2].Messages[0].Text())
	}
}

// TestFixStale changes the file between indexing and the write: the splice
// must refuse, re-index, find total again and place the reply in the new file.
func TestFixStale(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "pycart", false)
	path := filepath.Join(root, "cart.py")
	confirm := func(ctx context.Context, diff string) (bool, error) {
		src, _ := os.ReadFile(path)
		src = bytes.Replace(src, []byte("\n\ndef total"), []byte("\n\n# Added while grit was thinking — ✓ 漢字\nCURRENCY = \"€\"\n\n\ndef total"), 1)
		return true, os.WriteFile(path, src, 0o644)
	}
	rep := runFix(t, root, "total crashes for fractional discounts like 12.5%", scripted(t, totalFixed), FixOptions{Confirm: confirm})
	if rep.Status != fix.StatusFixed || !rep.Attempts[0].Stale {
		t.Fatalf("status %s, stale %v; want fixed after a stale retry", rep.Status, rep.Attempts[0].Stale)
	}
	after := readFile(t, root, "cart.py")
	if !bytes.Contains(after, []byte("# Added while grit was thinking — ✓ 漢字\nCURRENCY")) || !bytes.Contains(after, []byte("pct = float(")) {
		t.Errorf("the concurrent change or the fix is missing:\n%s", after)
	}
}

func TestFixDryRunAndDecline(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "pycart", false)
	before := readFile(t, root, "cart.py")
	rep := runFix(t, root, "total crashes for fractional discounts like 12.5%", scripted(t, totalFixed), FixOptions{DryRun: true})
	if rep.Status != fix.StatusDryRun || !strings.Contains(rep.Diff, "+    pct = float(") || rep.Baseline != nil {
		t.Errorf("dry run: status %s, baseline %+v, diff:\n%s", rep.Status, rep.Baseline, rep.Diff)
	}
	no := func(context.Context, string) (bool, error) { return false, nil }
	rep = runFix(t, root, "total crashes for fractional discounts like 12.5%", scripted(t, totalFixed), FixOptions{Confirm: no})
	if rep.Status != fix.StatusDeclined {
		t.Errorf("declined: status %s", rep.Status)
	}
	if after := readFile(t, root, "cart.py"); !bytes.Equal(after, before) {
		t.Errorf("dry run or declined diff wrote cart.py")
	}
}

var pytestOnce struct {
	sync.Once
	cmd string
}

// pytestCommand is how the Python fixtures run pytest: `pytest` if it is on
// PATH, else `python3 -m pytest`, found once per test binary. Plugin
// autoloading is off: the fixtures need none, and it is most of pytest's
// start-up time.
func pytestCommand(t *testing.T) string {
	pytestOnce.Do(func() {
		for _, c := range [][]string{{"pytest", "--version"}, {"python3", "-m", "pytest", "--version"}} {
			if exec.Command(c[0], c[1:]...).Run() == nil {
				pytestOnce.cmd = "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 " + strings.Join(c[:len(c)-1], " ")
				return
			}
		}
	})
	if pytestOnce.cmd == "" {
		t.Skip("SKIP: neither `pytest` nor `python3 -m pytest` works here; the Python end-to-end fix tests need pytest")
	}
	return pytestOnce.cmd
}

// TestFixSecondAttemptElsewhere: the first edit moves the failure into
// parse_pct; the traceback points there and the second attempt fixes it,
// keeping the first change. Both are in the one snapshot undo restores.
func TestFixSecondAttemptElsewhere(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "pycart", false)
	before := readFile(t, root, "cart.py")
	first := "```python\ndef total(prices, discount=\"0%\"):\n    \"\"\"Sum the prices and take the discount off.\"\"\"\n    s = sum(prices)\n    pct = parse_pct(discount)\n    return s * (100 - pct) / 100\n```"
	second := "```python\ndef parse_pct(text):\n    \"\"\"Read a percentage such as \"20%\" as a number.\"\"\"\n    return float(text.strip().rstrip(\"%\"))\n```"
	p := scripted(t, first, second)
	rep := runFix(t, root, "total crashes for fractional discounts like 12.5%", p, FixOptions{})
	if rep.Status != fix.StatusFixed || len(rep.Attempts) != 2 {
		t.Fatalf("status %s after %d attempts (%v), want fixed after 2", rep.Status, len(rep.Attempts), codes(rep))
	}
	if rep.Attempts[0].Target != "cart.py:total" || rep.Attempts[1].Target != "cart.py:parse_pct" {
		t.Errorf("targets %s then %s, want cart.py:total then cart.py:parse_pct", rep.Attempts[0].Target, rep.Attempts[1].Target)
	}
	if !strings.Contains(p.Requests()[1].Messages[0].Text(), "def parse_pct(text):") {
		t.Errorf("the second prompt does not show parse_pct:\n%s", p.Requests()[1].Messages[0].Text())
	}
	after := readFile(t, root, "cart.py")
	if !bytes.Contains(after, []byte("pct = parse_pct(discount)")) || !bytes.Contains(after, []byte("return float(")) {
		t.Errorf("cart.py should keep both edits:\n%s", after)
	}
	if !strings.Contains(rep.Diff, "+    pct = parse_pct(discount)") || !strings.Contains(rep.Diff, "+    return float(") {
		t.Errorf("the report's diff should hold both edits:\n%s", rep.Diff)
	}
	if _, err := UndoFix(context.Background(), root, false); err != nil {
		t.Fatalf("UndoFix: %v", err)
	}
	if restored := readFile(t, root, "cart.py"); !bytes.Equal(restored, before) {
		t.Errorf("undo did not restore both edits:\n%s", restored)
	}
}

// TestFixNewFunctionAndImports: the fix needs a helper and an import. The
// first reply names its helper like a function the file has (collision);
// the second adds strip_accents after slugify and imports unicodedata: three
// ops in one write, one snapshot, one undo.
func TestFixNewFunctionAndImports(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "pyslug", false)
	before := readFile(t, root, "slug.py")
	slugify := "```python\ndef slugify(title):\n    \"\"\"Lower-case ASCII words joined by dashes.\"\"\"\n    words = re.findall(r\"[a-z0-9]+\", strip_accents(title).lower())\n    return \"-\".join(words)\n```\n"
	helper := func(name string) string {
		return "\nNEW FUNCTION after slugify\n```python\ndef " + name + "(text):\n    \"\"\"Crème → Creme.\"\"\"\n    norm = unicodedata.normalize(\"NFKD\", text)\n    return \"\".join(c for c in norm if not unicodedata.combining(c))\n```\n"
	}
	imports := "\nIMPORTS\n```python\nimport unicodedata\n```\n"
	p := scripted(t, slugify+helper("count_words")+imports, slugify+helper("strip_accents")+imports)
	rep := runFix(t, root, "slugify drops accented letters: Crème brûlée should become creme-brulee", p, FixOptions{})
	if got := codes(rep); rep.Status != fix.StatusFixed || strings.Join(got, ",") != "collision,ok" {
		t.Fatalf("status %s, verdicts %v; want fixed after collision, ok", rep.Status, got)
	}
	if r := p.Requests(); !strings.Contains(r[1].Messages[0].Text(), "count_words already exists in slug.py") {
		t.Errorf("the retry prompt does not pass the collision back:\n%s", r[1].Messages[0].Text())
	}
	if !strings.Contains(p.Requests()[0].System, "NEW FUNCTION after slugify") {
		t.Errorf("the system prompt does not teach the NEW FUNCTION block:\n%s", p.Requests()[0].System)
	}
	ex := rep.Attempts[1].Verdict.Extras
	if len(ex) != 2 || ex[0].Kind != edit.ExtraFunction || ex[0].Name != "strip_accents" || ex[0].After != "slugify" ||
		ex[1].Kind != edit.ExtraImports || strings.Join(ex[1].Lines, ";") != "import unicodedata" {
		t.Errorf("extras = %+v, want strip_accents after slugify and import unicodedata", ex)
	}
	want := `"""Slugs for titles — "Crème brûlée" 😀 becomes creme-brulee."""
import re
import unicodedata


def slugify(title):
    """Lower-case ASCII words joined by dashes."""
    words = re.findall(r"[a-z0-9]+", strip_accents(title).lower())
    return "-".join(words)


def strip_accents(text):
    """Crème → Creme."""
    norm = unicodedata.normalize("NFKD", text)
    return "".join(c for c in norm if not unicodedata.combining(c))


def count_words(title):
    return len(slugify(title).split("-"))
`
	if d := cmp.Diff(want, string(readFile(t, root, "slug.py"))); d != "" {
		t.Errorf("slug.py after the fix (-want +got):\n%s", d)
	}
	s, err := edit.LastSnapshot(root)
	if err != nil || strings.Join(s.Paths(), ",") != "slug.py" {
		t.Fatalf("LastSnapshot = %v, %v; want one snapshot of slug.py", s, err)
	}
	if _, err := UndoFix(context.Background(), root, false); err != nil {
		t.Fatalf("UndoFix: %v", err)
	}
	if restored := readFile(t, root, "slug.py"); !bytes.Equal(restored, before) {
		t.Errorf("undo did not restore slug.py:\n%s", restored)
	}
}

// TestFixAsksWhichCandidate: two near-identical format_price functions score
// within the margin, so the model is asked to choose; it answers B and B is
// the function edited.
func TestFixAsksWhichCandidate(t *testing.T) {
	t.Parallel()
	root := fixRepo(t, "pyprices", false)
	before := readFile(t, root, "eu.py")
	reply := "```python\ndef format_price(amount):\n    \"\"\"Format an amount with two decimals and the currency sign.\"\"\"\n    return \"$%.2f\" % amount\n```"
	p := scripted(t, "B", reply)
	data := t.TempDir()
	task := "format_price shows one decimal instead of two"
	rep := runFix(t, root, task, p, FixOptions{DataHome: data})
	wantChoice := &fix.Choice{Options: []string{"A) eu.py:format_price", "B) us.py:format_price"}, Reply: "B", Picked: "us.py:format_price", Parsed: true}
	if d := cmp.Diff(wantChoice, rep.Choice); d != "" {
		t.Fatalf("Choice (-want +got):\n%s\ncandidates: %+v", d, rep.Candidates)
	}
	q := p.Requests()[0].Messages[0].Text()
	wantQ := "Task: " + task + `

Which function should change to do this task? The candidates:

A) format_price in eu.py
    def format_price(amount):
        """Format an amount with two decimals and the currency sign."""
        return "%.2f €" % amount

B) format_price in us.py
    def format_price(amount):
        """Format an amount with two decimals and the currency sign."""
        return "$%.1f" % amount

Answer with one letter: A or B.
`
	if d := cmp.Diff(wantQ, q); d != "" {
		t.Errorf("the question (-want +got):\n%s", d)
	}
	if rep.Status != fix.StatusFixed || len(rep.Attempts) != 1 || rep.Attempts[0].Target != "us.py:format_price" {
		t.Fatalf("status %s, attempts %+v; want us.py:format_price fixed", rep.Status, rep.Attempts)
	}
	if !bytes.Contains(readFile(t, root, "us.py"), []byte(`"$%.2f" % amount`)) || !bytes.Equal(readFile(t, root, "eu.py"), before) {
		t.Errorf("us.py should be fixed and eu.py untouched")
	}
	tr := transcript(t, data, rep)
	for _, want := range []string{"Which function should change", `"step":{"name":"choice","data":{"options":["A) eu.py:format_price","B) us.py:format_price"],"reply":"B","picked":"us.py:format_price","parsed":true}}`} {
		if !bytes.Contains(tr, []byte(want)) {
			t.Errorf("transcript lacks %q", want)
		}
	}
}

// TestEditCorpusWithParser runs the edit-robustness corpus through the
// monitor with the tree-sitter parse check wired in, as grit fix runs it.
func TestEditCorpusWithParser(t *testing.T) {
	cases, err := edit.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	res := edit.Bench(context.Background(), cases, EditParse)
	for _, r := range res.Rows {
		if !r.Right {
			t.Errorf("%s (%s): Check = %s (%s), want %s", r.Case, r.Kind, r.Got, r.Reason, r.Expect)
		}
	}
	t.Logf("verdicts right: %d/%d; exact SEARCH/REPLACE failed to place %d (%d of %d good replies)", res.Right, res.Cases, res.ExactFailed, res.ExactFailedGood, res.Good)
}

func TestEditParse(t *testing.T) {
	out, err := EditParse(context.Background(), "a.py", []byte("def f(:\n    return 1\n"))
	if err != nil || out.Errors == 0 {
		t.Errorf("EditParse(broken python) = %+v, %v; want errors", out, err)
	}
	out, err = EditParse(context.Background(), "a.go", []byte("func (s *S) M() {}\n"))
	if err != nil || len(out.Defs) != 1 || out.Defs[0].Name != "M" {
		t.Errorf("EditParse(go method) = %+v, %v; want one top-level def M", out, err)
	}
}

// A transcript that cannot be written is an error of the run, not dropped:
// the fix itself still completes and its report comes back with it.
func TestFixSessionWriteError(t *testing.T) {
	root := fixRepo(t, "gocalc", false)
	ix, err := OpenIndex(context.Background(), root, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := session.NewStore(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Meta{Cwd: root, Model: "test"})
	if err != nil {
		t.Fatal(err)
	}
	sess.Close() // every append now fails
	rep, err := fix.Run(context.Background(), "Clamp returns lo when v is above hi; it should return hi", fix.Options{
		Index: ix, Provider: scripted(t, clampFixed), Runner: sandbox.NewPlain(), Parse: EditParse,
		Test: "go test -vet=off .", Attempts: 1, Session: sess,
	})
	if err == nil || !strings.Contains(err.Error(), "session transcript") || !strings.Contains(err.Error(), "append after close") {
		t.Errorf("fix.Run with an unwritable transcript: error %v, want one about the session transcript", err)
	}
	if rep == nil || rep.Status != fix.StatusFixed {
		t.Errorf("fix.Run report = %+v, want the fix done despite the transcript", rep)
	}
}
