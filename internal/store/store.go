// Package store opens Grit's SQLite databases: pragmas are set in one place
// (Open: WAL, a busy timeout, NORMAL sync, immediate write transactions),
// schemas are versioned by PRAGMA user_version and brought up to date by
// ordered migrations, and writes go through Write, one transaction each.
//
// A *DB is safe for concurrent use. Several processes may open one database
// at once: readers never block in WAL mode and writers wait for each other up
// to the busy timeout instead of failing with "database is locked".
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Errors that callers branch on.
var (
	// ErrCorrupt marks a database file that is damaged or not SQLite at all.
	ErrCorrupt = errors.New("database is corrupt")
	// ErrNewerSchema marks a database written by a newer Grit.
	ErrNewerSchema = errors.New("database schema is newer than this grit")
	// ErrForeign marks a valid SQLite database that Grit did not create.
	ErrForeign = errors.New("database was not created by grit")
)

// BusyTimeout is how long a writer waits for another before giving up.
const BusyTimeout = 60 * time.Second

// Schema is one database's tables: an application id that marks the file as
// Grit's and the migrations in order; migration i brings user_version from i
// to i+1.
type Schema struct {
	AppID      int32
	Migrations []string
}

// driverName is mattn/go-sqlite3 with Grit's per-connection settings:
// reads through a memory map (up to mmapSize) rather than a read system
// call and a copy per page. A short-lived 'grit index' reads pages scattered
// over the database with a cold cache; on sympy one edited file went from
// 42 to 33 ms with the map. Only SQLite ever shortens these files, and it
// checks the size before it reads through the map.
const driverName = "sqlite3_grit"

const mmapSize = 256 << 20

// The write-ahead log file outlives the last connection, emptied (SQLite's
// persistent WAL with journal_size_limit 0) rather than deleted: the next
// process that writes does not create it again, and SQLite then need not
// fsync the directory for a new file, which cost 4 ms of a one-file 'grit
// index' here. Empty, it costs readers nothing: a log with frames left in
// it would be read back by every open and checkpointed by every close.
const fcntlPersistWAL = 10 // SQLITE_FCNTL_PERSIST_WAL

func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec(fmt.Sprintf("PRAGMA mmap_size = %d; PRAGMA journal_size_limit = 0", mmapSize), nil)
			if err != nil {
				return err
			}
			return c.SetFileControlInt("main", fcntlPersistWAL, 1)
		},
	})
}

// DB is an open database.
type DB struct {
	*sql.DB
	Path string
}

// Open opens (creating if needed) the database at path and migrates it to
// schema. A damaged file gives an error wrapping ErrCorrupt, a newer one
// ErrNewerSchema, someone else's ErrForeign; MoveAside sets such a file aside.
func Open(ctx context.Context, path string, schema Schema) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	q.Set("_foreign_keys", "0")
	q.Set("_cache_size", fmt.Sprint(-cacheKiB))
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	// SQLite answers "database is locked" without waiting when waiting
	// could deadlock: processes creating the same database at once race to
	// switch it to WAL. Such an open is tried again, for up to BusyTimeout.
	deadline := time.Now().Add(BusyTimeout)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		db, err := open(ctx, path, dsn, schema)
		if err == nil || !isBusy(err) || time.Now().Add(wait).After(deadline) {
			return db, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(wait):
		}
	}
}

func open(ctx context.Context, path, dsn string, schema Schema) (*DB, error) {
	sdb, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	sdb.SetMaxOpenConns(4)
	sdb.SetMaxIdleConns(4)
	db := &DB{DB: sdb, Path: path}
	if err := db.migrate(ctx, schema); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// isBusy reports whether err is SQLite's "database is locked" or "table is locked".
func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

func (db *DB) migrate(ctx context.Context, schema Schema) error {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return classify(err)
	}
	want := len(schema.Migrations)
	if version > want {
		return fmt.Errorf("%w (version %d, this grit knows up to %d)", ErrNewerSchema, version, want)
	}
	var app int32
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return classify(err)
	}
	if app != 0 && app != schema.AppID {
		return fmt.Errorf("%w (application id %#x)", ErrForeign, app)
	}
	if version == want {
		// Touch the schema so a truncated file shows up now, not mid-query.
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
			return classify(err)
		}
		if version > 0 && n == 0 {
			return fmt.Errorf("%w (schema version %d but no tables)", ErrCorrupt, version)
		}
		return nil
	}
	return db.Write(ctx, func(tx *Tx) error {
		// Re-read under the write lock: another process may have migrated.
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
			return classify(err)
		}
		if version == 0 {
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
				return classify(err)
			}
			if n > 0 && app != schema.AppID {
				return fmt.Errorf("%w (%d tables and no grit schema version)", ErrForeign, n)
			}
		}
		for i := version; i < want; i++ {
			if _, err := tx.ExecContext(ctx, schema.Migrations[i]); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, classify(err))
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", want)); err != nil {
			return classify(err)
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", schema.AppID))
		return classify(err)
	})
}

// Tx is a write transaction, on a connection of its own.
type Tx struct {
	*sql.Tx
	conn  *sql.Conn
	grown bool // GrowCache was called: Write sets the cache back
}

// cacheKiB is each connection's page cache.
const cacheKiB = 4000

// GrowCache lets the page caches of tx's connection (the database's and
// that of its temporary tables) hold kib KiB each until the transaction
// ends (Write sets them back after the commit). A bulk load that
// fits in it writes each page once, at the commit: with the usual cache a
// cold index of sympy (a 13.6 MB database) spilled pages to the log and
// read them back, 16,000 writes and 7,700 reads against 10,000 and 3,300.
func (tx *Tx) GrowCache(ctx context.Context, kib int) error {
	if kib <= cacheKiB {
		return nil
	}
	_, err := tx.ExecContext(ctx, cacheSizeSQL(kib))
	tx.grown = err == nil
	return err
}

// cacheSizeSQL sets a connection's page caches to kib KiB each.
func cacheSizeSQL(kib int) string {
	return fmt.Sprintf("PRAGMA cache_size = %[1]d; PRAGMA temp.cache_size = %[1]d", -kib)
}

// Raw runs f with the transaction's driver connection, as sql.Conn.Raw:
// for statements run too often for database/sql's per-argument checks.
func (tx *Tx) Raw(f func(driverConn any) error) error {
	return Classify(tx.conn.Raw(f))
}

// ScanRaw is DB.ScanRaw inside the transaction: it sees its writes.
func (tx *Tx) ScanRaw(ctx context.Context, query string, fn func(vals []driver.Value) error, args ...any) error {
	return scanRaw(ctx, tx.conn, query, fn, args)
}

// Write runs fn in one write transaction (BEGIN IMMEDIATE: it waits for other
// writers, up to BusyTimeout, before it starts rather than failing midway).
func (db *DB) Write(ctx context.Context, fn func(*Tx) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin write: %w", classify(err))
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write: %w", classify(err))
	}
	t := &Tx{Tx: tx, conn: conn}
	defer func() {
		if t.grown {
			// Back to the usual size, which frees the rest: a failure
			// here leaves only a bigger cache, and the connection works.
			conn.ExecContext(context.WithoutCancel(ctx), cacheSizeSQL(cacheKiB))
		}
	}()
	if err := fn(t); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", classify(err))
	}
	return nil
}

// IntegrityCheck runs PRAGMA integrity_check and returns an error wrapping
// ErrCorrupt unless it says ok.
func (db *DB) IntegrityCheck(ctx context.Context) error {
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res); err != nil {
		return classify(err)
	}
	if res != "ok" {
		return fmt.Errorf("%w: %s", ErrCorrupt, res)
	}
	return nil
}

// IsCorrupt reports whether err means the file should be moved aside and
// rebuilt: damaged, not a database, newer, or foreign.
func IsCorrupt(err error) bool {
	return errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNewerSchema) || errors.Is(err, ErrForeign)
}

// classify wraps SQLite's corruption codes in ErrCorrupt.
func classify(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB) {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}

// Classify is classify for callers that run their own statements: it wraps
// SQLite's corruption errors in ErrCorrupt and returns others unchanged.
func Classify(err error) error { return classify(err) }

// MoveAside renames path (and its -wal and -shm files) to
// path.corrupt-<unix nanoseconds> and returns the new name. Only the
// newest KeepMovedAside copies are kept: a database that keeps going bad
// (or a repository that ships a bad one) must not fill the disk.
func MoveAside(path string) (string, error) {
	dst := fmt.Sprintf("%s.corrupt-%d", path, time.Now().UnixNano())
	if err := os.Rename(path, dst); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("move aside %s: %w", path, err)
	}
	for _, sfx := range []string{"-wal", "-shm"} {
		os.Rename(path+sfx, dst+sfx)
	}
	pruneMovedAside(path)
	return dst, nil
}

// KeepMovedAside is how many moved-aside copies of a database are kept
// for a look at what went wrong.
const KeepMovedAside = 3

// pruneMovedAside removes all but the newest KeepMovedAside copies.
func pruneMovedAside(path string) {
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return
	}
	prefix := filepath.Base(path) + ".corrupt-"
	type copy struct {
		name string
		when int64
	}
	var copies []copy
	for _, e := range ents {
		stamp, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(stamp, 10, 64); err == nil {
			copies = append(copies, copy{e.Name(), n})
		}
	}
	if len(copies) <= KeepMovedAside {
		return
	}
	// Stamps of old copies are in seconds, new ones in nanoseconds.
	norm := func(n int64) int64 {
		if n < 1e12 {
			return n * 1e9
		}
		return n
	}
	sort.Slice(copies, func(i, j int) bool { return norm(copies[i].when) > norm(copies[j].when) })
	for _, c := range copies[KeepMovedAside:] {
		for _, sfx := range []string{"", "-wal", "-shm"} {
			os.Remove(filepath.Join(filepath.Dir(path), c.name+sfx))
		}
	}
}

// ScanRaw runs query (with args: ints, strings, byte slices) on one
// connection and calls fn with each row's values as the driver gives them:
// int64, float64, string, []byte or nil; fn must not keep the slice. It skips database/sql's per-row locking and
// conversions, three times the cost of the driver itself: for full scans
// run on every update, such as the list of indexed files.
func (db *DB) ScanRaw(ctx context.Context, query string, fn func(vals []driver.Value) error, args ...any) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return Classify(err)
	}
	defer conn.Close()
	return scanRaw(ctx, conn, query, fn, args)
}

func scanRaw(ctx context.Context, conn *sql.Conn, query string, fn func(vals []driver.Value) error, args []any) error {
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: DriverValue(a)}
	}
	return Classify(conn.Raw(func(dc any) error {
		q, ok := dc.(driver.QueryerContext)
		if !ok {
			return fmt.Errorf("scan: the driver cannot query a connection")
		}
		rows, err := q.QueryContext(ctx, query, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		vals := make([]driver.Value, len(rows.Columns()))
		for {
			if err := rows.Next(vals); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if err := fn(vals); err != nil {
				return err
			}
		}
	}))
}

// DriverValue is v as the driver takes it: an int becomes an int64;
// int64, float64, bool, string, []byte and nil pass as they are.
func DriverValue(v any) driver.Value {
	if n, ok := v.(int); ok {
		return int64(n)
	}
	return v
}
