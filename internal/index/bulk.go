package index

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/grit-dev/grit/internal/store"
)

// bulk batches rows into multi-row INSERTs through one prepared statement,
// run on the transaction's driver connection: a cold build of sympy binds
// some two million values, and database/sql's checks and conversions of
// each cost more than SQLite's binding.
type bulk struct {
	tx    *store.Tx
	table string
	cols  int
	rows  int // rows per statement
	args  []driver.NamedValue
	stmt  driver.Stmt // of the driver connection: used only inside tx.Raw
}

func newBulk(tx *store.Tx, table string, cols int) *bulk {
	return &bulk{tx: tx, table: table, cols: cols, rows: max(1, 900/cols)}
}

func (b *bulk) sql(n int) string {
	row := "(" + placeholders(b.cols) + ")"
	return "INSERT INTO " + b.table + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

// add buffers one row: ints, int64s, strings and byte slices.
func (b *bulk) add(ctx context.Context, vals ...any) error {
	for _, v := range vals {
		b.args = append(b.args, driver.NamedValue{Ordinal: len(b.args) + 1, Value: store.DriverValue(v)})
	}
	if len(b.args) < b.rows*b.cols {
		return nil
	}
	return b.exec(ctx, true)
}

// flush writes the rows still buffered; the bulk stays usable.
func (b *bulk) flush(ctx context.Context) error {
	if len(b.args) == 0 {
		return nil
	}
	return b.exec(ctx, false)
}

// exec runs the buffered rows: through the kept statement when they fill
// it, else through one made for them.
func (b *bulk) exec(ctx context.Context, full bool) error {
	err := b.tx.Raw(func(dc any) error {
		pc, ok := dc.(driver.ConnPrepareContext)
		if !ok {
			return fmt.Errorf("bulk insert: the driver cannot prepare")
		}
		st := b.stmt
		if !full || st == nil {
			s, err := pc.PrepareContext(ctx, b.sql(len(b.args)/b.cols))
			if err != nil {
				return err
			}
			if full {
				b.stmt = s
			} else {
				defer s.Close()
			}
			st = s
		}
		ec, ok := st.(driver.StmtExecContext)
		if !ok {
			return fmt.Errorf("bulk insert: the driver cannot execute")
		}
		_, err := ec.ExecContext(ctx, b.args)
		return err
	})
	clear(b.args)
	b.args = b.args[:0]
	return err
}

// close releases the prepared statement.
func (b *bulk) close() {
	if b.stmt != nil {
		b.tx.Raw(func(any) error { return b.stmt.Close() })
		b.stmt = nil
	}
}
