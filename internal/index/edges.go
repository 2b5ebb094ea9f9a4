package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"math"
	"sort"
	"strings"
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
	// edgeNames is how many names an edge keeps to explain itself.
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
	id, file int64
	parent   string
}

// recomputeEdges rebuilds the outgoing file edges and call resolutions of
// every affected file: those parsed now and those referring to a name whose
// definitions changed.
func (w *writer) recomputeEdges(ctx context.Context) error {
	if len(w.changedNames) > 0 {
		ids := make([]int64, 0, len(w.changedNames))
		for n := range w.changedNames {
			ids = append(ids, n)
		}
		for len(ids) > 0 {
			chunk := ids[:min(len(ids), 500)]
			ids = ids[len(chunk):]
			args := make([]any, len(chunk))
			for i, v := range chunk {
				args[i] = v
			}
			rows, err := w.tx.QueryContext(ctx, `SELECT DISTINCT file_id FROM refs WHERE name_id IN (`+strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",")+`)`, args...)
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
		}
	}
	if len(w.affected) == 0 {
		return nil
	}
	defs := &defIndex{tx: w.tx, byName: map[int64][]defLite{}}
	if len(w.affected) > 64 {
		if err := defs.loadAll(ctx); err != nil {
			return err
		}
	}
	files := make([]int64, 0, len(w.affected))
	for f := range w.affected {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i] < files[j] })
	edges := newBulk(w.tx, "file_edges", 4)
	calls := newBulk(w.tx, "calls", 6)
	for _, f := range files {
		if err := w.fileEdges(ctx, f, defs, edges, calls); err != nil {
			return err
		}
	}
	if err := edges.flush(ctx); err != nil {
		return err
	}
	return calls.flush(ctx)
}

// defIndex finds definitions by name id, from memory on a bulk load or
// query by query otherwise.
type defIndex struct {
	tx     *sql.Tx
	all    bool
	byName map[int64][]defLite
	stmt   *sql.Stmt
}

func (d *defIndex) loadAll(ctx context.Context) error {
	rows, err := d.tx.QueryContext(ctx, `SELECT id, file_id, name_id, parent FROM defs ORDER BY file_id, start`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var l defLite
		var n int64
		if err := rows.Scan(&l.id, &l.file, &n, &l.parent); err != nil {
			return err
		}
		d.byName[n] = append(d.byName[n], l)
	}
	d.all = true
	return rows.Err()
}

func (d *defIndex) get(ctx context.Context, name int64) ([]defLite, error) {
	if l, ok := d.byName[name]; ok || d.all {
		return l, nil
	}
	if d.stmt == nil {
		st, err := d.tx.PrepareContext(ctx, `SELECT id, file_id, parent FROM defs WHERE name_id = ? ORDER BY file_id, start`)
		if err != nil {
			return nil, err
		}
		d.stmt = st
	}
	rows, err := d.stmt.QueryContext(ctx, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []defLite
	for rows.Next() {
		var l defLite
		if err := rows.Scan(&l.id, &l.file, &l.parent); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	d.byName[name] = out
	return out, rows.Err()
}

func nfiles(ds []defLite) int {
	n := 0
	for i := range ds {
		if i == 0 || ds[i].file != ds[i-1].file {
			n++
		}
	}
	return n
}

type edgeName struct {
	name string
	w    float64
}

// fileEdges recomputes one file's outgoing edges and resolves its calls.
func (w *writer) fileEdges(ctx context.Context, file int64, defs *defIndex, edges, calls *bulk) error {
	// The file's own definitions: their names are local, their parents give context.
	own := map[int64]bool{}
	parentOf := map[int64]string{}
	rows, err := w.tx.QueryContext(ctx, `SELECT id, name_id, parent FROM defs WHERE file_id = ?`, file)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id, n int64
		var parent string
		if err := rows.Scan(&id, &n, &parent); err != nil {
			rows.Close()
			return err
		}
		own[n] = true
		parentOf[id] = parent
	}
	rows.Close()
	imported := map[int64]bool{}
	rows, err = w.tx.QueryContext(ctx, `SELECT resolved_id FROM imports WHERE file_id = ? AND resolved_id != 0`, file)
	if err != nil {
		return err
	}
	for rows.Next() {
		var r int64
		if err := rows.Scan(&r); err != nil {
			rows.Close()
			return err
		}
		imported[r] = true
	}
	rows.Close()

	// File edges from references.
	type acc struct {
		w     float64
		names []edgeName
	}
	out := map[int64]*acc{}
	rows, err = w.tx.QueryContext(ctx, `SELECT r.name_id, n.name, r.n FROM refs r JOIN names n ON n.id = r.name_id WHERE r.file_id = ?`, file)
	if err != nil {
		return err
	}
	type ref struct {
		id    int64
		name  string
		count int
	}
	var refs []ref
	for rows.Next() {
		var r ref
		if err := rows.Scan(&r.id, &r.name, &r.count); err != nil {
			rows.Close()
			return err
		}
		if !own[r.id] {
			refs = append(refs, r)
		}
	}
	rows.Close()
	for _, r := range refs {
		ds, err := defs.get(ctx, r.id)
		if err != nil {
			return err
		}
		nf := nfiles(ds)
		if nf == 0 || nf > maxEdgeFiles {
			continue
		}
		wt := EdgeWeight(r.name, nf, r.count)
		for i, d := range ds {
			if d.file == file || (i > 0 && ds[i-1].file == d.file) {
				continue
			}
			a := out[d.file]
			if a == nil {
				a = &acc{}
				out[d.file] = a
			}
			a.w += wt
			a.names = append(a.names, edgeName{r.name, wt})
		}
	}
	if _, err := w.tx.ExecContext(ctx, `DELETE FROM file_edges WHERE from_id = ?`, file); err != nil {
		return err
	}
	tos := make([]int64, 0, len(out))
	for to := range out {
		tos = append(tos, to)
	}
	sort.Slice(tos, func(i, j int) bool { return tos[i] < tos[j] })
	for _, to := range tos {
		a := out[to]
		sort.SliceStable(a.names, func(i, j int) bool {
			if a.names[i].w != a.names[j].w {
				return a.names[i].w > a.names[j].w
			}
			return a.names[i].name < a.names[j].name
		})
		var ns []string
		for _, n := range a.names[:min(len(a.names), edgeNames)] {
			ns = append(ns, n.name)
		}
		if err := edges.add(ctx, file, to, a.w, strings.Join(ns, " ")); err != nil {
			return err
		}
	}

	// Calls: resolve each (caller, name) pair to a definition.
	resolve := func(caller, name int64) (int64, error) {
		ds, err := defs.get(ctx, name)
		if err != nil || len(ds) == 0 {
			return 0, err
		}
		var local []defLite
		for _, d := range ds {
			if d.file == file {
				local = append(local, d)
			}
		}
		if len(local) > 0 {
			cp := parentOf[caller]
			for _, d := range local {
				if d.parent == cp && cp != "" {
					return d.id, nil
				}
			}
			return local[0].id, nil
		}
		for _, d := range ds {
			if imported[d.file] {
				return d.id, nil
			}
		}
		if len(ds) == 1 {
			return ds[0].id, nil
		}
		return 0, nil
	}
	if pending, ok := w.newCalls[file]; ok {
		for _, pc := range pending {
			callee, err := resolve(pc.callerID, pc.nameID)
			if err != nil {
				return err
			}
			if err := calls.add(ctx, file, pc.callerID, pc.nameID, callee, len(pc.sites), encodeSites(pc.sites)); err != nil {
				return err
			}
		}
		return nil
	}
	rows, err = w.tx.QueryContext(ctx, `SELECT rowid, caller_id, name_id, callee_id FROM calls WHERE file_id = ?`, file)
	if err != nil {
		return err
	}
	type upd struct{ rowid, callee int64 }
	var ups []upd
	type row struct{ rowid, caller, name, callee int64 }
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.rowid, &r.caller, &r.name, &r.callee); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	for _, r := range all {
		callee, err := resolve(r.caller, r.name)
		if err != nil {
			return err
		}
		if callee != r.callee {
			ups = append(ups, upd{r.rowid, callee})
		}
	}
	for _, u := range ups {
		if _, err := w.tx.ExecContext(ctx, `UPDATE calls SET callee_id = ? WHERE rowid = ?`, u.callee, u.rowid); err != nil {
			return err
		}
	}
	return nil
}

// encodeSites packs call sites (sorted by offset) as varint deltas.
func encodeSites(sites []Call) []byte {
	sort.Slice(sites, func(i, j int) bool { return sites[i].Offset < sites[j].Offset })
	buf := make([]byte, 0, len(sites)*4)
	off, line := 0, 0
	for _, s := range sites {
		buf = binary.AppendUvarint(buf, uint64(s.Offset-off))
		buf = binary.AppendUvarint(buf, uint64(s.Line-line))
		off, line = s.Offset, s.Line
	}
	return buf
}

// decodeSites unpacks encodeSites' output into (offset, line) pairs.
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
