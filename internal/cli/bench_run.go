package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// benchFiles are what bench locate and bench fix share around a run: the
// work directory of extracted trees, the per-instance JSONL (--out) and
// where progress lines go.
type benchFiles struct {
	work     string
	out      io.Writer // nil without --out
	progress func(string)
	file     *os.File
}

// openBenchFiles resolves work (default $XDG_CACHE_HOME/grit/cacheName) and
// creates it, creates out unless it is "", and prints progress with
// verbose or on a terminal. Close it when the run is done.
func openBenchFiles(e *env, work, cacheName, out string, verbose bool) (*benchFiles, error) {
	if work == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory (set --work): %w", err)
		}
		work = filepath.Join(dir, "grit", cacheName)
	}
	work, err := filepath.Abs(work)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, fmt.Errorf("create work directory: %w", err)
	}
	b := &benchFiles{work: work}
	if out != "" {
		if b.file, err = os.Create(out); err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		b.out = b.file
	}
	if verbose || isTTY(e.Err) {
		b.progress = func(msg string) { fmt.Fprintln(e.Err, msg) }
	}
	return b, nil
}

// Close closes --out's file.
func (b *benchFiles) Close() error {
	if b.file == nil {
		return nil
	}
	return b.file.Close()
}
