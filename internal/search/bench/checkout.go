package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/grit-dev/grit/internal/index"
)

// Job is what a run needs to know of an instance to schedule it: its
// repository (owner/name), base commit and id.
type Job struct{ Repo, Commit, ID string }

// Plan finds the mirror of every repository the jobs name under dir (all
// must exist) and orders the jobs by repository, then base commit time,
// then id, so that each checkout moves a tree a little. order holds the
// jobs' indexes; mirrors maps a repository to its mirror.
func Plan(ctx context.Context, dir string, jobs []Job) (order []int, mirrors map[string]string, err error) {
	mirrors = map[string]string{}
	var missing []string
	for _, j := range jobs {
		if _, ok := mirrors[j.Repo]; ok {
			continue
		}
		m, err := FindMirror(dir, j.Repo)
		if err != nil {
			missing = append(missing, err.Error())
		}
		mirrors[j.Repo] = m
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("missing mirrors (bring them with fetch, e.g. fetch github:owner/name):\n  %s", strings.Join(missing, "\n  "))
	}
	when := map[string]int64{}
	for _, j := range jobs {
		if _, ok := when[j.Commit]; ok {
			continue
		}
		t := &Tree{Mirror: mirrors[j.Repo]}
		out, err := t.git(ctx, "show", "-s", "--format=%ct", j.Commit)
		if err != nil {
			when[j.Commit] = 0 // unknown: its checkout fails and says why
			continue
		}
		when[j.Commit], _ = strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	}
	order = make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, b := jobs[order[x]], jobs[order[y]]
		if a.Repo != b.Repo {
			return a.Repo < b.Repo
		}
		if when[a.Commit] != when[b.Commit] {
			return when[a.Commit] < when[b.Commit]
		}
		return a.ID < b.ID
	})
	return order, mirrors, nil
}

// Checkouts keeps one tree per repository under Work, moved from commit to
// commit, and the index of the repository the run is in, open until the
// run moves to another repository. Close it when the run is done.
type Checkouts struct {
	Work    string
	Mirrors map[string]string // from Plan
	// Open opens (creating) the index of a tree.
	Open func(ctx context.Context, root string) (*index.Index, error)

	repo string
	tree *Tree
	ix   *index.Index
}

// Checkout makes repo's tree hold commit. moved says the run entered
// another repository (the previous one's index is closed by then).
func (c *Checkouts) Checkout(ctx context.Context, repo, commit string) (tree *Tree, moved bool, err error) {
	if repo != c.repo {
		c.Close()
		c.repo, moved = repo, true
	}
	c.tree = NewTree(c.Mirrors[repo], filepath.Join(c.Work, strings.ReplaceAll(repo, "/", "+")))
	return c.tree, moved, c.tree.Sync(ctx, commit)
}

// Index is the index of the tree last checked out, opened once per
// repository; the caller brings it up to date.
func (c *Checkouts) Index(ctx context.Context) (*index.Index, error) {
	if c.ix == nil {
		ix, err := c.Open(ctx, c.tree.Dir)
		if err != nil {
			return nil, fmt.Errorf("open index of %s: %w", c.tree.Dir, err)
		}
		c.ix = ix
	}
	return c.ix, nil
}

// Close closes the open index.
func (c *Checkouts) Close() {
	if c.ix != nil {
		c.ix.Close()
		c.ix = nil
	}
}
