package search

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// RecentFiles returns, for each file touched in the last RecentCommits
// commits of the repository at root, a score in (0, 1]: 1 for the newest
// commit, falling linearly to 1/RecentCommits for the oldest. Paths are
// relative to root. A directory that is not a git work tree (or has no
// commits) gives an empty map and no error: recency is then silent.
func RecentFiles(ctx context.Context, root string) (map[string]float64, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return map[string]float64{}, nil
	}
	top, err := gitOut(ctx, root, "rev-parse", "--show-prefix")
	if err != nil {
		return map[string]float64{}, nil // not a repository
	}
	prefix := strings.TrimSpace(top) // root's path inside the work tree
	out, err := gitOut(ctx, root, "log", fmt.Sprintf("-n%d", RecentCommits), "--no-renames",
		"--name-only", "--format=%x00", "--", ".")
	if err != nil {
		return map[string]float64{}, nil // no commits yet
	}
	res := map[string]float64{}
	commits := strings.Split(out, "\x00")
	i := 0
	for _, c := range commits {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		score := 1 - float64(i)/RecentCommits
		i++
		for _, p := range strings.Split(c, "\n") {
			p = strings.TrimSpace(p)
			if p == "" || !strings.HasPrefix(p, prefix) {
				continue
			}
			rel := strings.TrimPrefix(p, prefix)
			if _, ok := res[rel]; !ok {
				res[rel] = score
			}
		}
	}
	return res, nil
}

func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotepath=off"}, args...)...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}
