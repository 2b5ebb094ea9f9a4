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
func walk(root string, p Parser, maxSize int64) (files []seenFile, skipped []Skipped, goMods []string, err error) {
	ig := &ignorer{}
	if f := loadIgnore(filepath.Join(root, ".git", "info", "exclude"), ""); f != nil {
		ig.files = append(ig.files, f)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("walk %s: %w", root, err)
	}
	var pending []pendingFile
	var visit func(dir, rel string) error
	visit = func(dir, rel string) error {
		ents, err := os.ReadDir(dir)
		if err != nil {
			if rel == "" {
				return fmt.Errorf("walk %s: %w", root, err)
			}
			skipped = append(skipped, Skipped{Path: rel, Reason: "unreadable directory: " + errReason(err)})
			return nil
		}
		// The ignore files of this directory, looked up in its listing
		// (sorted by name) rather than opened blindly in every directory.
		pushed := 0
		for _, name := range []string{".gitignore", ".gritignore"} {
			i, ok := slices.BinarySearchFunc(ents, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
			if !ok || ents[i].IsDir() {
				continue
			}
			if f := loadIgnore(filepath.Join(dir, name), rel); f != nil {
				ig.files = append(ig.files, f)
				pushed++
			}
		}
		defer func() { ig.files = ig.files[:len(ig.files)-pushed] }()
		for _, e := range ents {
			name := e.Name()
			r := joinRel(rel, name)
			typ := e.Type()
			if typ.IsDir() {
				if skipDirs[name] || strings.HasSuffix(name, ".egg-info") || ig.match(r, true) {
					continue
				}
				if err := visit(filepath.Join(dir, name), r); err != nil {
					return err
				}
				continue
			}
			if name == "go.mod" && typ.IsRegular() {
				goMods = append(goMods, r)
				continue
			}
			lang := p.Lang(name)
			if lang == "" || ig.match(r, false) {
				continue
			}
			full := filepath.Join(dir, name)
			var info fs.FileInfo
			switch {
			case typ.IsRegular():
				// Stat later, many at once (statAll).
				pending = append(pending, pendingFile{full: full, rel: r, lang: lang, at: len(files)})
				files = append(files, seenFile{})
				continue
			case typ&fs.ModeSymlink != 0:
				target, lerr := filepath.EvalSymlinks(full)
				if lerr != nil {
					continue // dangling or looping
				}
				if t, rerr := filepath.Rel(realRoot, target); rerr != nil || t == ".." || strings.HasPrefix(t, ".."+string(filepath.Separator)) {
					skipped = append(skipped, Skipped{Path: r, Reason: "symlink out of the repository"})
					continue
				}
				info, err = os.Stat(full)
				if err == nil && !info.Mode().IsRegular() {
					continue
				}
			default:
				continue
			}
			if err != nil {
				skipped = append(skipped, Skipped{Path: r, Reason: "unreadable: " + errReason(err)})
				continue
			}
			if info.Size() > maxSize {
				skipped = append(skipped, Skipped{Path: r, Reason: fmt.Sprintf("too large (%s > %s)", sizeString(info.Size()), sizeString(maxSize))})
				continue
			}
			files = append(files, seenFile{path: r, lang: lang, size: info.Size(), mtime: info.ModTime().UnixNano()})
		}
		return nil
	}
	if err := visit(root, ""); err != nil {
		return nil, nil, nil, err
	}
	// Fill the regular files' slots; drop those that vanished or are too large.
	infos, errs := statAll(pending)
	for i, pf := range pending {
		switch info := infos[i]; {
		case errs[i] != nil:
			skipped = append(skipped, Skipped{Path: pf.rel, Reason: "unreadable: " + errReason(errs[i])})
		case info.Size() > maxSize:
			skipped = append(skipped, Skipped{Path: pf.rel, Reason: fmt.Sprintf("too large (%s > %s)", sizeString(info.Size()), sizeString(maxSize))})
		default:
			files[pf.at] = seenFile{path: pf.rel, lang: pf.lang, size: info.Size(), mtime: info.ModTime().UnixNano()}
			continue
		}
		files[pf.at].path = "" // dropped below
	}
	files = slices.DeleteFunc(files, func(f seenFile) bool { return f.path == "" })
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	return files, skipped, goMods, nil
}

// pendingFile is a regular file the walk kept, waiting for its stat; at is
// its slot in the walk's files.
type pendingFile struct {
	full, rel, lang string
	at              int
}

// statAll lstats the files on every core: a warm index of an unchanged
// repository is mostly these system calls (git status spreads them over
// threads too).
func statAll(files []pendingFile) ([]fs.FileInfo, []error) {
	infos := make([]fs.FileInfo, len(files))
	errs := make([]error, len(files))
	workers := min(runtime.GOMAXPROCS(0), (len(files)+255)/256)
	if workers <= 1 {
		for i, f := range files {
			infos[i], errs[i] = os.Lstat(f.full)
		}
		return infos, errs
	}
	var wg sync.WaitGroup
	per := (len(files) + workers - 1) / workers
	for lo := 0; lo < len(files); lo += per {
		hi := min(lo+per, len(files))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				infos[i], errs[i] = os.Lstat(files[i].full)
			}
		}()
	}
	wg.Wait()
	return infos, errs
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
