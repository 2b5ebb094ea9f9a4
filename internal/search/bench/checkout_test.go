package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlan: jobs are ordered by repository, then base commit time, then
// id (an unknown commit first, to fail at its checkout); a missing mirror
// ends the plan with an error naming it.
func TestPlan(t *testing.T) {
	src := t.TempDir()
	git(t, src, "init", "-q", "-b", "main")
	var commits []string
	for i := range 3 {
		write(t, src, map[string]string{"a.py": fmt.Sprintf("v%d\n", i)})
		git(t, src, "add", "-A")
		// Committed a day apart: time order is not the ids' order below.
		cmd := exec.Command("git", "commit", "-q", "-m", "step")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", fmt.Sprintf("GIT_COMMITTER_DATE=2020-01-%02dT00:00:00Z", i+1))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git commit: %v\n%s", err, out)
		}
		commits = append(commits, git(t, src, "rev-parse", "HEAD"))
	}
	repos := t.TempDir()
	git(t, src, "clone", "-q", "--bare", src, filepath.Join(repos, "o+b", "repo"))
	git(t, src, "clone", "-q", "--bare", src, filepath.Join(repos, "o+a", "repo"))
	unknown := strings.Repeat("0", 40)
	jobs := []Job{
		{Repo: "o/b", Commit: commits[0], ID: "b-first"},
		{Repo: "o/a", Commit: commits[2], ID: "a-1-third"},
		{Repo: "o/a", Commit: commits[0], ID: "a-3-first-z"},
		{Repo: "o/a", Commit: commits[0], ID: "a-3-first-y"},
		{Repo: "o/a", Commit: unknown, ID: "a-9-unknown"},
		{Repo: "o/a", Commit: commits[1], ID: "a-2-second"},
	}
	order, mirrors, err := Plan(context.Background(), repos, jobs)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, i := range order {
		ids = append(ids, jobs[i].ID)
	}
	if got, want := strings.Join(ids, " "), "a-9-unknown a-3-first-y a-3-first-z a-2-second a-1-third b-first"; got != want {
		t.Errorf("Plan order = %s, want %s", got, want)
	}
	if mirrors["o/a"] != filepath.Join(repos, "o+a", "repo") {
		t.Errorf("mirrors = %v", mirrors)
	}
	_, _, err = Plan(context.Background(), repos, append(jobs, Job{Repo: "o/missing", Commit: commits[0], ID: "m"}))
	if err == nil || !strings.Contains(err.Error(), "missing mirrors") || !strings.Contains(err.Error(), "o/missing") {
		t.Errorf("Plan with a missing mirror: error = %v, want one naming o/missing", err)
	}
}
