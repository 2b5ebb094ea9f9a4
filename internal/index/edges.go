package index

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/grit-dev/grit/internal/store"
)

// Edge weights: how telling a referenced name is of a real dependency.
const (
	// weightTelling: a snake_case or camelCase name of 8+ characters rarely
	// collides by accident ("resolve_redirects", "parseHeader").
	weightTelling = 10.0
	// tellingLen is the length from which a compound name counts as telling.
	tellingLen = 8
	// weightPrivate: a leading underscore marks a private helper; a reference
	// from another file is weak evidence.
	weightPrivate = 0.1
	// weightCommon: a name defined in more than commonFiles files ("get",
	// "run") says little about which one is meant.
	weightCommon = 0.1
	commonFiles  = 5
	// maxEdgeFiles: a name defined in more files than this ("__init__",
	// "name") tells nothing about which file is meant and makes no edge; the
	// graph would otherwise be dominated by them.
	maxEdgeFiles = 25
	// edgeNames is how many names an edge shows to explain itself.
	edgeNames = 3
)

// NameWeight is the weight of one reference to name, defined in nfiles
// files, before the square-root dampening of repeats.
func NameWeight(name string, nfiles int) float64 {
	w := 1.0
	if telling(name) {
		w *= weightTelling
	}
	if strings.HasPrefix(name, "_") {
		w *= weightPrivate
	}
	if nfiles > commonFiles {
		w *= weightCommon
	}
	return w
}

// telling reports whether name is a snake_case or camelCase compound of at
// least tellingLen characters.
func telling(name string) bool {
	if len(name) < tellingLen {
		return false
	}
	s := strings.TrimLeft(name, "_")
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		if b == '_' && i+1 < len(s) && s[i+1] != '_' {
			return true
		}
		if a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z' {
			return true
		}
	}
	return false
}

// EdgeWeight is the weight a name referenced count times adds to an edge.
func EdgeWeight(name string, nfiles, count int) float64 {
	return NameWeight(name, nfiles) * math.Sqrt(float64(count))
}

type defLite struct {
	id, file, start int64 // start: set by loadAll and a cold build only
	parent          string
}

// parentOf is what the database stores of a definition's qualified name:
// the qualified name without its last component, which is the name itself
// (names never contain a dot).
func parentOf(qname string) string {
	if i := strings.LastIndexByte(qname, '.'); i >= 0 {
		return qname[:i]
	}
	return ""
}

// qnameSQL is a definition's qualified name in SQL, for defs d and names n.
const qnameSQL = `CASE d.parent WHEN '' THEN n.name ELSE d.parent || '.' || n.name END`

// resolveCalls resolves the calls of every file parsed now and re-resolves
// those of stored files that call a name whose definitions changed or whose
// imports now resolve elsewhere.
//
// long: one transaction's SQL steps in the order they must run.
func (w *writer) resolveCalls(ctx context.Context) error {
	if len(w.changedNames) > 0 && !w.cold { // in a cold build every file is new
		if err := w.filesCalling(ctx); err != nil {
			return err
		}
	}
	if len(w.affected) == 0 && len(w.newCalls) == 0 {
		return nil
	}
	defs := &defIndex{tx: w.tx, byName: map[int64][]defLite{}}
	imported := map[int64]map[int64]bool{}
	parents := map[int64]string{} // definition id → parent, for callers
	parentOf := func(id int64) string { return parents[id] }
	if w.cold {
		// The ids are consecutive: parents by id are a slice.
		byID := make([]string, len(w.coldDefs))
		for _, d := range w.coldDefs {
			byID[d.id-w.coldFirstDef] = d.parent
		}
		parentOf = func(id int64) string {
			if i := id - w.coldFirstDef; i >= 0 && i < int64(len(byID)) {
				return byID[i]
			}
			return ""
		}
		defs.setAll(w.coldDefs)
		w.coldDefs = nil
	}
	if w.bulk || len(w.affected) > 64 {
		if !defs.all {
			if err := defs.loadAll(ctx, parents); err != nil {
				return err
			}
		}
		if w.cold && !w.coldSkipped {
			imported = w.coldImported
		} else if err := w.loadImported(ctx, imported, 0); err != nil {
			return err
		}
	}
	files := make([]int64, 0, len(w.newCalls)+len(w.affected))
	for f := range w.newCalls {
		files = append(files, f)
	}
	for f := range w.affected {
		if _, ok := w.newCalls[f]; !ok {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	stored := map[int64][]storedCall{}
	if !defs.all {
		// Fetch what resolution needs in a few queries, not one per name.
		var names []int64
		for _, f := range files {
			if _, ok := w.newCalls[f]; ok {
				err := w.newCalls[f].each(func(_, name int64, _ []byte) error {
					names = append(names, name)
					return nil
				})
				if err != nil {
					return err
				}
				continue
			}
			cs, err := w.storedCalls(ctx, f)
			if err != nil {
				return err
			}
			stored[f] = cs
			for _, c := range cs {
				names = append(names, c.name)
			}
		}
		for _, f := range files {
			if err := w.loadImported(ctx, imported, f); err != nil {
				return err
			}
			if err := loadParents(ctx, w.tx.Tx, f, parents); err != nil {
				return err
			}
		}
		if err := defs.prefetch(ctx, names, files, imported); err != nil {
			return err
		}
	}
	calls := newBulk(w.tx, w.callsTable, 5)
	defer calls.close()
	resolve := func(f, caller, name int64) int64 {
		return defs.resolve(name, f, parentOf(caller), imported[f])
	}
	if w.bulk {
		// Resolving (Go, in memory) and inserting (SQLite) take a core
		// each: on sympy's cold build the two were 70 and 100 ms in turn.
		if err := w.insertResolved(ctx, files, resolve, calls); err != nil {
			return err
		}
	}
	for _, f := range files {
		if pending, ok := w.newCalls[f]; ok {
			if w.bulk {
				continue // inserted above
			}
			// In key order: the table is a b-tree on it, and fills its pages.
			err := pending.each(func(caller, name int64, sites []byte) error {
				return calls.add(ctx, f, caller, name, resolve(f, caller, name), sites)
			})
			if err != nil {
				return err
			}
			continue
		}
		cs, ok := stored[f]
		if !ok {
			var err error
			if cs, err = w.storedCalls(ctx, f); err != nil {
				return err
			}
		}
		for _, c := range cs {
			if callee := resolve(f, c.caller, c.name); callee != c.callee {
				if _, err := w.tx.ExecContext(ctx, `UPDATE calls SET callee_id = ? WHERE file_id = ? AND caller_id = ? AND name_id = ?`,
					callee, f, c.caller, c.name); err != nil {
					return err
				}
			}
		}
	}
	return calls.flush(ctx)
}

// insertResolved inserts the new calls of files, in key order, resolved by
// resolve on a goroutine of its own: resolve must only read.
func (w *writer) insertResolved(ctx context.Context, files []int64, resolve func(file, caller, name int64) int64, calls *bulk) error {
	type row struct {
		file, caller, name, callee int64
		sites                      []byte
	}
	const batchRows = 1024
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []row, 4)
	errc := make(chan error, 1)
	go func() {
		defer close(batches)
		batch := make([]row, 0, batchRows)
		send := func() error {
			select {
			case batches <- batch:
				batch = make([]row, 0, batchRows)
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		for _, f := range files {
			pending, ok := w.newCalls[f]
			if !ok {
				continue
			}
			err := pending.each(func(caller, name int64, sites []byte) error {
				batch = append(batch, row{f, caller, name, resolve(f, caller, name), sites})
				if len(batch) == batchRows {
					return send()
				}
				return nil
			})
			if err != nil {
				errc <- err
				return
			}
		}
		if len(batch) > 0 {
			if err := send(); err != nil {
				errc <- err
			}
		}
	}()
	for batch := range batches {
		for _, r := range batch {
			if err := calls.add(ctx, r.file, r.caller, r.name, r.callee, r.sites); err != nil {
				cancel()
				for range batches { // the producer stops at its next send
				}
				return err
			}
		}
	}
	select {
	case err := <-errc:
		return err
	default:
		return nil
	}
}

// resolve picks the definition a call of a name in file resolves to: one
// in the calling file (a sibling of the caller first), else one in a file
// the caller imports, else the name's only definition. ResolvedVia (via.go)
// tells these steps apart on read and must follow any change here.
func (d *defIndex) resolve(name, file int64, callerParent string, imported map[int64]bool) int64 {
	ds := d.byName[name]
	first := int64(0)
	for _, c := range ds {
		if c.file != file {
			continue
		}
		if first == 0 {
			first = c.id
		}
		if c.parent == callerParent && callerParent != "" {
			return c.id
		}
	}
	if first != 0 {
		return first
	}
	for _, c := range ds {
		if imported[c.file] {
			return c.id
		}
	}
	if d.all {
		if len(ds) == 1 {
			return ds[0].id
		}
		return 0
	}
	return d.only[name]
}

// filesCalling marks the stored files that refer to a changed name.
func (w *writer) filesCalling(ctx context.Context) error {
	rows, err := w.tx.QueryContext(ctx, `SELECT file_id, names FROM refs`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var f int64
		var b []byte
		if err := rows.Scan(&f, &b); err != nil {
			return err
		}
		if _, ok := w.newCalls[f]; ok {
			continue
		}
		hit := false
		decodeRefs(b, func(n int64, _ int) { hit = hit || w.changedNames[n] })
		if hit {
			w.affected[f] = true
		}
	}
	return rows.Err()
}

type storedCall struct{ caller, name, callee int64 }

func (w *writer) storedCalls(ctx context.Context, file int64) ([]storedCall, error) {
	rows, err := w.tx.QueryContext(ctx, `SELECT caller_id, name_id, callee_id FROM calls WHERE file_id = ?`, file)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []storedCall
	for rows.Next() {
		var c storedCall
		if err := rows.Scan(&c.caller, &c.name, &c.callee); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// loadImported adds to m the files each file imports (resolved): of file,
// or of every file if file is 0.
func (w *writer) loadImported(ctx context.Context, m map[int64]map[int64]bool, file int64) error {
	q, args := `SELECT file_id, resolved_id FROM imports WHERE resolved_id != 0`, []any{}
	if file != 0 {
		q, args = `SELECT file_id, resolved_id FROM imports WHERE file_id = ? AND resolved_id != 0`, []any{file}
	}
	rows, err := w.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var f, r int64
		if err := rows.Scan(&f, &r); err != nil {
			return err
		}
		if m[f] == nil {
			m[f] = map[int64]bool{}
		}
		m[f][r] = true
	}
	return rows.Err()
}

func loadParents(ctx context.Context, tx *sql.Tx, file int64, parents map[int64]string) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, parent FROM defs WHERE file_id = ?`, file)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var q string
		if err := rows.Scan(&id, &q); err != nil {
			return err
		}
		parents[id] = q
	}
	return rows.Err()
}

// defIndex finds definitions by name id, all loaded on a bulk update or
// fetched for the names needed otherwise.
type defIndex struct {
	tx  *store.Tx
	all bool // byName holds every definition of every name
	// byName holds, by name, the definitions resolution may pick by file,
	// in (file, start) order: all of them, or (prefetch) those in the
	// files being resolved and the files they import.
	byName map[int64][]defLite
	only   map[int64]int64 // prefetch: a name's definition if it has only one
}

func (d *defIndex) loadAll(ctx context.Context, parents map[int64]string) error {
	// Every definition, read raw from the driver (43,000 rows on sympy) in
	// table order, with no sort: a cold build wrote them in (file, position)
	// order already. The lists of names that arrive out of that order are
	// sorted after. Parents repeat (a class's methods share one): kept once.
	seen := texts{}
	unsorted := map[int64]bool{}
	err := d.tx.ScanRaw(ctx, `SELECT id, file_id, name_id, parent, start FROM defs`, func(v []driver.Value) error {
		id, _ := v[0].(int64)
		file, _ := v[1].(int64)
		n, _ := v[2].(int64)
		start, _ := v[4].(int64)
		parent := seen.of(v[3])
		parents[id] = parent
		l := defLite{id: id, file: file, start: start, parent: parent}
		ds := d.byName[n]
		if k := len(ds); k > 0 && defOrder(l, ds[k-1]) < 0 {
			unsorted[n] = true
		}
		d.byName[n] = append(ds, l)
		return nil
	})
	if err != nil {
		return err
	}
	for n := range unsorted {
		slices.SortStableFunc(d.byName[n], defOrder)
	}
	d.all = true
	return nil
}

// namedDef is a definition with its name's id.
type namedDef struct {
	name int64
	defLite
}

// setAll makes ds, every definition, the index: one sort and one map of
// sub-slices, cheaper than appending to a list per name.
func (d *defIndex) setAll(ds []namedDef) {
	slices.SortFunc(ds, func(a, b namedDef) int {
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := defOrder(a.defLite, b.defLite); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	lites := make([]defLite, len(ds))
	for i := range ds {
		lites[i] = ds[i].defLite
	}
	for i := 0; i < len(ds); {
		j := i + 1
		for j < len(ds) && ds[j].name == ds[i].name {
			j++
		}
		d.byName[ds[i].name] = lites[i:j:j]
		i = j
	}
	d.all = true
}

// defOrder orders definitions by file, then position.
func defOrder(a, b defLite) int {
	if c := cmp.Compare(a.file, b.file); c != 0 {
		return c
	}
	return cmp.Compare(a.start, b.start)
}

// prefetch loads what resolving calls of names from files needs: the
// names' definitions in those files and the files they import, and the
// definition of each name defined once. It never reads every definition of
// a common name (sympy defines __init__ 570 times, in rows spread over the
// whole table): those it counts in the name index alone.
func (d *defIndex) prefetch(ctx context.Context, names, files []int64, imported map[int64]map[int64]bool) error {
	slices.Sort(names)
	names = slices.Compact(names)
	d.only = map[int64]int64{}
	in := map[int64]bool{}
	for _, f := range files {
		in[f] = true
		for g := range imported[f] {
			in[g] = true
		}
	}
	near := make([]int64, 0, len(in))
	for f := range in {
		near = append(near, f)
	}
	slices.Sort(near)
	for len(names) > 0 {
		chunk := names[:min(len(names), 400)]
		names = names[len(chunk):]
		args := make([]any, len(chunk))
		for i, n := range chunk {
			args[i] = n
			d.byName[n] = nil
		}
		// Counted from the index (name_id, rowid) alone.
		rows, err := d.tx.QueryContext(ctx, `SELECT name_id, min(id) FROM defs WHERE name_id IN (`+placeholders(len(chunk))+`) GROUP BY name_id HAVING count(*) = 1`, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var n, id int64
			if err := rows.Scan(&n, &id); err != nil {
				rows.Close()
				return err
			}
			d.only[n] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		// By file (the unary + keeps SQLite off the name index): a file's
		// definitions sit together in the table.
		for rest := near; len(rest) > 0; {
			fs := rest[:min(len(rest), 400)]
			rest = rest[len(fs):]
			fargs := append(slices.Clip(args), make([]any, len(fs))...)
			for i, f := range fs {
				fargs[len(args)+i] = f
			}
			rows, err := d.tx.QueryContext(ctx, `SELECT id, file_id, name_id, parent FROM defs WHERE +name_id IN (`+placeholders(len(chunk))+`) AND file_id IN (`+placeholders(len(fs))+`) ORDER BY file_id, start`, fargs...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var l defLite
				var n int64
				if err := rows.Scan(&l.id, &l.file, &n, &l.parent); err != nil {
					rows.Close()
					return err
				}
				d.byName[n] = append(d.byName[n], l)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendSite packs one call site after the previous one (sites go in
// offset order) as varint deltas.
func appendSite(buf []byte, prevOff, prevLine, off, line int) []byte {
	buf = binary.AppendUvarint(buf, uint64(off-prevOff))
	return binary.AppendUvarint(buf, uint64(line-prevLine))
}

// countSites is the number of call sites appendSite packed into b.
func countSites(b []byte) int {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++ // the last byte of a varint
		}
	}
	return n / 2
}

// decodeSites unpacks appendSite's output into (offset, line) pairs.
func decodeSites(b []byte) [][2]int {
	var out [][2]int
	off, line := 0, 0
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			break
		}
		b = b[n:]
		l, m := binary.Uvarint(b)
		if m <= 0 {
			break
		}
		b = b[m:]
		off += int(d)
		line += int(l)
		out = append(out, [2]int{off, line})
	}
	return out
}
