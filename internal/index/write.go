package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// writer applies one update inside one write transaction.
type writer struct {
	ix     *Index
	tx     *sql.Tx
	stored map[string]*storedFile

	names    map[string]int64 // interned names (all of them on a bulk load)
	allNames bool
	nextName int64
	nextDef  int64
	nextFile int64

	changedNames map[int64]bool // names whose set of definitions changed
	affected     map[int64]bool // files whose outgoing edges must be recomputed
	newCalls     map[int64][]pendingCall
	bulk         bool
}

// pendingCall is a (caller, callee name) pair of a file parsed now, with its sites.
type pendingCall struct {
	callerID int64
	nameID   int64
	sites    []Call
}

func (w *writer) apply(ctx context.Context, changed []*parsedFile, removed []string) error {
	w.changedNames = map[int64]bool{}
	w.affected = map[int64]bool{}
	w.newCalls = map[int64][]pendingCall{}
	parsed := 0
	for _, c := range changed {
		if c.parsed != nil {
			parsed++
		}
	}
	w.bulk = parsed > 64
	cold := len(w.stored) == 0 && w.bulk
	if err := w.tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM defs`).Scan(&w.nextDef); err != nil {
		return err
	}
	if err := w.tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM files`).Scan(&w.nextFile); err != nil {
		return err
	}
	if err := w.tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM names`).Scan(&w.nextName); err != nil {
		return err
	}
	w.names = map[string]int64{}
	if w.bulk {
		if err := w.loadNames(ctx); err != nil {
			return err
		}
	}
	if cold {
		for _, si := range secondaryIndexes {
			if _, err := w.tx.ExecContext(ctx, "DROP INDEX IF EXISTS "+si.name); err != nil {
				return err
			}
		}
	}
	fileSetChanged := false
	for _, p := range removed {
		if err := w.removeFile(ctx, w.stored[p].id); err != nil {
			return err
		}
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, w.stored[p].id); err != nil {
			return err
		}
		fileSetChanged = true
	}
	ins := newBulk(w.tx, "defs", 16)
	for _, c := range changed {
		old := w.stored[c.seen.path]
		if c.same {
			if _, err := w.tx.ExecContext(ctx, `UPDATE files SET mtime = ? WHERE id = ?`, c.seen.mtime, old.id); err != nil {
				return err
			}
			continue
		}
		id, err := w.upsertFile(ctx, c, old)
		if err != nil {
			return err
		}
		if old == nil || old.skip != "" {
			fileSetChanged = fileSetChanged || c.skip == ""
		} else if c.skip != "" {
			fileSetChanged = true
		}
		if c.parsed == nil {
			if old != nil {
				if err := w.removeFile(ctx, id); err != nil {
					return err
				}
			}
			continue
		}
		if err := w.writeFile(ctx, id, c, old != nil, ins); err != nil {
			return err
		}
	}
	if err := ins.flush(ctx); err != nil {
		return err
	}
	if err := w.writeImports(ctx, changed, fileSetChanged && !cold); err != nil {
		return err
	}
	if cold {
		for _, si := range secondaryIndexes {
			if _, err := w.tx.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS "+si.name+" ON "+si.def); err != nil {
				return err
			}
		}
	}
	return w.recomputeEdges(ctx)
}

func (w *writer) loadNames(ctx context.Context) error {
	rows, err := w.tx.QueryContext(ctx, `SELECT id, name FROM names`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n string
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		w.names[n] = id
	}
	w.allNames = true
	return rows.Err()
}

// nameID interns a name.
func (w *writer) nameID(ctx context.Context, name string) (int64, error) {
	if id, ok := w.names[name]; ok {
		return id, nil
	}
	if !w.allNames {
		var id int64
		err := w.tx.QueryRowContext(ctx, `SELECT id FROM names WHERE name = ?`, name).Scan(&id)
		if err == nil {
			w.names[name] = id
			return id, nil
		}
		if err != sql.ErrNoRows {
			return 0, err
		}
	}
	id := w.nextName
	w.nextName++
	if _, err := w.tx.ExecContext(ctx, `INSERT INTO names(id, name) VALUES(?, ?)`, id, name); err != nil {
		return 0, err
	}
	w.names[name] = id
	return id, nil
}

// removeFile deletes a file's rows (not its files row) and marks what depended on it.
func (w *writer) removeFile(ctx context.Context, id int64) error {
	rows, err := w.tx.QueryContext(ctx, `SELECT DISTINCT name_id FROM defs WHERE file_id = ?`, id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		w.changedNames[n] = true
	}
	rows.Close()
	for _, q := range []string{
		`UPDATE calls SET callee_id = 0 WHERE callee_id IN (SELECT id FROM defs WHERE file_id = ?)`,
		`DELETE FROM defs WHERE file_id = ?`,
		`DELETE FROM calls WHERE file_id = ?`,
		`DELETE FROM imports WHERE file_id = ?`,
		`DELETE FROM refs WHERE file_id = ?`,
		`DELETE FROM file_edges WHERE from_id = ?`,
	} {
		if _, err := w.tx.ExecContext(ctx, q, id); err != nil {
			return err
		}
	}
	// Files that referred to this one get their edges recomputed.
	rows, err = w.tx.QueryContext(ctx, `SELECT from_id FROM file_edges WHERE to_id = ?`, id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var f int64
		if err := rows.Scan(&f); err != nil {
			rows.Close()
			return err
		}
		w.affected[f] = true
	}
	rows.Close()
	_, err = w.tx.ExecContext(ctx, `DELETE FROM file_edges WHERE to_id = ?`, id)
	delete(w.affected, id)
	return err
}

func (w *writer) upsertFile(ctx context.Context, c *parsedFile, old *storedFile) (int64, error) {
	errs := 0
	if c.parsed != nil {
		errs = c.parsed.Errors
	}
	if old != nil {
		_, err := w.tx.ExecContext(ctx, `UPDATE files SET lang = ?, size = ?, mtime = ?, hash = ?, errors = ?, skip = ? WHERE id = ?`,
			c.seen.lang, c.seen.size, c.seen.mtime, c.hash, errs, c.skip, old.id)
		return old.id, err
	}
	id := w.nextFile
	w.nextFile++
	_, err := w.tx.ExecContext(ctx, `INSERT INTO files(id, path, lang, size, mtime, hash, errors, skip) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
		id, c.seen.path, c.seen.lang, c.seen.size, c.seen.mtime, c.hash, errs, c.skip)
	return id, err
}

type oldDef struct {
	id     int64
	key    string
	nameID int64
}

// writeFile replaces one parsed file's definitions (keeping the IDs of those
// whose qualified name and kind survive), calls and references.
func (w *writer) writeFile(ctx context.Context, fileID int64, c *parsedFile, existed bool, ins *bulk) error {
	p := c.parsed
	reuse := map[string][]int64{}
	var olds []oldDef
	if existed {
		rows, err := w.tx.QueryContext(ctx, `SELECT id, qname, kind, name_id FROM defs WHERE file_id = ? ORDER BY start`, fileID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var o oldDef
			var q string
			var k int
			if err := rows.Scan(&o.id, &q, &k, &o.nameID); err != nil {
				rows.Close()
				return err
			}
			o.key = fmt.Sprintf("%s\x00%d", q, k)
			reuse[o.key] = append(reuse[o.key], o.id)
			olds = append(olds, o)
		}
		rows.Close()
		for _, q := range []string{`DELETE FROM defs WHERE file_id = ?`, `DELETE FROM calls WHERE file_id = ?`, `DELETE FROM refs WHERE file_id = ?`} {
			if _, err := w.tx.ExecContext(ctx, q, fileID); err != nil {
				return err
			}
		}
	}
	ids := make([]int64, len(p.Defs))
	byQName := make(map[string]int64, len(p.Defs))
	used := map[int64]bool{}
	for i, d := range p.Defs {
		key := fmt.Sprintf("%s\x00%d", d.QName, kindCode(d.Kind))
		if r := reuse[key]; len(r) > 0 {
			ids[i] = r[0]
			reuse[key] = r[1:]
			used[ids[i]] = true
		} else {
			ids[i] = w.nextDef
			w.nextDef++
		}
		nid, err := w.nameID(ctx, d.Name)
		if err != nil {
			return err
		}
		if !used[ids[i]] {
			w.changedNames[nid] = true // a new definition of this name
		}
		if _, ok := byQName[d.QName]; !ok {
			byQName[d.QName] = ids[i]
		}
		if err := ins.add(ctx, ids[i], fileID, nid, d.QName, kindCode(d.Kind), d.Parent, d.Start, d.End,
			d.NameStart, d.NameEnd, d.StartLine, d.StartCol, d.EndLine, d.EndCol, d.Signature, d.Doc); err != nil {
			return err
		}
	}
	for _, o := range olds {
		if !used[o.id] {
			w.changedNames[o.nameID] = true // a definition that went away
			if _, err := w.tx.ExecContext(ctx, `UPDATE calls SET callee_id = 0 WHERE callee_id = ?`, o.id); err != nil {
				return err
			}
		}
	}
	// Calls: one row per (caller, callee name).
	type key struct {
		caller int64
		name   string
	}
	groups := map[key]int{}
	var pending []pendingCall
	for _, call := range p.Calls {
		k := key{byQName[call.Caller], call.Callee}
		i, ok := groups[k]
		if !ok {
			nid, err := w.nameID(ctx, call.Callee)
			if err != nil {
				return err
			}
			i = len(pending)
			groups[k] = i
			pending = append(pending, pendingCall{callerID: k.caller, nameID: nid})
		}
		pending[i].sites = append(pending[i].sites, call)
	}
	w.newCalls[fileID] = pending
	// References.
	counts := map[string]int{}
	var order []string
	for _, r := range p.Refs {
		if counts[r] == 0 {
			order = append(order, r)
		}
		counts[r]++
	}
	refs := newBulk(w.tx, "refs", 3)
	for _, r := range order {
		nid, err := w.nameID(ctx, r)
		if err != nil {
			return err
		}
		if err := refs.add(ctx, fileID, nid, counts[r]); err != nil {
			return err
		}
	}
	w.affected[fileID] = true
	return refs.flush(ctx)
}

// writeImports stores the imports of parsed files, resolved against the
// files now indexed; when files came or went it re-resolves every import.
func (w *writer) writeImports(ctx context.Context, changed []*parsedFile, reresolve bool) error {
	paths, err := w.indexedPaths(ctx)
	if err != nil {
		return err
	}
	res := newResolver(w.ix.root, paths)
	ids, err := w.fileIDs(ctx)
	if err != nil {
		return err
	}
	if reresolve {
		if err := w.reresolve(ctx, res, ids); err != nil {
			return err
		}
	}
	imps := newBulk(w.tx, "imports", 6)
	for _, c := range changed {
		if c.parsed == nil {
			continue
		}
		fid := ids[c.seen.path]
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM imports WHERE file_id = ?`, fid); err != nil {
			return err
		}
		for _, imp := range c.parsed.Imports {
			resolved := ids[res.resolve(c.seen.lang, c.seen.path, imp)]
			if err := imps.add(ctx, fid, imp.Module, strings.Join(imp.Names, " "), imp.Alias, resolved, imp.Line); err != nil {
				return err
			}
		}
	}
	return imps.flush(ctx)
}

func (w *writer) reresolve(ctx context.Context, res *resolver, ids map[string]int64) error {
	rows, err := w.tx.QueryContext(ctx, `SELECT i.rowid, i.file_id, f.path, f.lang, i.module, i.names, i.resolved_id FROM imports i JOIN files f ON f.id = i.file_id`)
	if err != nil {
		return err
	}
	type upd struct{ rowid, resolved, file int64 }
	var ups []upd
	for rows.Next() {
		var u upd
		var p, lang, module, names string
		if err := rows.Scan(&u.rowid, &u.file, &p, &lang, &module, &names, &u.resolved); err != nil {
			rows.Close()
			return err
		}
		imp := Import{Module: module}
		if names != "" {
			imp.Names = strings.Split(names, " ")
		}
		if r := ids[res.resolve(lang, p, imp)]; r != u.resolved {
			u.resolved = r
			ups = append(ups, u)
		}
	}
	rows.Close()
	for _, u := range ups {
		if _, err := w.tx.ExecContext(ctx, `UPDATE imports SET resolved_id = ? WHERE rowid = ?`, u.resolved, u.rowid); err != nil {
			return err
		}
		w.affected[u.file] = true
	}
	return nil
}

func (w *writer) indexedPaths(ctx context.Context) ([]string, error) {
	rows, err := w.tx.QueryContext(ctx, `SELECT path FROM files WHERE skip = ''`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func (w *writer) fileIDs(ctx context.Context) (map[string]int64, error) {
	rows, err := w.tx.QueryContext(ctx, `SELECT id, path FROM files WHERE skip = ''`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			return nil, err
		}
		out[p] = id
	}
	return out, rows.Err()
}

// bulk batches rows into multi-row INSERTs through one prepared statement.
type bulk struct {
	tx    *sql.Tx
	table string
	cols  int
	rows  int // rows per statement
	args  []any
	stmt  *sql.Stmt
}

func newBulk(tx *sql.Tx, table string, cols int) *bulk {
	return &bulk{tx: tx, table: table, cols: cols, rows: max(1, 900/cols)}
}

func (b *bulk) sql(n int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", b.cols), ",") + ")"
	return "INSERT INTO " + b.table + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

func (b *bulk) add(ctx context.Context, vals ...any) error {
	b.args = append(b.args, vals...)
	if len(b.args) < b.rows*b.cols {
		return nil
	}
	if b.stmt == nil {
		st, err := b.tx.PrepareContext(ctx, b.sql(b.rows))
		if err != nil {
			return err
		}
		b.stmt = st
	}
	_, err := b.stmt.ExecContext(ctx, b.args...)
	b.args = b.args[:0]
	return err
}

func (b *bulk) flush(ctx context.Context) error {
	if b.stmt != nil {
		defer b.stmt.Close()
	}
	if len(b.args) == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(ctx, b.sql(len(b.args)/b.cols), b.args...)
	b.args = b.args[:0]
	return err
}
