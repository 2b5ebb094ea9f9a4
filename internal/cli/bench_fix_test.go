package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/fix/oracle"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/provider"
)

// cartBase is the repository every hand-made patch below applies to.
const cartBase = `"""Shopping cart."""
import math

TAX_RATE = 0.2


class Cart:
    currency = "EUR"

    def __init__(self):
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def subtotal(self):
        return sum(price * qty for _, price, qty in self.items)

    def describe(self):
        return "%d items in %s" % (len(self.items), self.currency)


def tax(amount):
    return amount * TAX_RATE


def ceil_total(cart):
    return math.ceil(cart.subtotal() + tax(cart.subtotal()))


def discount(total):
    if total > 100:
        rate = 0.1
    else:
        rate = 0.0
    reduced = total * (1 - rate)
    return reduced


DEFAULT_DISCOUNT = 0.0
`

// cartCase is one hand-made fix: its task, and the edits that make the gold
// post-patch file from cartBase.
type cartCase struct {
	id, task string
	edits    [][2]string
}

var cartCases = []cartCase{
	{"one-function", "Cart.subtotal should round the subtotal to two decimals", [][2]string{
		{"        return sum(price * qty for _, price, qty in self.items)\n",
			"        return round(sum(price * qty for _, price, qty in self.items), 2)\n"},
	}},
	{"two-functions", "Cart.add must reject a negative qty, and Cart.subtotal must skip the items whose qty is zero", [][2]string{
		{"        self.items.append((name, price, qty))\n",
			"        if qty < 0:\n            raise ValueError(\"negative qty\")\n        self.items.append((name, price, qty))\n"},
		{"        return sum(price * qty for _, price, qty in self.items)\n",
			"        return sum(price * qty for _, price, qty in self.items if qty > 0)\n"},
	}},
	{"new-function-and-import", "tax(amount) loses cents to float rounding: compute it with Decimal through a to_decimal helper", [][2]string{
		{"import math\n", "import math\nfrom decimal import Decimal\n"},
		{"    return amount * TAX_RATE\n",
			"    return to_decimal(amount) * to_decimal(TAX_RATE)\n\n\ndef to_decimal(x):\n    return Decimal(str(x))\n"},
	}},
	{"class-attribute", "Cart.currency should default to USD, not EUR", [][2]string{
		{`    currency = "EUR"`, `    currency = "USD"`},
	}},
	{"module-constant", "TAX_RATE is wrong: the tax rate is 0.25", [][2]string{
		{"TAX_RATE = 0.2\n", "TAX_RATE = 0.25\n"},
	}},
	// Four functions change: more than the three attempts, which accepted
	// edits no longer spend.
	{"four-functions", "Cart should keep its items in self.lines, not self.items", [][2]string{
		{"        self.items = []\n", "        self.lines = []\n"},
		{"        self.items.append((name, price, qty))\n", "        self.lines.append((name, price, qty))\n"},
		{"for _, price, qty in self.items)\n", "for _, price, qty in self.lines)\n"},
		{"(len(self.items), self.currency)", "(len(self.lines), self.currency)"},
	}},
	// The function gets much shorter and the task does not say so: the
	// prompt asks for a sentence then, and the oracle gives one.
	{"much-shorter", "discount should be one expression: 10% off above 100", [][2]string{
		{"    if total > 100:\n        rate = 0.1\n    else:\n        rate = 0.0\n    reduced = total * (1 - rate)\n    return reduced\n",
			"    return total * (0.9 if total > 100 else 1)\n"},
	}},
	// A new function lands just above a module constant: the region holding
	// the constant is offered next, and the helper must not come twice.
	{"new-function-above-constant", "discount must round the reduced total to cents with a round_cents helper", [][2]string{
		{"    reduced = total * (1 - rate)\n    return reduced\n\n\nDEFAULT", "    reduced = total * (1 - rate)\n    return round_cents(reduced)\n\n\ndef round_cents(x):\n    return round(x, 2)\n\n\nDEFAULT"},
	}},
	// The fix needs a new signature, and the task does not say so: the
	// monitor questions it once, then takes it.
	{"new-signature", "tax should also take the rate, TAX_RATE by default", [][2]string{
		{"def tax(amount):\n    return amount * TAX_RATE\n", "def tax(amount, rate=TAX_RATE):\n    return amount * rate\n"},
	}},
	// The import line changes in place: an IMPORTS block, which only adds
	// lines, cannot make this file; the import region can.
	{"import-line", "ceil_total should call ceil imported from math, not math.ceil", [][2]string{
		{"import math\n", "from math import ceil\n"},
		{"    return math.ceil(cart.subtotal() + tax(cart.subtotal()))\n", "    return ceil(cart.subtotal() + tax(cart.subtotal()))\n"},
	}},
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// cartBench builds the repository, a bare mirror of it laid out as fetch
// does (MIRRORS/owner+name/repo) and an instance file whose patches are made
// with git diff from the hand-made edits.
func cartBench(t *testing.T) (data, mirrors string) {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "src")
	if err := os.MkdirAll(filepath.Join(repo, "shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(repo, "shop", "cart.py")
	if err := os.WriteFile(file, []byte(cartBase), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "base")
	base := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
	var lines []string
	for _, c := range cartCases {
		post := cartBase
		for _, e := range c.edits {
			if !strings.Contains(post, e[0]) {
				t.Fatalf("%s: %q not in the file", c.id, e[0])
			}
			post = strings.Replace(post, e[0], e[1], 1)
		}
		if err := os.WriteFile(file, []byte(post), 0o644); err != nil {
			t.Fatal(err)
		}
		patch := git(t, repo, "diff")
		git(t, repo, "checkout", "--", ".")
		b, _ := json.Marshal(map[string]any{"instance_id": c.id, "repo": "acme/shop", "base_commit": base,
			"problem_statement": c.task, "patch": patch, "gold_files": []string{"shop/cart.py"}})
		lines = append(lines, string(b))
	}
	mirrors = filepath.Join(dir, "mirrors")
	git(t, dir, "clone", "-q", "--bare", repo, filepath.Join(mirrors, "acme+shop", "repo"))
	data = filepath.Join(dir, "dev.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return data, mirrors
}

// TestBenchFixOracle runs `grit bench fix --oracle` on the hand-made
// patches: the real pipeline, index and monitor, the oracle as the model.
func TestBenchFixOracle(t *testing.T) {
	data, mirrors := cartBench(t)
	out := filepath.Join(t.TempDir(), "runs.jsonl")
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"bench", "fix", "--oracle", "--data", data, "--repos", mirrors,
		"--work", t.TempDir(), "--out", out, "--json"}, Stdio{In: strings.NewReader(""), Out: &stdout, Err: &stderr})
	if code != 0 {
		t.Fatalf("bench fix exit %d\n%s", code, stderr.String())
	}
	var rep oracle.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, stdout.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]oracle.Result{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r oracle.Result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		got[r.InstanceID] = r
	}
	want := map[string]struct{ outcome, stage string }{
		"one-function":                {oracle.OutcomeExact, ""},
		"two-functions":               {oracle.OutcomeExact, ""},
		"new-function-and-import":     {oracle.OutcomeExact, ""},
		"class-attribute":             {oracle.OutcomeExact, ""},
		"module-constant":             {oracle.OutcomeExact, ""},
		"import-line":                 {oracle.OutcomeExact, ""},
		"new-signature":               {oracle.OutcomeExact, ""},
		"four-functions":              {oracle.OutcomeExact, ""},
		"much-shorter":                {oracle.OutcomeExact, ""},
		"new-function-above-constant": {oracle.OutcomeExact, ""},
	}
	for id, w := range want {
		r, ok := got[id]
		if !ok {
			t.Errorf("%s: no result line", id)
			continue
		}
		if r.Outcome != w.outcome || r.Stage != w.stage {
			t.Errorf("%s: outcome %s/%s, want %s/%s\n%+v", id, r.Outcome, r.Stage, w.outcome, w.stage, r)
		}
		// Every gold answer is for the function the pipeline showed in that attempt.
		n := 0
		for _, ex := range r.Exchanges {
			if ex.Kind != "edit" {
				continue
			}
			if n < len(r.Attempts) && ex.Answer == oracle.AnswerGold && ex.Path+":"+ex.Name != r.Attempts[n].Target {
				t.Errorf("%s: attempt %d showed %s, the oracle answered for %s:%s", id, n+1, r.Attempts[n].Target, ex.Path, ex.Name)
			}
			n++
		}
	}
	if rep.Instances != len(cartCases) || rep.Total.Exact != len(cartCases) || rep.Stages[oracle.StageOutside] != 0 {
		t.Errorf("report totals: %+v", rep.Total)
	}
	// --report re-reads --out and reports the same.
	stdout.Reset()
	if code := Main(context.Background(), []string{"bench", "fix", "--oracle", "--report", out, "--json"}, Stdio{In: strings.NewReader(""), Out: &stdout, Err: &stderr}); code != 0 {
		t.Fatalf("bench fix --report exit %d\n%s", code, stderr.String())
	}
	var again oracle.Report
	if err := json.Unmarshal(stdout.Bytes(), &again); err != nil {
		t.Fatal(err)
	}
	if again.Instances != rep.Instances || again.Total.Exact != rep.Total.Exact || again.PerInst.Mean != rep.PerInst.Mean {
		t.Errorf("--report: %+v, want the run's %+v", again.Total, rep.Total)
	}
}

// TestOracleSeesOnlyWhatIsShown holds the oracle to the prompt: shown one
// function of a two-function patch it returns that function alone; shown a
// function the patch leaves alone, or text that is not the file's, it
// refuses; asked to choose, it picks only among the options offered.
func TestOracleSeesOnlyWhatIsShown(t *testing.T) {
	c := cartCases[1] // two functions: Cart.add and Cart.subtotal
	post := cartBase
	for _, e := range c.edits {
		post = strings.Replace(post, e[0], e[1], 1)
	}
	patch := unifiedPatch(t, "shop/cart.py", cartBase, post)
	parser := app.NewParser()
	parse := func(ctx context.Context, path string, src []byte) ([]index.Def, error) {
		p, err := parser.Parse(ctx, path, src)
		if err != nil {
			return nil, err
		}
		return p.Defs, nil
	}
	ctx := context.Background()
	gold, err := oracle.NewGold(ctx, patch, func(string) bool { return true },
		func(string) ([]byte, error) { return []byte(cartBase), nil }, parse)
	if err != nil {
		t.Fatal(err)
	}
	o := oracle.New(gold)
	ask := func(system, user string) string {
		resp, err := o.Send(ctx, &provider.Request{System: system, Messages: []provider.Message{{Role: provider.RoleUser,
			Content: []provider.Block{{Type: provider.BlockText, Text: user}}}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return provider.Message{Content: resp.Content}.Text()
	}
	edit := func(name, source string) string {
		p := fix.EditPrompt{Task: c.task, Kind: "method", Name: name, Path: "shop/cart.py", Lang: "python", Class: "class Cart:", Source: source}
		system, user, _, err := p.Render(0)
		if err != nil {
			t.Fatal(err)
		}
		return ask(system, user)
	}
	addSrc := "def add(self, name, price, qty=1):\n    self.items.append((name, price, qty))"
	reply := edit("add", addSrc)
	if !strings.Contains(reply, `raise ValueError("negative qty")`) {
		t.Errorf("shown Cart.add, the oracle did not return its gold text:\n%s", reply)
	}
	if strings.Contains(reply, "if qty > 0") || strings.Contains(reply, "subtotal") {
		t.Errorf("shown Cart.add, the oracle leaked Cart.subtotal's change:\n%s", reply)
	}
	if got := edit("describe", "def describe(self):\n    return \"%d items in %s\" % (len(self.items), self.currency)"); got != "NO CHANGE" {
		t.Errorf("shown a function the patch leaves alone, the oracle said %q, want NO CHANGE", got)
	}
	if got := edit("add", "def add(self, name, price):\n    pass"); got != "NO CHANGE" {
		t.Errorf("shown text that is not the file's, the oracle said %q, want NO CHANGE", got)
	}
	choose := func(opts ...string) string {
		q := "Task: " + c.task + "\n\nWhich function should change to do this task? The candidates:\n"
		for i, op := range opts {
			q += "\n" + string(rune('A'+i)) + ") " + op + "\n    def ...\n"
		}
		return ask("", q+"\nAnswer with one letter.")
	}
	if got := choose("Cart.describe in shop/cart.py", "Cart.subtotal in shop/cart.py", "Cart.add in shop/cart.py"); got != "B" {
		t.Errorf("choose: %q, want B (the first offered option the patch changes)", got)
	}
	if got := choose("Cart.describe in shop/cart.py", "tax in shop/cart.py"); strings.ContainsAny(got, "AB") {
		t.Errorf("choose among options the patch leaves alone: %q, want a refusal", got)
	}
	for i, ex := range o.Log {
		if ex.Answer == oracle.AnswerGold && ex.Name != "Cart.add" {
			t.Errorf("exchange %d answered for %s, which was never shown", i, ex.Name)
		}
	}
}

// unifiedPatch is git's diff of one file from a to b.
func unifiedPatch(t *testing.T, path, a, b string) string {
	t.Helper()
	dir := t.TempDir()
	abs := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "a")
	if err := os.WriteFile(abs, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	return git(t, dir, "diff")
}
