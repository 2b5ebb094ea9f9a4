// Package explore is the service behind `grit explore`: one active
// repository with its open index, a background job that clones and indexes
// the next one, and typed answers for each page of the explorer (search,
// symbols, syntax tree, edges, file, the Model tab's propose/apply/undo).
// Its result types are the JSON shapes of docs/api.md. The web face serves
// it; app wires in the parser.
package explore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
	"github.com/grit-dev/grit/internal/locate"
	"github.com/grit-dev/grit/internal/search"
	"github.com/grit-dev/grit/internal/span"
)

// The explorer's vocabulary, re-exported so that the web face needs to import
// explore only.
type (
	Def      = index.Def
	ASTNode  = index.ASTNode
	FileEdge = index.FileEdge
	Import   = index.Import
	Signals  = search.Signals
	FileHit  = search.FileHit
	Frame    = search.Frame
)

// Sentinel errors of the explorer services; the web face maps them to HTTP
// status codes.
var (
	ErrOutsideRepo = errors.New("path is outside the repository")
	ErrBadRequest  = errors.New("bad request")
	ErrNotFound    = errors.New("not found")
	ErrNotReady    = errors.New("no repository is loaded yet")
	ErrBusy        = errors.New("another repository is being loaded")
)

// Explorer limits.
const (
	maxFile   = 2 << 20 // bytes served by File and read for AST
	maxBody   = 16 << 10
	maxRecent = 12
)

// Options configure an Explorer.
type Options struct {
	// CacheDir holds clones and the recent-repositories list; "" means
	// $XDG_CACHE_HOME/grit (default ~/.cache/grit).
	CacheDir string
	// Model is the provider spec the Model tab sends to ("" means the
	// provider layer's default: Ollama at OLLAMA_HOST).
	Model string
	// Git is the git binary; "" means "git" from PATH.
	Git string
	// OpenIndex opens a repository's index with the parser the composition
	// root chose (app.NewExplorer sets it); the explorer never picks a parser.
	OpenIndex func(ctx context.Context, root string, opts index.Options) (*index.Index, error)
	// AST parses one file into its syntax tree (or the smallest node
	// covering a byte range); set with OpenIndex.
	AST func(ctx context.Context, path string, src []byte, r *[2]int) (*index.ASTNode, error)
	// Parse is the quality monitor's parser for the Model tab; set with OpenIndex.
	Parse edit.ParseFunc
	// Served is the local directory grit explore was started on, which
	// the page may reopen (see StartFromPage); "" if none.
	Served string
}

// Explorer is the service behind `grit explore`: one active repository with
// its open index, and at most one background job (clone and/or index) that
// replaces it when done. It is safe for concurrent use.
type Explorer struct {
	opts   Options
	ctx    context.Context // cancelled by Close; jobs run under it
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	active *loadedRepo // nil until the first load finishes
	job    *Job        // the running or last finished job
}

type loadedRepo struct {
	root   string // absolute
	source string // what the user asked for (path or URL)
	ix     *index.Index
	fsys   *os.Root
	stats  index.Stats
	opened time.Time
	defs   defCache // every definition, for the tree and the finder
}

// Job reports a clone or index run.
type Job struct {
	Source  string    `json:"source"`
	Phase   string    `json:"phase"` // cloning, indexing, ready, error
	Done    int       `json:"done"`
	Total   int       `json:"total"`
	Message string    `json:"message,omitempty"`
	Error   string    `json:"error,omitempty"`
	Started time.Time `json:"started"`
}

// Status is what /api/status and `grit explore --json` show.
type Status struct {
	Root    string       `json:"root,omitempty"`
	Source  string       `json:"source,omitempty"`
	Files   int          `json:"files"`
	Defs    int          `json:"defs"`
	Stats   *index.Stats `json:"stats,omitempty"`
	Model   string       `json:"model"`
	Job     *Job         `json:"job,omitempty"`
	Recent  []RecentRepo `json:"recent"`
	Ready   bool         `json:"ready"`
	Version int          `json:"version"` // bumps when the active repository changes
}

// New returns an Explorer with no repository; call Start or Load.
func New(opts Options) *Explorer {
	if opts.Git == "" {
		opts.Git = "git"
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Explorer{opts: opts, ctx: ctx, cancel: cancel}
}

// Close cancels a running job, waits for it and closes the active index.
func (x *Explorer) Close() error {
	x.cancel()
	x.wg.Wait()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.active != nil {
		x.active.fsys.Close()
		err := x.active.ix.Close()
		x.active = nil
		return err
	}
	return nil
}

// CacheDir is the explorer's cache directory.
func (x *Explorer) CacheDir() (string, error) {
	if x.opts.CacheDir != "" {
		return x.opts.CacheDir, nil
	}
	d, err := os.UserCacheDir() // honours XDG_CACHE_HOME
	if err != nil {
		return "", fmt.Errorf("cache directory: %w", err)
	}
	return filepath.Join(d, "grit"), nil
}

// ModelSpec is the provider spec the Model tab uses.
func (x *Explorer) ModelSpec() string { return x.opts.Model }

// Start begins loading source (a directory, a bare repository or a git URL)
// in the background: clone if needed, then index. The current repository
// stays active until the new one is ready. It returns ErrBusy if a job runs,
// or an ErrBadRequest-wrapped error if source is not acceptable.
func (x *Explorer) Start(source string) error {
	src, err := ParseSource(source)
	if err != nil {
		return err
	}
	x.mu.Lock()
	if x.job != nil && (x.job.Phase == "cloning" || x.job.Phase == "indexing") {
		x.mu.Unlock()
		return ErrBusy
	}
	job := &Job{Source: source, Phase: "indexing", Started: time.Now()}
	if src.Clone {
		job.Phase = "cloning"
	}
	x.job = job
	x.mu.Unlock()
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		err := x.load(x.ctx, src)
		x.mu.Lock()
		defer x.mu.Unlock()
		if err != nil {
			job.Phase, job.Error = "error", err.Error()
			return
		}
		job.Phase = "ready"
	}()
	return nil
}

// Load loads source synchronously (clone if needed, then index).
func (x *Explorer) Load(ctx context.Context, source string) error {
	src, err := ParseSource(source)
	if err != nil {
		return err
	}
	return x.load(ctx, src)
}

// Wait blocks until no job is running.
func (x *Explorer) Wait() { x.wg.Wait() }

func (x *Explorer) progress(f func(j *Job)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.job != nil {
		f(x.job)
	}
}

func (x *Explorer) load(ctx context.Context, src Source) error {
	root := src.Dir
	if src.Clone {
		cache, err := x.CacheDir()
		if err != nil {
			return err
		}
		dir := filepath.Join(cache, "repos", src.CachePath)
		x.progress(func(j *Job) { j.Message = "git clone --depth 1 " + src.URL })
		if err := cloneShallow(ctx, x.opts.Git, src.URL, dir); err != nil {
			return err
		}
		root = dir
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("explore %s: %w", src.Raw, err)
	}
	x.progress(func(j *Job) { j.Phase, j.Message = "indexing", "indexing "+root })
	fsys, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("explore %s: %w", root, err)
	}
	ix, err := x.opts.OpenIndex(ctx, root, index.Options{
		Progress: func(done, total int) {
			x.progress(func(j *Job) { j.Done, j.Total = done, total })
		},
	})
	if err != nil {
		fsys.Close()
		return fmt.Errorf("open index of %s: %w", root, err)
	}
	stats, err := ix.Update(ctx)
	if err != nil {
		ix.Close()
		fsys.Close()
		return fmt.Errorf("index %s: %w", root, err)
	}
	x.mu.Lock()
	old := x.active
	x.active = &loadedRepo{root: root, source: src.Raw, ix: ix, fsys: fsys, stats: stats, opened: time.Now()}
	if x.job != nil {
		x.job.Message = fmt.Sprintf("indexed %d files, %d definitions", stats.Seen, stats.Defs)
	}
	x.mu.Unlock()
	if old != nil {
		old.fsys.Close()
		old.ix.Close()
	}
	if err := x.remember(src.Raw, root); err != nil {
		return err
	}
	return nil
}

// repo returns the active repository or ErrNotReady.
func (x *Explorer) repo() (*loadedRepo, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.active == nil {
		return nil, ErrNotReady
	}
	return x.active, nil
}

// Root is the active repository's root, "" if none.
func (x *Explorer) Root() string {
	r, err := x.repo()
	if err != nil {
		return ""
	}
	return r.root
}

// Status reports the active repository, the job and the recent list.
func (x *Explorer) Status(ctx context.Context) Status {
	x.mu.Lock()
	st := Status{Model: x.opts.Model}
	if x.job != nil {
		j := *x.job
		st.Job = &j
	}
	r := x.active
	x.mu.Unlock()
	if r != nil {
		st.Ready = true
		st.Root, st.Source = r.root, r.source
		stats := r.stats
		st.Stats = &stats
		st.Files, st.Defs = stats.Seen, stats.Defs
		st.Version = int(r.opened.UnixNano() % 1e9)
	}
	st.Recent, _ = x.Recent()
	if st.Recent == nil {
		st.Recent = []RecentRepo{}
	}
	return st
}

// Hit is a ranked definition with its source, for showing inline.
type Hit struct {
	search.Hit
	Body      string `json:"body"`
	Truncated bool   `json:"truncated,omitempty"`
	Stale     bool   `json:"stale,omitempty"`
}

// SearchResult is a ranking with bodies.
type SearchResult struct {
	Query  string    `json:"query"`
	Hits   []Hit     `json:"hits"`
	Files  []FileHit `json:"files"`
	Tokens []string  `json:"tokens"`
	Frames []Frame   `json:"frames,omitempty"`
	Note   string    `json:"note,omitempty"`
	TookMS float64   `json:"took_ms"`
}

// Search ranks the active repository's definitions for text (and an optional
// traceback) and attaches each hit's source, capped.
func (x *Explorer) Search(ctx context.Context, text, traceback string, k int) (*SearchResult, error) {
	r, err := x.repo()
	if err != nil {
		return nil, err
	}
	req := locate.Request{Task: text, Traceback: traceback, K: k, Explain: true}
	if req.Empty() {
		return nil, fmt.Errorf("%w: empty query: describe a task, name a symbol or paste a traceback", ErrBadRequest)
	}
	var notes []string
	for _, f := range []*string{&req.Task, &req.Traceback} {
		var note string
		if *f, note = TrimLog(*f); note != "" {
			notes = append(notes, note)
		}
	}
	res, err := locate.Run(ctx, r.ix, req)
	if err != nil {
		return nil, err
	}
	if res.Note != "" {
		notes = append(notes, res.Note)
	}
	out := &SearchResult{Query: res.Query, Files: res.Files, Tokens: res.Tokens, Frames: res.Frames, Note: strings.Join(notes, "; "), TookMS: res.TookMS}
	out.Hits = make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		eh := Hit{Hit: h}
		src, err := r.ix.Source(ctx, h.Def)
		switch {
		case errors.Is(err, index.ErrStale):
			eh.Stale = true
		case err != nil:
			return nil, fmt.Errorf("source of %s: %w", h.Def.QName, err)
		}
		if len(src) > maxBody {
			src, eh.Truncated = src[:maxBody], true
		}
		eh.Body = string(src)
		out.Hits = append(out.Hits, eh)
	}
	if out.Files == nil {
		out.Files = []FileHit{}
	}
	if out.Tokens == nil {
		out.Tokens = []string{}
	}
	return out, nil
}

// SymbolsResult is /api/symbols' answer.
type SymbolsResult struct {
	Path    string `json:"path"`
	Symbols []Def  `json:"symbols"`
}

// Symbols lists the definitions of one file in source order.
func (x *Explorer) Symbols(ctx context.Context, path string) ([]Def, error) {
	r, rel, err := x.resolve(path)
	if err != nil {
		return nil, err
	}
	defs, err := r.ix.Symbols(ctx, rel)
	if err != nil {
		return nil, mapIndexErr(rel, err)
	}
	if defs == nil {
		defs = []Def{}
	}
	return defs, nil
}

// DefByID returns one definition of the active repository.
func (x *Explorer) DefByID(ctx context.Context, id int64) (Def, error) {
	r, err := x.repo()
	if err != nil {
		return Def{}, err
	}
	d, err := r.ix.DefByID(ctx, id)
	if err != nil {
		return Def{}, mapIndexErr(fmt.Sprint(id), err)
	}
	return d, nil
}

// FileSlice is a byte range of a file's source.
type FileSlice struct {
	Path  string `json:"path"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Size  int    `json:"size"`
	Text  string `json:"text"`
	Lang  string `json:"lang,omitempty"`
}

// File returns bytes [start, end) of path (end < 0: to the end), read through
// the repository's os.Root so that nothing outside it can be reached.
func (x *Explorer) File(ctx context.Context, path string, start, end int) (*FileSlice, error) {
	r, rel, err := x.resolve(path)
	if err != nil {
		return nil, err
	}
	src, err := readConfined(r.fsys, rel)
	if err != nil {
		return nil, err
	}
	if end < 0 || end > len(src) {
		end = len(src)
	}
	if start < 0 || start > end {
		return nil, fmt.Errorf("%w: range [%d,%d) of a %d-byte file", ErrBadRequest, start, end, len(src))
	}
	fs := &FileSlice{Path: rel, Start: start, End: end, Size: len(src), Text: string(src[start:end])}
	if f, err := r.ix.File(ctx, rel); err == nil {
		fs.Lang = f.Lang
	}
	return fs, nil
}

// AST returns path's syntax tree, limited to the byte range r if non-nil.
func (x *Explorer) AST(ctx context.Context, path string, rng *[2]int) (*ASTNode, error) {
	r, rel, err := x.resolve(path)
	if err != nil {
		return nil, err
	}
	src, err := readConfined(r.fsys, rel)
	if err != nil {
		return nil, err
	}
	if rng != nil && (rng[0] < 0 || rng[0] > rng[1] || rng[1] > len(src)) {
		return nil, fmt.Errorf("%w: range [%d,%d) of a %d-byte file", ErrBadRequest, rng[0], rng[1], len(src))
	}
	n, err := x.opts.AST(ctx, rel, src, rng)
	if err != nil {
		return nil, fmt.Errorf("ast of %s: %w", rel, err)
	}
	return n, nil
}

func mapIndexErr(what string, err error) error {
	switch {
	case errors.Is(err, index.ErrNotIndexed), errors.Is(err, index.ErrNotFound):
		return fmt.Errorf("%w: %s: %w", ErrNotFound, what, err)
	}
	return err
}

// resolve checks a repository path from the outside world (A1/A8): it must be
// relative, slash-separated, free of "..", NUL, backslashes and leftover
// percent-encoding, and not under .git or .grit. Symlinks are dealt with by
// os.Root when the file is read.
func (x *Explorer) resolve(p string) (*loadedRepo, string, error) {
	r, err := x.repo()
	if err != nil {
		return nil, "", err
	}
	rel, err := CleanRepoPath(p)
	if err != nil {
		return nil, "", err
	}
	return r, rel, nil
}

// CleanRepoPath validates a repository-relative path given by a client and
// returns it cleaned. Errors wrap ErrOutsideRepo (escapes) or ErrBadRequest.
func CleanRepoPath(p string) (string, error) {
	switch {
	case p == "" || p == ".":
		return "", fmt.Errorf("%w: empty path", ErrBadRequest)
	case strings.ContainsAny(p, "\x00\\"):
		return "", fmt.Errorf("%w: %q: NUL or backslash", ErrOutsideRepo, p)
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || filepath.IsAbs(p):
		return "", fmt.Errorf("%w: %q is absolute", ErrOutsideRepo, p)
	}
	low := strings.ToLower(p)
	for _, enc := range []string{"%2e", "%2f", "%5c", "%25", "%00"} {
		if strings.Contains(low, enc) {
			return "", fmt.Errorf("%w: %q is still percent-encoded", ErrOutsideRepo, p)
		}
	}
	for _, part := range strings.Split(p, "/") {
		switch strings.ToLower(strings.TrimRight(part, ". ")) {
		case "":
			if part == ".." {
				return "", fmt.Errorf("%w: %q contains ..", ErrOutsideRepo, p)
			}
		case ".git", ".grit":
			return "", fmt.Errorf("%w: %q is under %s", ErrOutsideRepo, p, part)
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./"), nil
}

// readConfined reads a regular file through root: os.Root refuses "..",
// absolute paths and symlinks that lead out of the repository.
func readConfined(root *os.Root, rel string) ([]byte, error) {
	f, fi, err := span.OpenRegular(root, filepath.FromSlash(rel))
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%w: %s", ErrNotFound, rel)
		case errors.Is(err, span.ErrNotRegular):
			return nil, fmt.Errorf("%w: %s is not a regular file", ErrBadRequest, rel)
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrOutsideRepo, rel, err)
	}
	defer f.Close()
	if fi.Size() > maxFile {
		return nil, fmt.Errorf("%w: %s is %d bytes (limit %d)", ErrBadRequest, rel, fi.Size(), maxFile)
	}
	var b bytes.Buffer
	if _, err := io.Copy(&b, io.LimitReader(f, maxFile+1)); err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return b.Bytes(), nil
}
