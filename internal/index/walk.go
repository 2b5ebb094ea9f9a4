package index

import (
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
)

// seenFile is a source file the walk found.
type seenFile struct {
	path  string // slash, relative to the root
	lang  string
	size  int64
	mtime int64 // Unix nanoseconds
}

// walk lists the source files under root, honouring .gitignore files (nested),
// .git/info/exclude and .gritignore, skipping vendored trees, never following
// a symlinked directory and only following a symlinked file that stays inside
// root. Files over maxSize are returned in skipped.
//
// Directories are read and their files stat'ed on every core, each
// directory with the ignore rules of its ancestors: a warm index of an
// unchanged repository is mostly these system calls (git status spreads
// them over threads too).
func walk(root string, p Parser, maxSize int64) (files []seenFile, skipped []Skipped, goMods []string, err error) {
	base := &ignorer{}
	if f := loadIgnore(filepath.Join(root, ".git", "info", "exclude"), ""); f != nil {
		base.files = append(base.files, f)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("walk %s: %w", root, err)
	}
	w := &walker{realRoot: realRoot, parser: p, maxSize: maxSize,
		sem: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))}
	w.wg.Add(1)
	w.visit(root, "", base)
	w.wg.Wait()
	if w.rootErr != nil {
		return nil, nil, nil, fmt.Errorf("walk %s: %w", root, w.rootErr)
	}
	n := 0
	for _, d := range w.dirs {
		n += len(d.files)
	}
	files = make([]seenFile, 0, n)
	for _, d := range w.dirs {
		files = append(files, d.files...)
		skipped = append(skipped, d.skipped...)
		goMods = append(goMods, d.goMods...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	sort.Slice(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	sort.Strings(goMods)
	return files, skipped, goMods, nil
}

// walker is one walk's shared state; visit runs on many goroutines, at
// most cap(sem) of them reading or stat'ing at once.
type walker struct {
	realRoot string
	parser   Parser
	maxSize  int64
	sem      chan struct{}
	wg       sync.WaitGroup

	mu      sync.Mutex
	dirs    []dirResult // what each directory holds, merged once the walk is done
	rootErr error
}

// dirResult is what visit found in one directory.
type dirResult struct {
	files   []seenFile
	skipped []Skipped
	goMods  []string
}

// visit lists dir (rel from the root; ig holds the rules of its ancestors),
// stats its source files and starts a visit of each subdirectory kept.
func (w *walker) visit(dir, rel string, ig *ignorer) {
	defer w.wg.Done()
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	var files []seenFile
	var skipped []Skipped
	var goMods []string
	defer func() {
		if len(files)+len(skipped)+len(goMods) == 0 {
			return
		}
		w.mu.Lock()
		w.dirs = append(w.dirs, dirResult{files, skipped, goMods})
		w.mu.Unlock()
	}()
	d, err := os.Open(dir)
	var ents []fs.DirEntry
	if err == nil {
		ents, err = d.ReadDir(-1)
		defer d.Close()
	}
	if err != nil {
		if rel == "" {
			w.rootErr = err
			return
		}
		skipped = append(skipped, Skipped{Path: rel, Reason: "unreadable directory: " + errReason(err)})
		return
	}
	// The ignore files of this directory, looked up in its listing rather
	// than opened blindly in every directory, .gritignore's rules after
	// (so over) .gitignore's; the rules are shared with the subdirectories,
	// copied on write.
	var has [2]bool
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		switch e.Name() {
		case ".gitignore":
			has[0] = true
		case ".gritignore":
			has[1] = true
		}
	}
	for i, name := range []string{".gitignore", ".gritignore"} {
		if !has[i] {
			continue
		}
		if f := loadIgnore(filepath.Join(dir, name), rel); f != nil {
			ig = &ignorer{files: append(slices.Clip(ig.files), f)}
		}
	}
	st := newDirStat(d, dir)
	for _, e := range ents {
		name := e.Name()
		r := joinRel(rel, name)
		typ := e.Type()
		if typ.IsDir() {
			if skipDirs[name] || strings.HasSuffix(name, ".egg-info") || ig.match(r, true) {
				continue
			}
			w.wg.Add(1)
			go w.visit(filepath.Join(dir, name), r, ig)
			continue
		}
		if name == "go.mod" && typ.IsRegular() {
			goMods = append(goMods, r)
			continue
		}
		lang := w.parser.Lang(name)
		if lang == "" || ig.match(r, false) {
			continue
		}
		var size, mtime int64
		switch {
		case typ.IsRegular():
			size, mtime, err = st.lstat(name)
		case typ&fs.ModeSymlink != 0:
			full := filepath.Join(dir, name)
			target, lerr := filepath.EvalSymlinks(full)
			if lerr != nil {
				continue // dangling or looping
			}
			if t, rerr := filepath.Rel(w.realRoot, target); rerr != nil || t == ".." || strings.HasPrefix(t, ".."+string(filepath.Separator)) {
				skipped = append(skipped, Skipped{Path: r, Reason: "symlink out of the repository"})
				continue
			}
			info, serr := os.Stat(full)
			if serr == nil && !info.Mode().IsRegular() {
				continue
			}
			err = serr
			if err == nil {
				size, mtime = info.Size(), info.ModTime().UnixNano()
			}
		default:
			continue
		}
		if err != nil {
			skipped = append(skipped, Skipped{Path: r, Reason: "unreadable: " + errReason(err)})
			continue
		}
		if size > w.maxSize {
			skipped = append(skipped, Skipped{Path: r, Reason: fmt.Sprintf("too large (%s > %s)", sizeString(size), sizeString(w.maxSize))})
			continue
		}
		files = append(files, seenFile{path: r, lang: lang, size: size, mtime: mtime})
	}
}

func errReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// sizeString prints a byte count the way people read it: "3.2 MiB".
func sizeString(n int64) string {
	switch {
	case n >= 1<<20:
		s := fmt.Sprintf("%.1f", float64(n)/(1<<20))
		return strings.TrimSuffix(s, ".0") + " MiB"
	case n >= 1<<10:
		s := fmt.Sprintf("%.1f", float64(n)/(1<<10))
		return strings.TrimSuffix(s, ".0") + " KiB"
	}
	return fmt.Sprintf("%d B", n)
}

// lstatPath returns the size and modification time (Unix nanoseconds) of
// the file at path, not following a symlink.
func lstatPath(path string) (size, mtime int64, err error) {
	info, err := os.Lstat(path)
	if err != nil {
		return 0, 0, err
	}
	return info.Size(), info.ModTime().UnixNano(), nil
}
