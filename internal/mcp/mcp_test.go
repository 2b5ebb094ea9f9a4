package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/grit-dev/grit/internal/index"
)

// TestMain doubles as the server of the subprocess test: with
// GRIT_MCP_TEST_SERVE=<root> the test binary serves that repository over
// stdio, as `grit mcp` does.
func TestMain(m *testing.M) {
	if root := os.Getenv("GRIT_MCP_TEST_SERVE"); root != "" {
		os.Exit(serveStdio(root, os.Getenv("GRIT_MCP_TEST_EDITS") == "1"))
	}
	os.Exit(m.Run())
}

func serveStdio(root string, edits bool) int {
	ctx := context.Background()
	s, err := New(ctx, Options{Root: root, AllowEdits: edits, Warn: func(m string) { fmt.Fprintln(os.Stderr, m) }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	if err := s.Run(ctx, &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// newRepo extracts testdata/shop.txtar into a fresh directory.
func newRepo(t *testing.T) string {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/shop.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// connect starts a server on root and an SDK client talking to it in memory.
func connect(t *testing.T, root string, edits bool) (*Server, *sdk.ClientSession) {
	t.Helper()
	ctx := context.Background()
	s, err := New(ctx, Options{Root: root, AllowEdits: edits, Warn: func(m string) { t.Log("warning: " + m) }})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		s.Close()
	})
	return s, cs
}

// call calls a tool and returns its text and whether it is a tool error. A
// protocol error fails the test.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", name, args, err)
	}
	return resultText(res), res.IsError
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

var readTools = []string{"callees", "callers", "definition", "edges", "locate", "repo_map", "symbols"}

func TestToolList(t *testing.T) {
	root := newRepo(t)
	for _, tc := range []struct {
		name  string
		edits bool
		want  []string
	}{
		{"read-only", false, readTools},
		{"edits allowed", true, []string{"callees", "callers", "definition", "edges", "edit_function", "locate", "repo_map", "symbols"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, cs := connect(t, root, tc.edits)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				if tool.Description != description(tool.Name) || len(tool.Description) < 100 {
					t.Errorf("tool %s: description is not its tools/%s.md", tool.Name, tool.Name)
				}
				schema, ok := tool.InputSchema.(map[string]any)
				if !ok || schema["type"] != "object" {
					t.Errorf("tool %s: input schema %v is not an object schema", tool.Name, tool.InputSchema)
					continue
				}
				props, _ := schema["properties"].(map[string]any)
				for p, v := range props {
					if d, _ := v.(map[string]any)["description"].(string); d == "" {
						t.Errorf("tool %s: property %s has no description", tool.Name, p)
					}
				}
				if b, ok := props["budget"].(map[string]any); !ok || b["maximum"] != float64(MaxBudget) {
					t.Errorf("tool %s: budget schema = %v, want a maximum of %d", tool.Name, props["budget"], MaxBudget)
				}
				if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != (tool.Name != "edit_function") {
					t.Errorf("tool %s: annotations %+v, want readOnlyHint only on read tools", tool.Name, tool.Annotations)
				}
			}
			sort.Strings(names)
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTools(t *testing.T) {
	root := newRepo(t)
	_, cs := connect(t, root, false)
	for _, tc := range []struct {
		name    string
		tool    string
		args    map[string]any
		wantErr bool
		want    []string // substrings, in order
		not     []string
	}{
		{"locate", "locate", map[string]any{"task": "the HALF discount code should take half off the amount"},
			false, []string{"candidates for the task", "1. shop/pricing.py::apply_discount  function, lines 4-8, bytes [13,159)", "def apply_discount(amount, code)", "signals: ", "symbol"}, []string{"```"}},
		{"locate with source", "locate", map[string]any{"task": "apply_discount halves for HALF", "k": 2, "include_source": true},
			false, []string{"1. shop/pricing.py::apply_discount", "```python shop/pricing.py:4\ndef apply_discount(amount, code):", "return amount / 2", "2. "}, nil},
		{"locate with traceback", "locate", map[string]any{"task": "crash", "traceback": "Traceback (most recent call last):\n  File \"shop/pricing.py\", line 12, in tax_for\n    return round(amount * RATE, 2)\nTypeError: can't multiply\n"},
			false, []string{"traceback frames in the repository", "shop/pricing.py:12 tax_for", "1. shop/pricing.py::tax_for"}, nil},
		{"locate k=1", "locate", map[string]any{"task": "tax", "k": 1}, false, []string{"1 candidate for the task (of 1 asked"}, []string{"\n2. "}},
		{"locate without a task", "locate", map[string]any{"task": "  "}, true, []string{"locate needs a task"}, nil},
		{"locate k over the schema's maximum", "locate", map[string]any{"task": "tax", "k": 500}, true, []string{"k"}, nil},
		{"locate missing task", "locate", map[string]any{}, true, []string{"task"}, nil},

		{"symbols", "symbols", map[string]any{"file": "shop/cart.py"},
			false, []string{"shop/cart.py: python, 5 definitions", "4-24 [51,643) class Cart: class Cart", "  21-24 [454,643) method Cart.total: def total(self, code=None)"}, nil},
		{"symbols absolute inside", "symbols", map[string]any{"file": filepath.Join(root, "shop", "pricing.py")}, false, []string{"shop/pricing.py: python, 3 definitions"}, nil},
		{"symbols dot-slash", "symbols", map[string]any{"file": "./shop/../shop/pricing.py"}, false, []string{"shop/pricing.py: python, 3 definitions"}, nil},
		{"symbols outside (..)", "symbols", map[string]any{"file": "../etc/passwd"}, true, []string{"refused: ../etc/passwd is outside the repository"}, nil},
		{"symbols outside (absolute)", "symbols", map[string]any{"file": "/etc/passwd"}, true, []string{"refused: /etc/passwd is outside the repository"}, nil},
		{"symbols in .git", "symbols", map[string]any{"file": ".git/config"}, true, []string{"refused"}, nil},
		{"symbols missing file", "symbols", map[string]any{"file": "shop/nope.py"}, true, []string{"shop/nope.py: no such file in the repository"}, nil},
		{"symbols unindexed file", "symbols", map[string]any{"file": "README.md"}, true, []string{"README.md is not in the index"}, nil},

		{"definition", "definition", map[string]any{"name": "apply_discount"},
			false, []string{"shop/pricing.py::apply_discount  function, lines 4-8, bytes [13,159)", "doc: Apply a discount code to an amount.", "```python shop/pricing.py:4\ndef apply_discount(amount, code):\n    \"\"\"Apply", "    return amount\n```"}, []string{"[cut"}},
		{"definition qualified", "definition", map[string]any{"name": "Cart.total"}, false, []string{"shop/cart.py::Cart.total  method, lines 21-24", "return subtotal + tax_for(subtotal)"}, []string{"ambiguous"}},
		{"definition ambiguous", "definition", map[string]any{"name": "total"},
			false, []string{"total is ambiguous: 2 definitions", "  shop/cart.py::Cart.total", "  shop/report.py::total", "def total(self, code=None)", "def total(carts)"}, nil},
		{"definition path::qname", "definition", map[string]any{"name": "shop/report.py::total"}, false, []string{"shop/report.py::total  function"}, []string{"ambiguous", "Cart.total"}},
		{"definition unknown", "definition", map[string]any{"name": "checkout"}, true, []string{"No definition named checkout in the index"}, nil},
		{"definition outside", "definition", map[string]any{"name": "../other/x.py::f"}, true, []string{"refused"}, nil},

		{"callers", "callers", map[string]any{"name": "apply_discount"},
			false, []string{"callers of shop/pricing.py::apply_discount", "1 call site in 1 definition", "shop/cart.py:23 in Cart.total | subtotal = apply_discount(subtotal, code)"}, nil},
		{"callers none", "callers", map[string]any{"name": "summary"}, false, []string{"0 call sites"}, nil},
		{"callers unknown", "callers", map[string]any{"name": "nope"}, true, []string{"No definition named nope"}, nil},
		{"callees", "callees", map[string]any{"name": "Cart.total"},
			false, []string{"callees of shop/cart.py::Cart.total", "shop/pricing.py::apply_discount  function, lines 4-8, 1 call", "shop/pricing.py::tax_for", "not resolved in the repository", "sum ×1"}, nil},
		{"callees unknown", "callees", map[string]any{"name": ""}, true, []string{"give a name"}, nil},

		{"edges", "edges", map[string]any{"file": "shop/cart.py"},
			false, []string{"edges of shop/cart.py", "refers to (heaviest first):\n  shop/pricing.py  weight", "apply_discount", "referred to by", "shop/report.py", "imports:\n  line 1: shop.pricing (apply_discount, tax_for) -> shop/pricing.py"}, nil},
		{"edges outside", "edges", map[string]any{"file": "/tmp"}, true, []string{"refused"}, nil},

		{"repo_map with task", "repo_map", map[string]any{"task": "discount codes"},
			false, []string{"personalised to the files the task's search hits are in", "\nshop/pricing.py (rank", "def apply_discount(amount, code)"}, nil},
		{"repo_map whole", "repo_map", map[string]any{},
			false, []string{"no task given", "shop/pricing.py", "shop/cart.py", "class Cart"}, nil},

		{"budget cuts", "locate", map[string]any{"task": "cart total discount tax amount", "include_source": true, "budget": 200},
			false, []string{"[cut to fit the budget of 200 tokens:"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, isErr := call(t, cs, tc.tool, tc.args)
			if isErr != tc.wantErr {
				t.Fatalf("%s(%v): error = %v, want %v; text:\n%s", tc.tool, tc.args, isErr, tc.wantErr, got)
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%s(%v) lacks %q (in order); text:\n%s", tc.tool, tc.args, w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("%s(%v) contains %q; text:\n%s", tc.tool, tc.args, n, got)
				}
			}
			if b, ok := tc.args["budget"].(int); ok && estimateTokens(got) > b {
				t.Errorf("%s(%v): %d tokens, over the budget of %d", tc.tool, tc.args, estimateTokens(got), b)
			}
		})
	}
}

// TestBudgetsHold checks that every read tool's answer stays within budget.
func TestBudgetsHold(t *testing.T) {
	root := newRepo(t)
	// Enough code that every answer must be cut.
	for f := range 30 {
		var b strings.Builder
		b.WriteString("from shop.pricing import tax_for\n\n")
		for i := range 40 {
			fmt.Fprintf(&b, "def tax_helper_%d_%d(amount):\n    return tax_for(amount) + %d\n\n\n", f, i, i)
		}
		if err := os.WriteFile(filepath.Join(root, "shop", fmt.Sprintf("many%02d.py", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, cs := connect(t, root, false)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"locate", map[string]any{"task": "tax helper amount", "k": 50, "include_source": true}},
		{"symbols", map[string]any{"file": "shop/many00.py"}},
		{"callers", map[string]any{"name": "tax_for"}},
		{"repo_map", map[string]any{"task": "tax"}},
	} {
		for _, budget := range []int{MinBudget, 500} {
			tc.args["budget"] = budget
			got, isErr := call(t, cs, tc.tool, tc.args)
			if isErr {
				t.Fatalf("%s(%v): %s", tc.tool, tc.args, got)
			}
			if estimateTokens(got) > budget {
				t.Errorf("%s with budget %d: %d tokens", tc.tool, budget, estimateTokens(got))
			}
			if !strings.Contains(got, "[cut to fit the budget of") {
				t.Errorf("%s with budget %d: no note of what was cut:\n%s", tc.tool, budget, got)
			}
		}
	}
}

// TestLocateBudgetCutsCandidates: the budget argument caps the candidates
// themselves (the locate service's Request.Budget), best first, and the
// answer says which ranks it left out.
func TestLocateBudgetCutsCandidates(t *testing.T) {
	root := newRepo(t)
	_, cs := connect(t, root, false)
	task := "cart total discount tax amount code report summary"
	full, isErr := call(t, cs, "locate", map[string]any{"task": task, "budget": MaxBudget})
	if isErr || strings.Contains(full, "[cut to fit") {
		t.Fatalf("locate with the largest budget = %q, want every candidate", full)
	}
	got, isErr := call(t, cs, "locate", map[string]any{"task": task, "budget": MinBudget})
	if isErr || estimateTokens(got) > MinBudget || !strings.Contains(got, "more candidates (ranks ") || !strings.Contains(got, "\n1. ") {
		t.Fatalf("locate with budget %d = %d tokens:\n%s\nwant the best candidates within it and a note of the ranks cut", MinBudget, estimateTokens(got), got)
	}
	first := got[strings.Index(got, "\n1. "):]
	first = first[:strings.Index(first[1:], "\n")+1]
	if !strings.Contains(full, first) {
		t.Errorf("the budgeted answer's best candidate %q is not the full answer's", first)
	}
}

func TestConcurrentCalls(t *testing.T) {
	root := newRepo(t)
	_, cs := connect(t, root, true)
	want := map[string]string{}
	args := map[string]map[string]any{
		"locate":   {"task": "discount code"},
		"symbols":  {"file": "shop/cart.py"},
		"repo_map": {"task": "tax"},
		"callers":  {"name": "tax_for"},
	}
	for tool, a := range args {
		want[tool], _ = call(t, cs, tool, a)
	}
	// Touch a file so that the calls below all find something to re-index.
	p := filepath.Join(root, "shop", "report.py")
	src, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(src, []byte("\n\ndef grand_total(carts):\n    return total(carts)\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tools := []string{"locate", "symbols", "repo_map", "callers"}
			tool := tools[i%len(tools)]
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args[tool]})
			switch {
			case err != nil:
				errs <- fmt.Sprintf("%s: %v", tool, err)
			case res.IsError:
				errs <- fmt.Sprintf("%s: tool error %s", tool, resultText(res))
			case tool == "symbols" && resultText(res) != want[tool]:
				errs <- fmt.Sprintf("%s: %q, want %q", tool, resultText(res), want[tool])
			}
		}()
	}
	// An edit at the same time: it must not interleave with the refreshes.
	wg.Add(1)
	go func() {
		defer wg.Done()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "edit_function", Arguments: map[string]any{
			"name": "tax_for", "new_source": "def tax_for(amount):\n    return round(amount * RATE, 3)\n"}})
		if err != nil || res.IsError {
			errs <- fmt.Sprintf("edit_function: %v %s", err, resultText(res))
		}
	}()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	got, _ := call(t, cs, "symbols", map[string]any{"file": "shop/report.py"})
	if !strings.Contains(got, "grand_total") {
		t.Errorf("symbols after concurrent calls lacks grand_total:\n%s", got)
	}
	got, _ = call(t, cs, "definition", map[string]any{"name": "tax_for"})
	if !strings.Contains(got, "RATE, 3)") {
		t.Errorf("definition after the concurrent edit:\n%s", got)
	}
}

func TestEditFunction(t *testing.T) {
	root := newRepo(t)
	_, cs := connect(t, root, true)
	pricing := filepath.Join(root, "shop", "pricing.py")
	before, _ := os.ReadFile(pricing)

	// Rejections write nothing and say why.
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"identical", map[string]any{"name": "tax_for", "new_source": "def tax_for(amount):\n    return round(amount * RATE, 2)\n"}, "(identical)"},
		{"signature", map[string]any{"name": "tax_for", "new_source": "def tax_for(amount, rate):\n    return round(amount * rate, 2)\n"}, "allow_signature_change: true"},
		{"elided", map[string]any{"name": "apply_discount", "new_source": "def apply_discount(amount, code):\n    # ... existing code ...\n    return amount\n"}, "(elision)"},
		{"two definitions", map[string]any{"name": "tax_for", "new_source": "def tax_for(amount):\n    return 1\n\n\ndef other():\n    return 2\n"}, "(definitions)"},
		{"ambiguous", map[string]any{"name": "total", "new_source": "def total(carts):\n    return 0\n"}, "total names 2 definitions; give one as path::qname"},
		{"unknown", map[string]any{"name": "checkout", "new_source": "def checkout():\n    pass\n"}, "No definition named checkout"},
		{"outside", map[string]any{"name": "/etc/x.py::f", "new_source": "def f():\n    pass\n"}, "refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, isErr := call(t, cs, "edit_function", tc.args)
			if !isErr || !strings.Contains(got, tc.want) {
				t.Errorf("edit_function(%v) = %q (error %v), want an error with %q", tc.args, got, isErr, tc.want)
			}
			if now, _ := os.ReadFile(pricing); string(now) != string(before) {
				t.Errorf("a rejected edit changed shop/pricing.py:\n%s", now)
			}
		})
	}

	// An accepted edit of a method, given dedented as a model writes it,
	// lands at the method's column and the next locate sees it.
	newSrc := "def remove(self, name):\n    for i, item in enumerate(self.items):\n        if item[0] == name:\n            removed_item = self.items.pop(i)\n            return removed_item\n    return None\n"
	got, isErr := call(t, cs, "edit_function", map[string]any{"name": "shop/cart.py::Cart.remove", "new_source": newSrc})
	if isErr {
		t.Fatalf("edit_function: %s", got)
	}
	for _, w := range []string{"replaced method shop/cart.py::Cart.remove (was lines 14-19, bytes [264,448)); now lines 14-19", "snapshot ", "re-indented to column 4", "+                removed_item = self.items.pop(i)"} {
		if !strings.Contains(got, w) {
			t.Errorf("edit_function answer lacks %q:\n%s", w, got)
		}
	}
	cart, _ := os.ReadFile(filepath.Join(root, "shop", "cart.py"))
	want := "    def remove(self, name):\n        for i, item in enumerate(self.items):\n            if item[0] == name:\n                removed_item = self.items.pop(i)\n                return removed_item\n        return None\n\n    def total("
	if !strings.Contains(string(cart), want) {
		t.Errorf("shop/cart.py after the edit lacks\n%s\nit is:\n%s", want, cart)
	}
	got, _ = call(t, cs, "locate", map[string]any{"task": "removed_item is wrong", "k": 3, "include_source": true})
	if !strings.HasPrefix(got[strings.Index(got, "\n1. "):], "\n1. shop/cart.py::Cart.remove") || !strings.Contains(got, "removed_item = self.items.pop(i)") {
		t.Errorf("locate after the edit does not find it:\n%s", got)
	}

	// A top-level function with a new signature, allowed explicitly.
	got, isErr = call(t, cs, "edit_function", map[string]any{"name": "tax_for", "allow_signature_change": true,
		"new_source": "def tax_for(amount, rate=RATE):\n    return round(amount * rate, 2)\n"})
	if isErr || !strings.Contains(got, "+def tax_for(amount, rate=RATE):") {
		t.Errorf("edit_function with allow_signature_change: %s", got)
	}
	if got, _ := call(t, cs, "symbols", map[string]any{"file": "shop/pricing.py"}); !strings.Contains(got, "function tax_for: def tax_for(amount, rate=RATE)") {
		t.Errorf("symbols after the signature change:\n%s", got)
	}
}

func TestEditRefusedWithoutAllowEdits(t *testing.T) {
	root := newRepo(t)
	_, cs := connect(t, root, false)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "edit_function", Arguments: map[string]any{
		"name": "tax_for", "new_source": "def tax_for(amount):\n    return 0\n"}})
	if err == nil && !res.IsError {
		t.Fatalf("edit_function without --allow-edits succeeded: %s", resultText(res))
	}
	if src, _ := os.ReadFile(filepath.Join(root, "shop", "pricing.py")); strings.Contains(string(src), "return 0") {
		t.Errorf("the file was edited:\n%s", src)
	}
}

// TestIndexStaysCurrent: edits made behind the server's back are seen by the
// next call, and a deleted or corrupt index is rebuilt, not fatal.
func TestIndexStaysCurrent(t *testing.T) {
	root := newRepo(t)
	_, cs := connect(t, root, false)
	if got, isErr := call(t, cs, "symbols", map[string]any{"file": "shop/pricing.py"}); isErr || strings.Contains(got, "net_price") {
		t.Fatalf("symbols: %s", got)
	}
	p := filepath.Join(root, "shop", "pricing.py")
	src, _ := os.ReadFile(p)
	os.WriteFile(p, append(src, "\n\ndef net_price(amount):\n    return amount - tax_for(amount)\n"...), 0o644)
	if got, _ := call(t, cs, "symbols", map[string]any{"file": "shop/pricing.py"}); !strings.Contains(got, "function net_price: def net_price(amount)") {
		t.Errorf("symbols after an outside edit lacks net_price:\n%s", got)
	}

	for _, tc := range []struct {
		name   string
		break_ func(db string) error
	}{
		{"deleted", func(db string) error { return os.Remove(db) }},
		{"corrupt", func(db string) error {
			os.Remove(db + "-wal")
			os.Remove(db + "-shm")
			return os.WriteFile(db, []byte("this is not a database, not at all, it is a text file of some length"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.break_(index.DBPath(root)); err != nil {
				t.Fatal(err)
			}
			got, isErr := call(t, cs, "callers", map[string]any{"name": "tax_for"})
			if isErr || !strings.Contains(got, "shop/pricing.py:") || !strings.Contains(got, "in net_price") {
				t.Errorf("callers after the index was %s: %s", tc.name, got)
			}
		})
	}
}

// TestSubprocessStdio runs the server as a real process over stdio.
func TestSubprocessStdio(t *testing.T) {
	root := newRepo(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GRIT_MCP_TEST_SERVE="+root, "GRIT_MCP_TEST_EDITS=1")
	cmd.Stderr = os.Stderr
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(readTools)+1 {
		t.Errorf("%d tools over stdio, want %d", len(res.Tools), len(readTools)+1)
	}
	got, isErr := call(t, cs, "symbols", map[string]any{"file": "../../etc/passwd"})
	if !isErr || !strings.Contains(got, "outside the repository") {
		t.Errorf("symbols outside the repository over stdio: %q", got)
	}
	got, isErr = call(t, cs, "edit_function", map[string]any{"name": "tax_for", "new_source": "def tax_for(amount):\n    vat_rounding = 2\n    return round(amount * RATE, vat_rounding)\n"})
	if isErr {
		t.Fatalf("edit_function over stdio: %s", got)
	}
	got, _ = call(t, cs, "locate", map[string]any{"task": "vat_rounding", "k": 1})
	if !strings.Contains(got, "1. shop/pricing.py::tax_for") {
		t.Errorf("locate over stdio after the edit:\n%s", got)
	}
}
