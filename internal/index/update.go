package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/grit-dev/grit/internal/store"
	"golang.org/x/sync/semaphore"
)

// storedFile is a files row as the update sees it.
type storedFile struct {
	id    int64
	lang  string
	size  int64
	mtime int64
	hash  []byte
	skip  string
}

// releaser is a Parser that can free what it keeps for the next parse.
type releaser interface{ Release() }

// parsedFile is one file read (and parsed) by this update.
type parsedFile struct {
	seen   seenFile
	hash   []byte
	parsed *Parsed
	skip   string // why it is not indexed
	same   bool   // content unchanged: only the mtime moved
}

// Update brings the index up to date with the working tree, incrementally.
func (ix *Index) Update(ctx context.Context) (Stats, error) {
	return ix.run(ctx, nil)
}

// UpdateFiles re-indexes the named files (relative paths) right away, e.g. after an edit.
func (ix *Index) UpdateFiles(ctx context.Context, paths ...string) error {
	if len(paths) == 0 {
		return nil
	}
	rels := make([]string, 0, len(paths))
	for _, p := range paths {
		r, err := ix.rel(p)
		if err != nil {
			return fmt.Errorf("update files: %w", err)
		}
		rels = append(rels, r)
	}
	_, err := ix.run(ctx, rels)
	return err
}

// run takes the index lock and updates; a database found corrupt midway is
// moved aside and the update redone from scratch once.
func (ix *Index) run(ctx context.Context, only []string) (Stats, error) {
	start, cpu0 := time.Now(), processCPU()
	unlock, err := ix.lock()
	if err != nil {
		return Stats{}, err
	}
	st, err := ix.update(ctx, only)
	if err != nil && store.IsCorrupt(err) {
		ix.db.Close()
		dst, merr := store.MoveAside(ix.dbPath)
		if merr != nil {
			unlock()
			return Stats{}, merr
		}
		ix.warn(fmt.Sprintf("index database unusable (%v): moved aside to %s and rebuilding", err, dst))
		db, oerr := store.Open(ctx, ix.dbPath, schema)
		if oerr != nil {
			unlock()
			return Stats{}, fmt.Errorf("reopen index: %w", oerr)
		}
		ix.db = db
		st, err = ix.update(ctx, nil)
	}
	unlock()
	st.Duration, st.CPU = time.Since(start), processCPU()-cpu0
	if st.Seen > 0 {
		st.ReuseRate = float64(st.Reused) / float64(st.Seen)
	}
	return st, err
}

// processCPU is the process's user+system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lock takes the exclusive update lock (.grit/index.lock) that serialises
// writers across processes; readers never take it.
func (ix *Index) lock() (func(), error) {
	f, err := os.OpenFile(filepath.Join(ix.root, ".grit", "index.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("index lock: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// loadStored reads what the index knows of every file, except the content
// hashes: a warm update compares sizes and mtimes, and only the few files
// it reads need their hash (loadHashes). Every row is read on every
// update, so it is read raw from the driver, into one slab of records with
// the few distinct language names and skip reasons shared.
func (ix *Index) loadStored(ctx context.Context) (map[string]*storedFile, error) {
	var n int
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM files`).Scan(&n); err != nil {
		return nil, store.Classify(err)
	}
	slab := make([]storedFile, 0, n)
	out := make(map[string]*storedFile, n)
	words := texts{}
	err := ix.db.ScanRaw(ctx, `SELECT id, path, lang, size, mtime, skip FROM files`, func(v []driver.Value) error {
		id, _ := v[0].(int64)
		size, _ := v[3].(int64)
		mtime, _ := v[4].(int64)
		if len(slab) == cap(slab) { // a file added since the count
			slab = make([]storedFile, 0, 16)
		}
		slab = append(slab, storedFile{id: id, lang: words.of(v[2]), size: size, mtime: mtime, skip: words.of(v[5])})
		out[rawText(v[1])] = &slab[len(slab)-1]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// rawText is a TEXT column's value as the driver gives it.
func rawText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return ""
}

// texts keeps one copy of each TEXT value read raw: columns whose few
// values repeat over thousands of rows (languages, parents).
type texts map[string]string

func (t texts) of(v any) string {
	s := rawText(v)
	if k, ok := t[s]; ok {
		return k
	}
	t[s] = s
	return s
}

// loadHashes fills in the stored content hash of each file to read that the
// index has: a file whose mtime moved but whose bytes did not is not parsed.
func loadHashes(ctx context.Context, tx querier, stored map[string]*storedFile, toRead []seenFile) error {
	byID := map[int64]*storedFile{}
	for _, s := range toRead {
		if old := stored[s.path]; old != nil {
			byID[old.id] = old
		}
	}
	if len(byID) == 0 {
		return nil
	}
	q := `SELECT id, hash FROM files`
	var args []any
	if len(byID) <= 64 {
		for id := range byID {
			args = append(args, id)
		}
		q += ` WHERE id IN (` + placeholders(len(args)) + `)`
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var h []byte
		if err := rows.Scan(&id, &h); err != nil {
			return err
		}
		if old := byID[id]; old != nil {
			old.hash = h
		}
	}
	return rows.Err()
}

func (ix *Index) update(ctx context.Context, only []string) (Stats, error) {
	var st Stats
	start := time.Now() // before any file is stat'ed: see racyWindow
	// The walk (system calls) and reading the stored files (SQLite) are
	// independent: a warm update is mostly the two, so they overlap.
	type walked struct {
		seen    []seenFile
		skipped []Skipped
		err     error
	}
	var walkc chan walked
	if only == nil {
		walkc = make(chan walked, 1)
		go func() {
			var w walked
			w.seen, w.skipped, _, w.err = walk(ix.root, ix.parser, ix.opts.MaxFileSize, filepath.Join(ix.root, ".grit", dirCacheName))
			walkc <- w
		}()
	}
	stored, err := ix.loadStored(ctx)
	if err != nil {
		if walkc != nil {
			<-walkc
		}
		return st, fmt.Errorf("update: %w", err)
	}
	var seen []seenFile
	var removed []string
	if only == nil {
		w := <-walkc
		if w.err != nil {
			return st, w.err
		}
		seen = w.seen
		st.Skipped = append(st.Skipped, w.skipped...)
		removed = goneFiles(seen, stored)
	} else {
		seen, removed, st.Skipped = ix.statOnly(only, stored)
	}
	sort.Strings(removed)
	toRead := toReadOf(seen, removed, stored, start, &st)
	if len(toRead) > 0 || len(removed) > 0 {
		// Files are parsed on all cores and streamed, in path order, to the
		// one writer: only a window of parse results is held in memory.
		// Parsing starts before the write transaction, and the writer reads
		// what it needs of a file's stored rows while the file is parsed.
		// The hashes are read first, outside the transaction: the index
		// lock keeps other writers out.
		if err := loadHashes(ctx, ix.db, stored, toRead); err != nil {
			return st, fmt.Errorf("update: %w", store.Classify(err))
		}
		ps := ix.startParse(ctx, toRead, stored)
		defer ps.stop()
		w := &writer{ix: ix, stored: stored}
		err := ix.db.Write(ctx, func(tx *store.Tx) error {
			w.tx = tx
			if err := w.begin(ctx, toRead, removed); err != nil {
				return err
			}
			err := ps.each(ix.opts.Progress, func(i int) error {
				return w.prepare(ctx, toRead[i].path)
			}, func(r *parsedFile) error {
				switch {
				case r.same:
					st.Reused++
				case r.skip != "":
					st.Skipped = append(st.Skipped, Skipped{Path: r.seen.path, Reason: r.skip})
				default:
					st.Parsed++
					if r.parsed != nil && r.parsed.Capped != "" {
						st.Capped = append(st.Capped, Skipped{Path: r.seen.path, Reason: r.parsed.Capped})
					}
				}
				return w.add(ctx, r)
			})
			if err != nil {
				return err
			}
			ps.stop()
			if r, ok := ix.parser.(releaser); ok && w.bulk {
				r.Release()
			}
			return w.finish(ctx)
		})
		if err != nil {
			if ctx.Err() != nil {
				return st, ctx.Err()
			}
			return st, fmt.Errorf("update: %w", store.Classify(err))
		}
	}
	if err := ix.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'defs'`).Scan(&st.Defs); err != nil {
		return st, fmt.Errorf("update: %w", store.Classify(err))
	}
	sort.Slice(st.Skipped, func(i, j int) bool { return st.Skipped[i].Path < st.Skipped[j].Path })
	sort.Slice(st.Capped, func(i, j int) bool { return st.Capped[i].Path < st.Capped[j].Path })
	return st, nil
}

// goneFiles are the stored files the walk did not see. Files are gone when
// fewer stored ones are seen than are stored (paths are unique): only then
// is the set built.
func goneFiles(seen []seenFile, stored map[string]*storedFile) (removed []string) {
	found := 0
	for _, s := range seen {
		if _, ok := stored[s.path]; ok {
			found++
		}
	}
	if found == len(stored) {
		return nil
	}
	onDisk := make(map[string]bool, len(seen))
	for _, s := range seen {
		onDisk[s.path] = true
	}
	for p := range stored {
		if !onDisk[p] {
			removed = append(removed, p)
		}
	}
	return removed
}

// toReadOf returns the seen files whose size, mtime or language differ
// from what is stored, in path order, and counts the rest (and the
// removed) in st.
func toReadOf(seen []seenFile, removed []string, stored map[string]*storedFile, start time.Time, st *Stats) []seenFile {
	st.Seen = len(seen)
	var toRead []seenFile
	for _, s := range seen {
		if old, ok := stored[s.path]; ok && old.size == s.size && old.mtime == s.mtime && old.lang == s.lang {
			st.Reused++
			if old.skip != "" {
				st.Skipped = append(st.Skipped, Skipped{Path: s.path, Reason: old.skip})
			}
			continue
		}
		toRead = append(toRead, s)
	}
	// The writer takes files in path order; the walk gives them in none.
	slices.SortFunc(toRead, func(a, b seenFile) int { return strings.Compare(a.path, b.path) })
	// A file modified too close to this update may be modified again with
	// its mtime unchanged: it is stored with its mtime negated, which no
	// stat matches, so the next update reads and hashes it again.
	for i := range toRead {
		if racy(toRead[i].mtime, start) {
			toRead[i].mtime = -toRead[i].mtime
		}
	}
	for _, p := range removed {
		if stored[p].skip == "" {
			st.Removed++
		}
	}
	return toRead
}

// statOnly is the walk of UpdateFiles: just the named paths.
func (ix *Index) statOnly(paths []string, stored map[string]*storedFile) (seen []seenFile, removed []string, skipped []Skipped) {
	// Through an os.Root, as the walk does: a symlink that leads out of the
	// repository (or a path with "..") is not indexed when named either.
	root, rerr := os.OpenRoot(ix.root)
	if rerr == nil {
		defer root.Close()
	}
	for _, p := range paths {
		lang := ix.parser.Lang(p)
		var fi os.FileInfo
		err := rerr
		if err == nil {
			fi, err = root.Stat(filepath.FromSlash(p))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) && lang != "" {
			if _, lerr := os.Lstat(filepath.Join(ix.root, filepath.FromSlash(p))); lerr == nil {
				skipped = append(skipped, Skipped{Path: p, Reason: "not inside the repository: " + errReason(err)})
			}
		}
		switch {
		case err != nil || !fi.Mode().IsRegular() || lang == "":
			if _, ok := stored[p]; ok {
				removed = append(removed, p)
			}
		case fi.Size() > ix.opts.MaxFileSize:
			skipped = append(skipped, Skipped{Path: p, Reason: fmt.Sprintf("too large (%s > %s)", sizeString(fi.Size()), sizeString(ix.opts.MaxFileSize))})
			if _, ok := stored[p]; ok {
				removed = append(removed, p)
			}
		default:
			seen = append(seen, seenFile{path: p, lang: lang, size: fi.Size(), mtime: fi.ModTime().UnixNano()})
		}
	}
	return seen, removed, skipped
}

// The parse window: at most windowFiles per worker and windowBytes of
// source are read but not yet written.
const (
	windowFiles = 32
	windowBytes = 8 << 20
)

// parseStream reads and parses files on all cores, in the background from
// the moment it is made; its results are taken in input order with each.
// At most a window of results waits in memory.
type parseStream struct {
	files             []seenFile
	slots             []chan *parsedFile // buffered: a worker never blocks on a slot
	changed           []chan struct{}    // buffered: signalled when a file read differs from what is stored
	weight            func(i int) int64
	inFlight, inBytes *semaphore.Weighted
	ctx               context.Context
	cancel            context.CancelFunc
	wg                sync.WaitGroup
}

// startParse starts reading and parsing files (compared with stored) on
// all cores; stop must follow.
func (ix *Index) startParse(ctx context.Context, files []seenFile, stored map[string]*storedFile) *parseStream {
	n := len(files)
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	ps := &parseStream{files: files, slots: make([]chan *parsedFile, n)}
	ps.ctx, ps.cancel = context.WithCancel(ctx)
	for i := range ps.slots {
		ps.slots[i] = make(chan *parsedFile, 1)
	}
	if len(stored) > 0 { // else each has nothing to do for a file in its idle time
		ps.changed = make([]chan struct{}, n)
		for i := range ps.changed {
			ps.changed[i] = make(chan struct{}, 1)
		}
	}
	// The window: results wait for the writer in order, so a big file
	// holds back all that were parsed after it. A window of 4 files a
	// worker left the other core idle behind each one: a cold index of
	// sympy took about 7% longer than with 64. This one is wide in files
	// and bounded in bytes.
	ps.inFlight = semaphore.NewWeighted(windowFiles * int64(workers))
	ps.inBytes = semaphore.NewWeighted(windowBytes)
	ps.weight = func(i int) int64 { return min(max(files[i].size, 1), windowBytes) }
	jobs := make(chan int)
	ps.wg.Go(func() {
		defer close(jobs)
		for i := range n {
			if ps.inFlight.Acquire(ps.ctx, 1) != nil || ps.inBytes.Acquire(ps.ctx, ps.weight(i)) != nil {
				return
			}
			select {
			case jobs <- i:
			case <-ps.ctx.Done():
				return
			}
		}
	})
	for range workers {
		ps.wg.Go(func() {
			for i := range jobs {
				var changed func()
				if ps.changed != nil {
					changed = func() { ps.changed[i] <- struct{}{} }
				}
				ps.slots[i] <- ix.readOne(ps.ctx, files[i], stored[files[i].path], changed)
			}
		})
	}
	return ps
}

// stop ends the stream (its workers and feeder stop) and waits for it.
func (ps *parseStream) stop() {
	ps.cancel()
	ps.wg.Wait()
}

// each calls fn with every result in input order, from the calling
// goroutine; an error from fn stops it. While file i is being parsed (its
// content differs from what is stored) it calls idle(i) first, if set: work
// that does not need the result.
func (ps *parseStream) each(progress func(done, total int), idle func(i int) error, fn func(*parsedFile) error) error {
	n := len(ps.files)
	for i := range n {
		r, err := ps.next(i, idle)
		if err != nil {
			return err
		}
		if err := ps.ctx.Err(); err != nil {
			return err // r may be "interrupted"
		}
		ps.inFlight.Release(1)
		ps.inBytes.Release(ps.weight(i))
		if progress != nil {
			progress(i+1, n)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// next waits for file i's result, running idle(i) while the file is parsed.
func (ps *parseStream) next(i int, idle func(i int) error) (*parsedFile, error) {
	select {
	case r := <-ps.slots[i]:
		return r, nil
	default:
	}
	if idle != nil && ps.changed != nil {
		select {
		case <-ps.changed[i]:
			if err := idle(i); err != nil {
				return nil, err
			}
		case r := <-ps.slots[i]: // unchanged, unreadable: read, not parsed
			return r, nil
		case <-ps.ctx.Done():
			return nil, ps.ctx.Err()
		}
	}
	select {
	case r := <-ps.slots[i]:
		return r, nil
	case <-ps.ctx.Done():
		return nil, ps.ctx.Err()
	}
}

// srcBufs are readOne's file buffers, reused: a cold index reads the whole
// repository (28 MB on sympy), and a Parser keeps nothing of what it parses.
var srcBufs = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// readOne reads, hashes and (unless its content is as stored) parses one
// file; changed, if set, is called as soon as the content is known to differ.
func (ix *Index) readOne(ctx context.Context, s seenFile, old *storedFile, changed func()) *parsedFile {
	r := &parsedFile{seen: s}
	bp := srcBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 2<<20 {
			srcBufs.Put(bp)
		}
	}()
	src, err := readFile(filepath.Join(ix.root, filepath.FromSlash(s.path)), (*bp)[:0], s.size)
	*bp = src
	if err != nil {
		r.skip = "unreadable: " + errReason(err)
		r.hash = []byte{}
		return r
	}
	r.seen.size = int64(len(src))
	sum := sha256.Sum256(src)
	r.hash = sum[:]
	if old != nil && old.skip == "" && old.lang == s.lang && bytes.Equal(old.hash, r.hash) {
		r.same = true
		return r
	}
	if changed != nil {
		changed()
	}
	if bytes.IndexByte(src[:min(len(src), 8<<10)], 0) >= 0 {
		r.skip = "binary"
		return r
	}
	// The budget is the parser's, in CPU time: a deadline on the clock
	// would skip files, for good, whenever the machine is busy or the
	// process stopped.
	p, err := ix.parser.Parse(ctx, s.path, src)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			r.skip = "interrupted"
		case errors.Is(err, ErrParseBudget):
			r.skip = fmt.Sprintf("parse budget exceeded (%s of CPU time)", ix.opts.FileBudget)
		default:
			r.skip = err.Error()
		}
		return r
	}
	r.parsed = p
	return r
}

func hashHex(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}
