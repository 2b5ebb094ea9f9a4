package index

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/span"
	"github.com/grit-dev/grit/internal/store"
)

// Sentinel errors callers branch on.
var (
	ErrNotIndexed = errors.New("file is not in the index")
	ErrStale      = errors.New("file changed since it was indexed")
	ErrNotFound   = errors.New("no such definition")
)

// Index is an open repository index. Open it through app.OpenIndex, which
// supplies the tree-sitter Parser.
type Index struct {
	root   string
	parser Parser
	opts   Options
	dbPath string
	db     *store.DB
}

// pathKey is the files.path_key of a path: its 32-bit FNV-1a hash cut to
// 31 bits, which SQLite stores in 4 bytes. A file is looked up by path as
// byPath says, through the index of these keys.
func pathKey(path string) int64 {
	h := fnv.New32a()
	h.Write([]byte(path))
	return int64(h.Sum32() & 0x7fffffff)
}

// byPath is the condition that selects the files row f of a path, given
// pathKey(path) and path as its two arguments (pathArgs).
const byPath = `f.path_key = ? AND f.path = ?`

func pathArgs(path string) []any { return []any{pathKey(path), path} }

// DBPath is where the index of root lives.
func DBPath(root string) string { return filepath.Join(root, ".grit", "index.db") }

// Open opens (creating if needed) root/.grit/index.db. It does not index;
// call Update. A corrupt or foreign database is moved aside and rebuilt with a
// warning through opts.Warn.
func Open(ctx context.Context, root string, p Parser, opts Options) (*Index, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	fi, err := os.Stat(abs)
	switch {
	case err != nil:
		return nil, fmt.Errorf("open index: %w", err)
	case !fi.IsDir():
		return nil, fmt.Errorf("open index: %s is not a directory", abs)
	}
	if _, err := os.ReadDir(abs); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = 1 << 20
	}
	if opts.FileBudget <= 0 {
		opts.FileBudget = 2 * time.Second
	}
	ix := &Index{root: abs, parser: p, opts: opts, dbPath: DBPath(abs)}
	if err := ix.ensureGritDir(); err != nil {
		return nil, err
	}
	if err := ix.openDB(ctx); err != nil {
		return nil, err
	}
	return ix, nil
}

// ensureGritDir creates .grit with a .gitignore of "*" so git never shows it.
func (ix *Index) ensureGritDir() error {
	dir := filepath.Join(ix.root, ".grit")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(gi, []byte("*\n"), 0o644); err != nil {
			return fmt.Errorf("open index: %w", err)
		}
	}
	return nil
}

// openDB opens the database, moving a corrupt, newer or foreign one aside.
func (ix *Index) openDB(ctx context.Context) error {
	db, err := store.Open(ctx, ix.dbPath, schema)
	if err != nil && store.IsCorrupt(err) {
		if err := ix.recover(err); err != nil {
			return err
		}
		db, err = store.Open(ctx, ix.dbPath, schema)
	}
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	ix.db = db
	return nil
}

// recover moves a bad database aside (under the index lock) and warns.
func (ix *Index) recover(cause error) error {
	unlock, err := ix.lock()
	if err != nil {
		return err
	}
	defer unlock()
	dst, err := store.MoveAside(ix.dbPath)
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	ix.warn(fmt.Sprintf("index database unusable (%v): moved aside to %s and rebuilding", cause, dst))
	return nil
}

func (ix *Index) warn(msg string) {
	if ix.opts.Warn != nil {
		ix.opts.Warn(msg)
	}
}

// Root is the absolute repository root.
func (ix *Index) Root() string { return ix.root }

// DB is the index's database, for packages that query it directly (search).
func (ix *Index) DB() *store.DB { return ix.db }

// Close closes the database.
func (ix *Index) Close() error {
	if ix.db == nil {
		return nil
	}
	return ix.db.Close()
}

// rel turns a user path (absolute, or relative to the root) into a repository path.
func (ix *Index) rel(p string) (string, error) {
	if filepath.IsAbs(p) {
		return span.Rel(ix.root, p)
	}
	return span.Clean(p), nil
}

// Files lists every indexed file, sorted by path.
func (ix *Index) Files(ctx context.Context) ([]File, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, lang, size, mtime, hash FROM files WHERE skip = '' ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("files: %w", err)
	}
	defer rows.Close()
	var out []File
	for rows.Next() {
		f, err := scanFile(rows)
		if err != nil {
			return nil, fmt.Errorf("files: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

func scanFile(s interface{ Scan(...any) error }) (File, error) {
	var f File
	var mtime int64
	var hash []byte
	if err := s.Scan(&f.Path, &f.Lang, &f.Size, &mtime, &hash); err != nil {
		return f, err
	}
	f.MTime = time.Unix(0, max(mtime, -mtime)) // negated: racy, see racyWindow
	f.Hash = fmt.Sprintf("%x", hash)
	return f, nil
}

// File returns one indexed file, or ErrNotIndexed.
func (ix *Index) File(ctx context.Context, path string) (File, error) {
	rel, err := ix.rel(path)
	if err != nil {
		return File{}, err
	}
	f, err := scanFile(ix.db.QueryRowContext(ctx, `SELECT path, lang, size, mtime, hash FROM files f WHERE `+byPath+` AND skip = ''`, pathArgs(rel)...))
	if errors.Is(err, sql.ErrNoRows) {
		return File{}, fmt.Errorf("%s: %w", rel, ErrNotIndexed)
	}
	if err != nil {
		return File{}, fmt.Errorf("file %s: %w", rel, err)
	}
	return f, nil
}

// defColumns selects a Def; defFromRow reads it.
const defColumns = `d.id, f.path, f.lang, n.name, d.parent, d.kind, d.start, d."end",
	d.name_start, d.name_end, d.start_line, d.start_col, d.end_line, d.end_col, d.signature, d.doc
	FROM defs d JOIN files f ON f.id = d.file_id JOIN names n ON n.id = d.name_id`

var kindNames = []string{KindFunction, KindMethod, KindClass, KindVariable}

func kindCode(k string) int {
	for i, n := range kindNames {
		if n == k {
			return i
		}
	}
	return 0
}

func (ix *Index) queryDefs(ctx context.Context, op, where string, args ...any) ([]Def, error) {
	// Read raw from the driver: search reads every definition (43,000 rows
	// of 16 columns on sympy) when it builds its corpus.
	var out []Def
	err := ix.db.ScanRaw(ctx, "SELECT "+defColumns+" "+where, func(v []driver.Value) error {
		out = append(out, defFromRow(v))
		return nil
	}, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return out, nil
}

// defFromRow reads a row of defColumns as the driver gives it.
func defFromRow(v []driver.Value) Def {
	i := func(k int) int { n, _ := v[k].(int64); return int(n) }
	d := Def{
		Path: rawText(v[1]), Lang: rawText(v[2]), Name: rawText(v[3]), Parent: rawText(v[4]),
		Start: i(6), End: i(7), NameStart: i(8), NameEnd: i(9),
		StartLine: i(10), StartCol: i(11), EndLine: i(12), EndCol: i(13),
		Signature: rawText(v[14]), Doc: rawText(v[15]),
	}
	d.ID, _ = v[0].(int64)
	d.QName = d.Name
	if d.Parent != "" {
		d.QName = d.Parent + "." + d.Name
	}
	if kind := i(5); kind >= 0 && kind < len(kindNames) {
		d.Kind = kindNames[kind]
	}
	return d
}

// Symbols returns the definitions of one file in source order.
func (ix *Index) Symbols(ctx context.Context, path string) ([]Def, error) {
	rel, err := ix.rel(path)
	if err != nil {
		return nil, err
	}
	if _, err := ix.File(ctx, rel); err != nil {
		return nil, err
	}
	return ix.queryDefs(ctx, "symbols", `WHERE `+byPath+` ORDER BY d.start, d."end" DESC`, pathArgs(rel)...)
}

// AllDefs returns every definition in the repository (the search scores them all).
func (ix *Index) AllDefs(ctx context.Context) ([]Def, error) {
	return ix.queryDefs(ctx, "all defs", `ORDER BY f.path, d.start`)
}

// Lookup finds definitions by name: a bare name ("get"), a qualified name
// ("Session.get"), or "path::qname". Sorted by path then start.
func (ix *Index) Lookup(ctx context.Context, name string) ([]Def, error) {
	if p, q, ok := strings.Cut(name, "::"); ok {
		return ix.queryDefs(ctx, "lookup", `WHERE `+byPath+` AND n.name = ? AND d.parent = ? ORDER BY f.path, d.start`,
			append(pathArgs(span.Clean(p)), q[strings.LastIndexByte(q, '.')+1:], parentOf(q))...)
	}
	if strings.Contains(name, ".") {
		last := name[strings.LastIndexByte(name, '.')+1:]
		parent := parentOf(name)
		return ix.queryDefs(ctx, "lookup", `WHERE n.name = ? AND (d.parent = ? OR d.parent LIKE ? ESCAPE '\') ORDER BY f.path, d.start`,
			last, parent, "%."+likeEscape(parent))
	}
	return ix.queryDefs(ctx, "lookup", `WHERE n.name = ? ORDER BY f.path, d.start`, name)
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// DefByID returns one definition, or ErrNotFound.
func (ix *Index) DefByID(ctx context.Context, id int64) (Def, error) {
	ds, err := ix.queryDefs(ctx, fmt.Sprintf("definition %d", id), "WHERE d.id = ?", id)
	if err != nil {
		return Def{}, err
	}
	if len(ds) == 0 {
		return Def{}, fmt.Errorf("definition %d: %w", id, ErrNotFound)
	}
	return ds[0], nil
}

// DefAt returns the innermost definition of path containing byte offset off.
func (ix *Index) DefAt(ctx context.Context, path string, off int) (Def, bool, error) {
	rel, err := ix.rel(path)
	if err != nil {
		return Def{}, false, err
	}
	ds, err := ix.queryDefs(ctx, fmt.Sprintf("def at %s:%d", rel, off),
		`WHERE `+byPath+` AND d.start <= ? AND d."end" > ? ORDER BY d.start DESC, d."end" ASC LIMIT 1`, append(pathArgs(rel), off, off)...)
	if err != nil || len(ds) == 0 {
		return Def{}, false, err
	}
	return ds[0], true, nil
}

// Source returns d's exact bytes, read from disk. If the file changed since it
// was indexed (size, mtime or hash), it returns an error wrapping ErrStale.
func (ix *Index) Source(ctx context.Context, d Def) ([]byte, error) {
	f, err := ix.File(ctx, d.Path)
	if err != nil {
		return nil, err
	}
	full := filepath.Join(ix.root, filepath.FromSlash(f.Path))
	src, err := span.ReadFile(full, 0)
	if err != nil {
		return nil, fmt.Errorf("source of %s: %w", d.QName, err)
	}
	if int64(len(src)) != f.Size || hashHex(src) != f.Hash {
		return nil, fmt.Errorf("source of %s in %s: %w", d.QName, f.Path, ErrStale)
	}
	if d.Start < 0 || d.End > len(src) || d.Start > d.End {
		return nil, fmt.Errorf("source of %s: range [%d,%d) outside %s: %w", d.QName, d.Start, d.End, f.Path, ErrStale)
	}
	return src[d.Start:d.End], nil
}
