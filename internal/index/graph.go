package index

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Calls returns the call sites in one file.
func (ix *Index) Calls(ctx context.Context, path string) ([]Call, error) {
	rel, err := ix.rel(path)
	if err != nil {
		return nil, err
	}
	if _, err := ix.File(ctx, rel); err != nil {
		return nil, err
	}
	out, err := ix.queryCalls(ctx, "calls", `WHERE `+byPath, pathArgs(rel)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out, err
}

func (ix *Index) queryCalls(ctx context.Context, op, where string, args ...any) ([]Call, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT f.path, c.caller_id, coalesce(CASE d.parent WHEN '' THEN dn.name ELSE d.parent || '.' || dn.name END, ''), n.name, c.callee_id, c.sites
		FROM calls c JOIN files f ON f.id = c.file_id JOIN names n ON n.id = c.name_id
		LEFT JOIN defs d ON d.id = c.caller_id LEFT JOIN names dn ON dn.id = d.name_id `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer rows.Close()
	var out []Call
	for rows.Next() {
		var c Call
		var sites []byte
		if err := rows.Scan(&c.Path, &c.CallerID, &c.Caller, &c.Callee, &c.CalleeID, &sites); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		for _, s := range decodeSites(sites) {
			c.Offset, c.Line = s[0], s[1]
			out = append(out, c)
		}
	}
	return out, rows.Err()
}

// Callers returns the call sites that resolve to definition id, each with its
// enclosing definition.
func (ix *Index) Callers(ctx context.Context, id int64) ([]Call, error) {
	out, err := ix.queryCalls(ctx, "callers", `WHERE c.callee_id = ? AND c.callee_id != 0`, id)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Offset < out[j].Offset
	})
	return out, err
}

// Callees returns the definitions that definition id calls, resolved where possible.
func (ix *Index) Callees(ctx context.Context, id int64) ([]DefEdge, error) {
	caller, err := ix.DefByID(ctx, id)
	if err != nil {
		return nil, err
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT callee_id, sites FROM calls
		WHERE file_id = (SELECT file_id FROM defs WHERE id = ?1) AND caller_id = ?1 AND callee_id != 0`, id)
	if err != nil {
		return nil, fmt.Errorf("callees: %w", err)
	}
	type pair struct {
		id    int64
		count int
	}
	var pairs []pair
	at := map[int64]int{}
	for rows.Next() {
		var callee int64
		var sites []byte
		if err := rows.Scan(&callee, &sites); err != nil {
			rows.Close()
			return nil, fmt.Errorf("callees: %w", err)
		}
		i, ok := at[callee]
		if !ok {
			i = len(pairs)
			at[callee] = i
			pairs = append(pairs, pair{id: callee})
		}
		pairs[i].count += countSites(sites)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("callees: %w", err)
	}
	var out []DefEdge
	for _, p := range pairs {
		callee, err := ix.DefByID(ctx, p.id)
		if err != nil {
			continue // removed by a concurrent update
		}
		out = append(out, DefEdge{Caller: caller, Callee: callee, Count: p.count})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Callee.Path != out[j].Callee.Path {
			return out[i].Callee.Path < out[j].Callee.Path
		}
		return out[i].Callee.Start < out[j].Callee.Start
	})
	return out, nil
}

// Imports returns one file's imports.
func (ix *Index) Imports(ctx context.Context, path string) ([]Import, error) {
	rel, err := ix.rel(path)
	if err != nil {
		return nil, err
	}
	if _, err := ix.File(ctx, rel); err != nil {
		return nil, err
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT i.module, i.names, i.alias, coalesce(r.path, ''), i.line
		FROM imports i JOIN files f ON f.id = i.file_id LEFT JOIN files r ON r.id = i.resolved_id
		WHERE `+byPath+` ORDER BY i.line, i.seq`, pathArgs(rel)...)
	if err != nil {
		return nil, fmt.Errorf("imports: %w", err)
	}
	defer rows.Close()
	var out []Import
	for rows.Next() {
		imp := Import{Path: rel}
		var names string
		if err := rows.Scan(&imp.Module, &names, &imp.Alias, &imp.Resolved, &imp.Line); err != nil {
			return nil, fmt.Errorf("imports: %w", err)
		}
		if names != "" {
			imp.Names = strings.Split(names, " ")
		}
		out = append(out, imp)
	}
	return out, rows.Err()
}

// EdgesFrom returns the files path refers to, heaviest first.
func (ix *Index) EdgesFrom(ctx context.Context, path string) ([]FileEdge, error) {
	rel, err := ix.rel(path)
	if err != nil {
		return nil, err
	}
	return ix.fileEdges(ctx, "edges from", rel, "")
}

// EdgesTo returns the files that refer to path, heaviest first.
func (ix *Index) EdgesTo(ctx context.Context, path string) ([]FileEdge, error) {
	rel, err := ix.rel(path)
	if err != nil {
		return nil, err
	}
	return ix.fileEdges(ctx, "edges to", "", rel)
}

// AllEdges returns the whole file graph (for spread and PageRank).
func (ix *Index) AllEdges(ctx context.Context) ([]FileEdge, error) {
	return ix.fileEdges(ctx, "all edges", "", "")
}
