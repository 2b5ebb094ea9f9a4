package index

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/grit-dev/grit/internal/store"
)

// bulkCacheKiB is the page cache of an update that writes many files: what
// a cold index of a repository of sympy's size writes fits in it.
const bulkCacheKiB = 32 << 10

// writer applies one update inside one write transaction: begin, then add
// for each file read (in path order, as parsing streams them in), then finish.
type writer struct {
	ix     *Index
	tx     *store.Tx
	stored map[string]*storedFile

	names    map[string]int64 // interned names (all of them on a bulk load)
	allNames bool
	nextName int64
	nextDef  int64
	nextFile int64
	bulk     bool // many files: load what is needed once instead of per file
	cold     bool // an empty index: secondary indexes are built at the end

	changedNames   map[int64]bool // names whose set of definitions changed
	affected       map[int64]bool // stored files whose calls must be resolved again
	newCalls       map[int64]packedCalls
	newImports     []pendingImports
	fileSetChanged bool
	defsAdded      int64 // definitions written less those deleted: finish adds it to meta

	callsTable string // where resolveCalls inserts: "calls", or a cold build's load table

	// coldDefs is a cold build's definitions as it writes them, with ids
	// from coldFirstDef on: what resolveCalls would otherwise read back from
	// the database (50 ms of a cold index of sympy).
	coldDefs     []namedDef
	coldFirstDef int64

	// A cold build resolves each file's imports as it writes them, against
	// every file it was given (coldIDs: path → the id it will get); if one
	// of them ends up skipped (coldSkipped) that file set was wrong, and
	// finish resolves them all again.
	coldIDs     map[string]int64
	coldRes     *resolver
	coldSkipped bool
	// coldImported is what those imports resolved to, file → files: what
	// resolveCalls would otherwise read back (unless coldSkipped).
	coldImported map[int64]map[int64]bool

	defIns, refIns, nameIns, impIns *bulk

	need    []string      // writeFile's names to intern, reused
	counts  map[int64]int // writeFile's reference counts, reused
	insFile *sql.Stmt     // prepared once: one row per file

	prepared map[int64]*oldRows // by file id: read while the file was parsed
}

// packedCalls are a parsed file's calls waiting to be resolved and written,
// packed in one buffer (a cold build holds every file's until the end): per
// (caller, callee name) pair in key order, uvarint caller id, name id, the
// length of its sites and the sites as appendSite packs them.
type packedCalls []byte

// packCalls groups calls by (caller definition, callee name) in key order.
func packCalls(calls []Call, byQName map[string]int64, names map[string]int64) packedCalls {
	type row struct {
		caller, name int64
		call         *Call
	}
	rows := make([]row, len(calls))
	for i := range calls {
		rows[i] = row{byQName[calls[i].Caller], names[calls[i].Callee], &calls[i]}
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := cmp.Compare(a.caller, b.caller); c != 0 {
			return c
		}
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Compare(a.call.Offset, b.call.Offset)
	})
	buf := make([]byte, 0, 8*len(rows))
	var sites []byte
	for i := 0; i < len(rows); {
		j := i
		sites = sites[:0]
		off, line := 0, 0
		for ; j < len(rows) && rows[j].caller == rows[i].caller && rows[j].name == rows[i].name; j++ {
			c := rows[j].call
			sites = appendSite(sites, off, line, c.Offset, c.Line)
			off, line = c.Offset, c.Line
		}
		buf = binary.AppendUvarint(buf, uint64(rows[i].caller))
		buf = binary.AppendUvarint(buf, uint64(rows[i].name))
		buf = binary.AppendUvarint(buf, uint64(len(sites)))
		buf = append(buf, sites...)
		i = j
	}
	return buf
}

// each calls fn for each packed (caller, callee name) pair, in key order.
func (p packedCalls) each(fn func(caller, name int64, sites []byte) error) error {
	b := []byte(p)
	next := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			b = nil
			return 0
		}
		b = b[n:]
		return v
	}
	for len(b) > 0 {
		caller, name, n := int64(next()), int64(next()), int(next())
		if n > len(b) {
			return fmt.Errorf("packed calls: truncated")
		}
		if err := fn(caller, name, b[:n:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// pendingImports are a parsed file's imports, resolved once every file is in.
type pendingImports struct {
	fileID  int64
	path    string
	lang    string
	imports []Import
}

// begin prepares for the toRead files to come, in that order, and removes
// the removed ones.
func (w *writer) begin(ctx context.Context, toRead []seenFile, removed []string) error {
	w.changedNames = map[int64]bool{}
	w.affected = map[int64]bool{}
	w.newCalls = map[int64]packedCalls{}
	w.bulk = len(toRead) > 64
	w.callsTable = "calls"
	w.cold = len(w.stored) == 0 && w.bulk
	for _, q := range []struct {
		sql string
		v   *int64
	}{
		{`SELECT coalesce(max(id), 0) + 1 FROM defs`, &w.nextDef},
		{`SELECT coalesce(max(id), 0) + 1 FROM files`, &w.nextFile},
		{`SELECT coalesce(max(id), 0) + 1 FROM names`, &w.nextName},
	} {
		if err := w.tx.QueryRowContext(ctx, q.sql).Scan(q.v); err != nil {
			return err
		}
	}
	w.names = map[string]int64{}
	if w.bulk {
		if err := w.tx.GrowCache(ctx, bulkCacheKiB); err != nil {
			return err
		}
		if err := w.loadNames(ctx); err != nil {
			return err
		}
	}
	if w.cold {
		for _, si := range secondaryIndexes {
			if _, err := w.tx.ExecContext(ctx, "DROP INDEX IF EXISTS "+si.name); err != nil {
				return err
			}
		}
	}
	w.defIns = newBulk(w.tx, "defs", 15)
	w.refIns = newBulk(w.tx, "refs", 2)
	w.nameIns = newBulk(w.tx, "names", 2)
	w.impIns = newBulk(w.tx, "imports", 7)
	if w.cold {
		// Loaded into a temporary table and copied at the end, as calls
		// are (finish): a WITHOUT ROWID b-tree filled row by row in key
		// order is left a seventh empty.
		if _, err := w.tx.ExecContext(ctx, `CREATE TEMP TABLE imports_load(`+importsColumns+`) WITHOUT ROWID`); err != nil {
			return err
		}
		w.impIns = newBulk(w.tx, "temp.imports_load", 7)
		w.coldIDs = make(map[string]int64, len(toRead))
		paths := make([]string, len(toRead))
		var size int64
		for i, s := range toRead {
			w.coldIDs[s.path] = w.nextFile + int64(i)
			paths[i] = s.path
			size += s.size
		}
		w.coldRes = newResolver(w.ix.root, paths)
		w.coldImported = map[int64]map[int64]bool{}
		// Sized once, for a definition per 512 bytes (sympy has one per 650).
		w.coldDefs = make([]namedDef, 0, size/512)
		w.coldFirstDef = w.nextDef
	}
	for _, p := range removed {
		id := w.stored[p].id
		if err := w.removeFile(ctx, id); err != nil {
			return err
		}
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, id); err != nil {
			return err
		}
		w.fileSetChanged = true
	}
	return nil
}

// add writes one file read by this update.
func (w *writer) add(ctx context.Context, c *parsedFile) error {
	old := w.stored[c.seen.path]
	if c.same {
		_, err := w.tx.ExecContext(ctx, `UPDATE files SET mtime = ? WHERE id = ?`, c.seen.mtime, old.id)
		return err
	}
	id, err := w.upsertFile(ctx, c, old)
	if err != nil {
		return err
	}
	if w.cold && (c.skip != "" || w.coldIDs[c.seen.path] != id) {
		w.coldSkipped = true
	}
	if old == nil || old.skip != "" {
		w.fileSetChanged = w.fileSetChanged || c.skip == ""
	} else if c.skip != "" {
		w.fileSetChanged = true
	}
	if c.parsed == nil {
		if old != nil {
			return w.removeFile(ctx, id)
		}
		return nil
	}
	return w.writeFile(ctx, id, c, old != nil)
}

// finish stores the imports, builds the secondary indexes of a cold build,
// resolves the calls of every affected file and updates the counts.
func (w *writer) finish(ctx context.Context) error {
	if w.defsAdded != 0 {
		if _, err := w.tx.ExecContext(ctx, `UPDATE meta SET value = value + ? WHERE key = 'defs'`, w.defsAdded); err != nil {
			return err
		}
	}
	if w.insFile != nil {
		w.insFile.Close()
	}
	for _, b := range []*bulk{w.nameIns, w.defIns, w.refIns} {
		err := b.flush(ctx)
		b.close()
		if err != nil {
			return err
		}
	}
	if err := w.writeImports(ctx, w.fileSetChanged && !w.cold || w.coldSkipped); err != nil {
		return err
	}
	w.newImports = nil // a bulk update's are megabytes: not held while calls resolve
	if !w.cold {
		return w.resolveCalls(ctx)
	}
	// A cold build loads calls into a temporary table and copies it into
	// the empty calls table in one INSERT ... SELECT *, which SQLite does
	// page by page (as VACUUM does): full pages, an eighth smaller than
	// row-by-row inserts into a WITHOUT ROWID b-tree leave it. Secondary
	// indexes are built last, from sorted data, for the same reason.
	if _, err := w.tx.ExecContext(ctx, `CREATE TEMP TABLE calls_load(`+callsColumns+`) WITHOUT ROWID`); err != nil {
		return err
	}
	w.callsTable = "temp.calls_load"
	if err := w.resolveCalls(ctx); err != nil {
		return err
	}
	for _, q := range []string{`INSERT INTO main.calls SELECT * FROM temp.calls_load`, `DROP TABLE temp.calls_load`} {
		if _, err := w.tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	for _, si := range secondaryIndexes {
		if _, err := w.tx.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS "+si.name+" ON "+si.def); err != nil {
			return err
		}
	}
	return nil
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

// intern makes sure every name has an id in w.names: those not known yet
// are looked up in batches, and the rest inserted.
func (w *writer) intern(ctx context.Context, names []string) error {
	var missing []string
	for _, n := range names {
		if _, ok := w.names[n]; !ok {
			missing = append(missing, n)
		}
	}
	if !w.allNames {
		keys := make([]any, len(missing))
		for i, n := range missing {
			keys[i] = n
		}
		if err := w.loadNamesBy(ctx, "name", keys); err != nil {
			return err
		}
		missing = missing[:0]
		for _, n := range names {
			if _, ok := w.names[n]; !ok {
				missing = append(missing, n)
			}
		}
	}
	for _, n := range missing {
		if _, ok := w.names[n]; ok {
			continue // listed twice
		}
		w.names[n] = w.nextName
		if err := w.nameIns.add(ctx, w.nextName, n); err != nil {
			return err
		}
		w.nextName++
	}
	if !w.bulk {
		// Small updates read names back (resolveCalls): make them visible now.
		return w.nameIns.flush(ctx)
	}
	return nil
}

// loadFileNames adds to w.names the names file's stored definitions, calls
// and references use. Call it before the file's rows are deleted.
func (w *writer) loadFileNames(ctx context.Context, file int64) error {
	ids := map[int64]bool{}
	var blob []byte
	err := w.tx.QueryRowContext(ctx, `SELECT names FROM refs WHERE file_id = ?`, file).Scan(&blob)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	decodeRefs(blob, func(id int64, _ int) { ids[id] = true })
	rows, err := w.tx.QueryContext(ctx, `SELECT name_id FROM defs WHERE file_id = ?1 UNION SELECT name_id FROM calls WHERE file_id = ?1`, file)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	list := make([]any, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	return w.loadNamesBy(ctx, "id", list)
}

// loadNamesBy adds to w.names the names whose column (id or name) is one of
// keys, looked up in chunks.
func (w *writer) loadNamesBy(ctx context.Context, column string, keys []any) error {
	for len(keys) > 0 {
		chunk := keys[:min(len(keys), 500)]
		keys = keys[len(chunk):]
		rows, err := w.tx.QueryContext(ctx, `SELECT id, name FROM names WHERE `+column+` IN (`+placeholders(len(chunk))+`)`, chunk...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			var n string
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return err
			}
			w.names[n] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// deleteDefs deletes a file's definitions, counting them.
func (w *writer) deleteDefs(ctx context.Context, file int64) error {
	res, err := w.tx.ExecContext(ctx, `DELETE FROM defs WHERE file_id = ?`, file)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	w.defsAdded -= n
	return err
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
	if _, err := w.tx.ExecContext(ctx, `UPDATE calls SET callee_id = 0 WHERE callee_id != 0 AND callee_id IN (SELECT id FROM defs WHERE file_id = ?)`, id); err != nil {
		return err
	}
	if err := w.deleteDefs(ctx, id); err != nil {
		return err
	}
	for _, q := range []string{
		`DELETE FROM calls WHERE file_id = ?`,
		`DELETE FROM imports WHERE file_id = ?`,
		`DELETE FROM refs WHERE file_id = ?`,
	} {
		if _, err := w.tx.ExecContext(ctx, q, id); err != nil {
			return err
		}
	}
	delete(w.affected, id)
	return nil
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
	if w.insFile == nil {
		st, err := w.tx.PrepareContext(ctx, `INSERT INTO files(id, path, path_key, lang, size, mtime, hash, errors, skip) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return 0, err
		}
		w.insFile = st
	}
	_, err := w.insFile.ExecContext(ctx, id, c.seen.path, pathKey(c.seen.path), c.seen.lang, c.seen.size, c.seen.mtime, c.hash, errs, c.skip)
	return id, err
}

type oldDef struct {
	id     int64
	key    string
	nameID int64
}

// oldRows is what writeFile needs of a file's stored rows before it
// replaces them: its definitions, by qualified name and kind (whose IDs
// survive the edit), and its names known in w.names.
type oldRows struct {
	reuse map[string][]int64
	defs  []oldDef
}

// prepare reads what writeFile will need of path's stored rows, if the
// index has the file: the writer does it while the file is still parsed.
func (w *writer) prepare(ctx context.Context, path string) error {
	old := w.stored[path]
	if old == nil || old.skip != "" || w.prepared[old.id] != nil {
		return nil
	}
	o, err := w.readOld(ctx, old.id)
	if err != nil {
		return err
	}
	if w.prepared == nil {
		w.prepared = map[int64]*oldRows{}
	}
	w.prepared[old.id] = o
	return nil
}

// oldRows is file's rows as prepare read them, or as read now.
func (w *writer) oldRows(ctx context.Context, file int64) (*oldRows, error) {
	if o := w.prepared[file]; o != nil {
		delete(w.prepared, file)
		return o, nil
	}
	return w.readOld(ctx, file)
}

func (w *writer) readOld(ctx context.Context, file int64) (*oldRows, error) {
	o := &oldRows{reuse: map[string][]int64{}}
	rows, err := w.tx.QueryContext(ctx, `SELECT d.id, `+qnameSQL+`, d.kind, d.name_id FROM defs d JOIN names n ON n.id = d.name_id WHERE d.file_id = ? ORDER BY d.start`, file)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var d oldDef
		var q string
		var k int
		if err := rows.Scan(&d.id, &q, &k, &d.nameID); err != nil {
			rows.Close()
			return nil, err
		}
		d.key = fmt.Sprintf("%s\x00%d", q, k)
		o.reuse[d.key] = append(o.reuse[d.key], d.id)
		o.defs = append(o.defs, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !w.allNames {
		// What an edited file refers to mostly did before: know those
		// names by id (rowid lookups) so only new ones are searched by text.
		if err := w.loadFileNames(ctx, file); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// writeFile replaces one parsed file's definitions (keeping the IDs of those
// whose qualified name and kind survive), calls and references.
func (w *writer) writeFile(ctx context.Context, fileID int64, c *parsedFile, existed bool) error {
	p := c.parsed
	reuse := map[string][]int64{}
	var olds []oldDef
	if existed {
		old, err := w.clearFile(ctx, fileID)
		if err != nil {
			return err
		}
		reuse, olds = old.reuse, old.defs
	}
	if err := w.internFile(ctx, p); err != nil {
		return err
	}
	byQName, err := w.writeDefs(ctx, fileID, p.Defs, reuse, olds)
	if err != nil {
		return err
	}
	// Calls: one row per (caller, callee name), written once resolved.
	w.newCalls[fileID] = packCalls(p.Calls, byQName, w.names)
	if err := w.writeRefs(ctx, fileID, p); err != nil {
		return err
	}
	if err := w.storeImports(ctx, fileID, c, existed); err != nil {
		return err
	}
	delete(w.affected, fileID) // its calls are resolved from newCalls
	return nil
}

// clearFile reads a stored file's old rows and deletes its definitions,
// calls and references.
func (w *writer) clearFile(ctx context.Context, fileID int64) (*oldRows, error) {
	old, err := w.oldRows(ctx, fileID)
	if err != nil {
		return nil, err
	}
	if err := w.deleteDefs(ctx, fileID); err != nil {
		return nil, err
	}
	for _, q := range []string{`DELETE FROM calls WHERE file_id = ?`, `DELETE FROM refs WHERE file_id = ?`} {
		if _, err := w.tx.ExecContext(ctx, q, fileID); err != nil {
			return nil, err
		}
	}
	return old, nil
}

// internFile interns every name the file needs in one go.
func (w *writer) internFile(ctx context.Context, p *Parsed) error {
	need := slices.Grow(w.need[:0], len(p.Defs)+len(p.Calls)+len(p.Refs))
	defer func() { clear(need); w.need = need[:0] }()
	for _, d := range p.Defs {
		need = append(need, d.Name)
	}
	for _, call := range p.Calls {
		need = append(need, call.Callee)
	}
	need = append(need, p.Refs...)
	return w.intern(ctx, need)
}

// writeDefs inserts a file's definitions, reusing the IDs of olds by
// qualified name and kind, and returns the ID of each qualified name.
func (w *writer) writeDefs(ctx context.Context, fileID int64, defs []Def, reuse map[string][]int64, olds []oldDef) (map[string]int64, error) {
	w.defsAdded += int64(len(defs))
	byQName := make(map[string]int64, len(defs))
	used := map[int64]bool{}
	for _, d := range defs {
		var id int64
		var key string
		if len(reuse) > 0 {
			key = fmt.Sprintf("%s\x00%d", d.QName, kindCode(d.Kind))
		}
		if r := reuse[key]; len(r) > 0 {
			id = r[0]
			reuse[key] = r[1:]
			used[id] = true
		} else {
			id = w.nextDef
			w.nextDef++
		}
		nid := w.names[d.Name]
		if !used[id] && !w.cold { // a cold build resolves every call anyway
			w.changedNames[nid] = true // a new definition of this name
		}
		if _, ok := byQName[d.QName]; !ok {
			byQName[d.QName] = id
		}
		parent := storedParent(d)
		if w.cold {
			w.coldDefs = append(w.coldDefs, namedDef{nid, defLite{id: id, file: fileID, start: int64(d.Start), parent: parent}})
		}
		if err := w.defIns.add(ctx, id, fileID, nid, parent, kindCode(d.Kind), d.Start, d.End,
			d.NameStart, d.NameEnd, d.StartLine, d.StartCol, d.EndLine, d.EndCol, d.Signature, d.Doc); err != nil {
			return nil, err
		}
	}
	for _, o := range olds {
		if !used[o.id] {
			w.changedNames[o.nameID] = true // a definition that went away
			if _, err := w.tx.ExecContext(ctx, `UPDATE calls SET callee_id = 0 WHERE callee_id = ?1 AND callee_id != 0`, o.id); err != nil {
				return nil, err
			}
		}
	}
	if !w.bulk {
		if err := w.defIns.flush(ctx); err != nil {
			return nil, err
		}
	}
	return byQName, nil
}

// writeRefs stores a file's references: one blob of (name id, count) pairs.
func (w *writer) writeRefs(ctx context.Context, fileID int64, p *Parsed) error {
	counts := w.counts
	if counts == nil {
		counts = map[int64]int{}
		w.counts = counts
	}
	defer clear(counts)
	for i, r := range p.Refs {
		n := 1
		if i < len(p.RefCounts) {
			n = p.RefCounts[i]
		}
		counts[w.names[r]] += n
	}
	if len(counts) == 0 {
		return nil
	}
	if err := w.refIns.add(ctx, fileID, encodeRefs(counts)); err != nil {
		return err
	}
	if !w.bulk {
		return w.refIns.flush(ctx)
	}
	return nil
}

// storedParent is what the database keeps of d's qualified name: the part
// before ".Name" (QName is Parent.Name for every parser's definitions). A
// definition named by its whole qualified name (Elixir's defmodule
// Shop.Cart) has no parent: cutting at its last dot would store Shop.Shop.Cart.
func storedParent(d Def) string {
	if d.QName == d.Name {
		return ""
	}
	if q, ok := strings.CutSuffix(d.QName, "."+d.Name); ok {
		return q
	}
	return parentOf(d.QName)
}

// encodeRefs packs (name id, count) pairs by name id as varint deltas.
func encodeRefs(counts map[int64]int) []byte {
	ids := make([]int64, 0, len(counts))
	for id := range counts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	buf := make([]byte, 0, 3*len(ids))
	prev := int64(0)
	for _, id := range ids {
		buf = binary.AppendUvarint(buf, uint64(id-prev))
		buf = binary.AppendUvarint(buf, uint64(counts[id]))
		prev = id
	}
	return buf
}

// decodeRefs calls fn for each (name id, count) pair of encodeRefs' output,
// in name id order.
func decodeRefs(b []byte, fn func(name int64, count int)) {
	id := int64(0)
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			return
		}
		b = b[n:]
		c, m := binary.Uvarint(b)
		if m <= 0 {
			return
		}
		b = b[m:]
		id += int64(d)
		fn(id, int(c))
	}
}
