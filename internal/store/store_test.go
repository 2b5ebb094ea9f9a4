package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"
)

var testSchema = Schema{AppID: 0x54455354, Migrations: []string{
	"CREATE TABLE a(x INTEGER)",
	"CREATE TABLE b(y TEXT)",
}}

func TestOpenMigrates(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "sub", "t.db")
	db, err := Open(ctx, p, Schema{AppID: testSchema.AppID, Migrations: testSchema.Migrations[:1]})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(ctx, p, testSchema)
	if err != nil {
		t.Fatalf("Open with a new migration = %v", err)
	}
	defer db.Close()
	var v int
	db.QueryRow("PRAGMA user_version").Scan(&v)
	if v != 2 {
		t.Errorf("user_version = %d, want 2", v)
	}
	var mode string
	db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	var mmap int64
	db.QueryRow("PRAGMA mmap_size").Scan(&mmap)
	if mmap != mmapSize {
		t.Errorf("mmap_size = %d, want %d", mmap, mmapSize)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func TestOpenBadFiles(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(p string)
		want  error
	}{
		{"not a database", func(p string) { os.WriteFile(p, []byte(strings.Repeat("garbage!", 1000)), 0o644) }, ErrCorrupt},
		{"newer", func(p string) {
			db, _ := Open(ctx, p, testSchema)
			db.Exec("PRAGMA user_version = 7")
			db.Close()
		}, ErrNewerSchema},
		{"foreign", func(p string) {
			db, _ := Open(ctx, p, Schema{AppID: 1, Migrations: []string{"CREATE TABLE z(q)"}})
			db.Close()
		}, ErrForeign},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t.db")
			tt.setup(p)
			_, err := Open(ctx, p, testSchema)
			if !errors.Is(err, tt.want) || !IsCorrupt(err) {
				t.Fatalf("Open(%s) = %v, want %v", tt.name, err, tt.want)
			}
			dst, err := MoveAside(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dst); err != nil {
				t.Errorf("moved file %s: %v", dst, err)
			}
			db, err := Open(ctx, p, testSchema)
			if err != nil {
				t.Fatalf("Open after MoveAside = %v", err)
			}
			db.Close()
		})
	}
}

func TestIsBusy(t *testing.T) {
	busy := fmt.Errorf("migrate: %w", sqlite3.Error{Code: sqlite3.ErrBusy})
	if !isBusy(busy) || !isBusy(sqlite3.Error{Code: sqlite3.ErrLocked}) {
		t.Error("isBusy(database is locked) = false")
	}
	if isBusy(sqlite3.Error{Code: sqlite3.ErrCorrupt}) || isBusy(errors.New("database is locked")) {
		t.Error("isBusy(other errors) = true")
	}
}

// TestWALKeptEmpty: the write-ahead log file stays when the last connection
// closes, empty, and the data is in the database.
func TestWALKeptEmpty(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "t.db")
	for i := range 2 {
		db, err := Open(ctx, p, testSchema)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO b(y) VALUES('row')"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM b").Scan(&n); err != nil || n != i+1 {
			t.Fatalf("open %d: %d rows, %v; want %d", i, n, err, i+1)
		}
		db.Close()
		fi, err := os.Stat(p + "-wal")
		if err != nil || fi.Size() != 0 {
			t.Fatalf("after Close the log is %v, %v; want it kept and empty", fi, err)
		}
	}
}

// TestGrowCache: a write transaction's connection holds the grown page
// caches until the transaction ends, and is back to the usual one after it,
// whether the transaction commits or fails.
func TestGrowCache(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "t.db"), testSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // every statement below runs on the same connection
	cacheSize := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) int {
		t.Helper()
		var main, temp int
		if err := q.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&main); err != nil {
			t.Fatal(err)
		}
		if err := q.QueryRowContext(ctx, "PRAGMA temp.cache_size").Scan(&temp); err != nil {
			t.Fatal(err)
		}
		if main != temp {
			t.Errorf("cache_size %d, temp.cache_size %d: want them equal", main, temp)
		}
		return main
	}
	for _, fail := range []bool{false, true} {
		err := db.Write(ctx, func(tx *Tx) error {
			if err := tx.GrowCache(ctx, 32<<10); err != nil {
				return err
			}
			if got := cacheSize(tx); got != -32<<10 {
				t.Errorf("inside the transaction cache_size = %d, want %d", got, -32<<10)
			}
			if fail {
				return errors.New("no")
			}
			return nil
		})
		if (err != nil) != fail {
			t.Fatalf("Write(fail=%v) = %v", fail, err)
		}
		if got := cacheSize(db); got != -cacheKiB {
			t.Errorf("after the transaction (fail=%v) cache_size = %d, want %d", fail, got, -cacheKiB)
		}
	}
}
