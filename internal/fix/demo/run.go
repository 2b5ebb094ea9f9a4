package demo

import (
	"context"
	"io"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/fix"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/provider"
	"github.com/grit-dev/grit/internal/sandbox"
	"github.com/grit-dev/grit/internal/search"
)

// Result is what `grit demo` shows.
type Result struct {
	Dir        string       `json:"dir"`
	Task       string       `json:"task"`
	Candidates []search.Hit `json:"candidates"`
	Report     *fix.Report  `json:"report"`
}

// Run extracts the embedded demo project into dir, locates the bug, and runs
// the fix pipeline with the embedded scripted model reply. The tests run
// without a sandbox: the code is Grit's own, embedded in the binary.
//
// update opens dir's index and brings it up to date, parse is the quality
// monitor's parser: the composition root supplies both.
func Run(ctx context.Context, dir string, progress io.Writer, update func(ctx context.Context, root string) (*index.Index, error), parse edit.ParseFunc) (*Result, error) {
	if err := Extract(dir); err != nil {
		return nil, err
	}
	res := &Result{Dir: dir, Task: Task}
	ix, err := update(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	sr, err := locate.Run(ctx, ix, locate.Request{Task: Task, K: 3})
	if err != nil {
		return nil, err
	}
	res.Candidates = sr.Hits
	p, err := provider.ParseScripted("demo", Script)
	if err != nil {
		return nil, err
	}
	res.Report, err = fix.Run(ctx, Task, fix.Options{
		Index: ix, Provider: p, Runner: sandbox.NewPlain(), Parse: parse,
		Attempts: 1, Progress: progress,
	})
	return res, err
}
