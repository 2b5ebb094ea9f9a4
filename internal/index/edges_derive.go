package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
)

// fileEdges derives file edges from the stored references and the files
// defining each name: those from path from, those to path to, or all when
// both are "". Heaviest first, then by paths.
//
// A reference in file A to a name defined in file B (and not in A itself)
// adds EdgeWeight to A→B, unless the name is defined in more than
// maxEdgeFiles files. Weights are summed in name id order, so an edge
// weighs the same however it is asked for.
func (ix *Index) fileEdges(ctx context.Context, op, from, to string) ([]FileEdge, error) {
	// One read snapshot across the queries: a deferred BEGIN on one
	// connection (the pool's transactions are BEGIN IMMEDIATE, for writers).
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
	out, err := deriveEdges(ctx, conn, from, to)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return out, nil
}

// querier is a *sql.Conn or *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// filePaths are the indexed files' paths by id, and their ids by path.
func filePaths(ctx context.Context, tx querier) (map[int64]string, map[string]int64, error) {
	paths := map[int64]string{}
	ids := map[string]int64{}
	rows, err := tx.QueryContext(ctx, `SELECT id, path FROM files WHERE skip = ''`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			return nil, nil, err
		}
		paths[id], ids[p] = p, id
	}
	return paths, ids, rows.Err()
}

// definersOf are the files defining each name (distinct, ascending).
func definersOf(ctx context.Context, tx querier) (map[int64][]int64, error) {
	definers := map[int64][]int64{}
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT name_id, file_id FROM defs ORDER BY name_id, file_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n, f int64
		if err := rows.Scan(&n, &f); err != nil {
			return nil, err
		}
		definers[n] = append(definers[n], f)
	}
	return definers, rows.Err()
}

// deriveEdges weighs the file-to-file edges (from and to, when not "",
// narrow them to one file) from the references and the definitions.
func deriveEdges(ctx context.Context, tx querier, from, to string) ([]FileEdge, error) {
	paths, ids, err := filePaths(ctx, tx)
	if err != nil {
		return nil, err
	}
	fromID, toID := ids[from], ids[to]
	if from != "" && fromID == 0 || to != "" && toID == 0 {
		return nil, nil
	}
	definers, err := definersOf(ctx, tx)
	if err != nil {
		return nil, err
	}
	defines := func(file, name int64) bool {
		_, ok := slices.BinarySearch(definers[name], file)
		return ok
	}
	// The references of the source files, as (name, count) per file.
	q, args := `SELECT file_id, names FROM refs ORDER BY file_id`, []any{}
	if fromID != 0 {
		q, args = `SELECT file_id, names FROM refs WHERE file_id = ?`, []any{fromID}
	}
	type ref struct {
		name  int64
		count int
	}
	type acc struct {
		w     float64
		names []ref
	}
	type pair struct{ from, to int64 }
	edges := map[pair]*acc{}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var f int64
		var b []byte
		if err := rows.Scan(&f, &b); err != nil {
			rows.Close()
			return nil, err
		}
		if paths[f] == "" || f == toID {
			continue
		}
		decodeRefs(b, func(n int64, count int) {
			ds := definers[n]
			if len(ds) == 0 || len(ds) > maxEdgeFiles || defines(f, n) {
				return
			}
			if toID != 0 && !defines(toID, n) {
				return
			}
			for _, d := range ds {
				if toID != 0 && d != toID {
					continue
				}
				k := pair{f, d}
				a := edges[k]
				if a == nil {
					a = &acc{}
					edges[k] = a
				}
				a.names = append(a.names, ref{n, count})
			}
		})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Name strings for the weights and the explanations.
	need := map[int64]bool{}
	for _, a := range edges {
		for _, r := range a.names {
			need[r.name] = true
		}
	}
	names, err := nameStrings(ctx, tx, need)
	if err != nil {
		return nil, err
	}
	out := make([]FileEdge, 0, len(edges))
	for k, a := range edges {
		ens := make([]edgeName, len(a.names))
		for i, r := range a.names {
			wt := EdgeWeight(names[r.name], len(definers[r.name]), r.count)
			a.w += wt
			ens[i] = edgeName{names[r.name], wt}
		}
		sort.SliceStable(ens, func(i, j int) bool {
			if ens[i].w != ens[j].w {
				return ens[i].w > ens[j].w
			}
			return ens[i].name < ens[j].name
		})
		e := FileEdge{From: paths[k.from], To: paths[k.to], Weight: a.w}
		for _, n := range ens[:min(len(ens), edgeNames)] {
			e.Names = append(e.Names, n.name)
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Weight != out[j].Weight {
			return out[i].Weight > out[j].Weight
		}
		if out[i].From != out[j].From {
			return out[i].From < out[j].From
		}
		return out[i].To < out[j].To
	})
	return out, nil
}

type edgeName struct {
	name string
	w    float64
}

// nameStrings returns the text of the names in need: by id lists when they
// are few, else the whole table.
func nameStrings(ctx context.Context, tx querier, need map[int64]bool) (map[int64]string, error) {
	out := make(map[int64]string, len(need))
	if len(need) == 0 {
		return out, nil
	}
	var qs []string
	var argss [][]any
	if len(need) > 2000 {
		qs, argss = []string{`SELECT id, name FROM names`}, [][]any{nil}
	} else {
		ids := make([]int64, 0, len(need))
		for id := range need {
			ids = append(ids, id)
		}
		for len(ids) > 0 {
			chunk := ids[:min(len(ids), 500)]
			ids = ids[len(chunk):]
			args := make([]any, len(chunk))
			for i, id := range chunk {
				args[i] = id
			}
			qs = append(qs, `SELECT id, name FROM names WHERE id IN (`+placeholders(len(chunk))+`)`)
			argss = append(argss, args)
		}
	}
	for i, q := range qs {
		rows, err := tx.QueryContext(ctx, q, argss[i]...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var n string
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return nil, err
			}
			if need[id] {
				out[id] = n
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
