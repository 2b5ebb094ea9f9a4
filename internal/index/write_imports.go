package index

import (
	"context"
	"strings"
)

// writeImports stores the imports of parsed files, resolved against the
// files now indexed; when files came or went it re-resolves every import.
func (w *writer) writeImports(ctx context.Context, reresolve bool) error {
	if err := w.impIns.flush(ctx); err != nil { // a cold build's, written as it went
		return err
	}
	w.impIns.close()
	if w.cold {
		for _, q := range []string{`INSERT INTO main.imports SELECT * FROM temp.imports_load`, `DROP TABLE temp.imports_load`} {
			if _, err := w.tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
	}
	w.impIns = newBulk(w.tx, "imports", 7)
	defer w.impIns.close()
	if len(w.newImports) == 0 && !reresolve {
		return nil
	}
	ids, err := w.fileIDs(ctx)
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(ids))
	for p := range ids {
		paths = append(paths, p)
	}
	res := newResolver(w.ix.root, paths)
	if reresolve {
		if err := w.reresolve(ctx, res, ids); err != nil {
			return err
		}
	}
	for _, pi := range w.newImports {
		for i, imp := range pi.imports {
			if err := w.insertImport(ctx, pi.fileID, i, imp, ids[res.resolve(pi.lang, pi.path, imp)]); err != nil {
				return err
			}
		}
	}
	return w.impIns.flush(ctx)
}

// insertImport adds one imports row: the file's import number seq.
func (w *writer) insertImport(ctx context.Context, file int64, seq int, imp Import, resolved int64) error {
	return w.impIns.add(ctx, file, seq, imp.Module, strings.Join(imp.Names, " "), imp.Alias, resolved, imp.Line)
}

func (w *writer) reresolve(ctx context.Context, res *resolver, ids map[string]int64) error {
	rows, err := w.tx.QueryContext(ctx, `SELECT i.seq, i.file_id, f.path, f.lang, i.module, i.names, i.resolved_id FROM imports i JOIN files f ON f.id = i.file_id`)
	if err != nil {
		return err
	}
	type upd struct{ seq, resolved, file int64 }
	var ups []upd
	for rows.Next() {
		var u upd
		var p, lang, module, names string
		if err := rows.Scan(&u.seq, &u.file, &p, &lang, &module, &names, &u.resolved); err != nil {
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
	if err := rows.Err(); err != nil {
		return err
	}
	for _, u := range ups {
		if _, err := w.tx.ExecContext(ctx, `UPDATE imports SET resolved_id = ? WHERE file_id = ? AND seq = ?`, u.resolved, u.file, u.seq); err != nil {
			return err
		}
		if _, ok := w.newCalls[u.file]; !ok {
			w.affected[u.file] = true
		}
	}
	return nil
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

// storeImports stores a file's imports: resolved now in a cold build, else
// left to finish, and kept as they are when an edit did not change them.
func (w *writer) storeImports(ctx context.Context, fileID int64, c *parsedFile, existed bool) error {
	p := c.parsed
	keep := false
	if existed {
		// An edit seldom touches the imports: when they are as stored, the
		// rows (and their resolution) stay; else they are rewritten in finish.
		same, err := w.sameImports(ctx, fileID, p.Imports)
		if err != nil {
			return err
		}
		if keep = same; !keep {
			if _, err := w.tx.ExecContext(ctx, `DELETE FROM imports WHERE file_id = ?`, fileID); err != nil {
				return err
			}
		}
	}
	if !w.cold {
		if len(p.Imports) > 0 && !keep {
			w.newImports = append(w.newImports, pendingImports{fileID, c.seen.path, c.seen.lang, p.Imports})
		}
		return nil
	}
	for i, imp := range p.Imports {
		resolved := w.coldIDs[w.coldRes.resolve(c.seen.lang, c.seen.path, imp)]
		if err := w.insertImport(ctx, fileID, i, imp, resolved); err != nil {
			return err
		}
		if resolved != 0 {
			if w.coldImported[fileID] == nil {
				w.coldImported[fileID] = map[int64]bool{}
			}
			w.coldImported[fileID][resolved] = true
		}
	}
	return nil
}

// sameImports reports whether file's stored imports are imps, in order.
func (w *writer) sameImports(ctx context.Context, file int64, imps []Import) (bool, error) {
	rows, err := w.tx.QueryContext(ctx, `SELECT module, names, alias, line FROM imports WHERE file_id = ? ORDER BY seq`, file)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	i := 0
	for rows.Next() {
		var module, names, alias string
		var line int
		if err := rows.Scan(&module, &names, &alias, &line); err != nil {
			return false, err
		}
		if i >= len(imps) {
			return false, nil
		}
		imp := imps[i]
		if imp.Module != module || strings.Join(imp.Names, " ") != names || imp.Alias != alias || imp.Line != line {
			return false, nil
		}
		i++
	}
	return i == len(imps), rows.Err()
}
