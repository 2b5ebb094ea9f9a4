package index

import "github.com/grit-dev/grit/internal/store"

// schemaAppID marks .grit/index.db as Grit's ("GRIT").
const schemaAppID = 0x47524954

// schema is the index database, migration by migration. Never edit a
// released migration: append one.
var schema = store.Schema{
	AppID: schemaAppID,
	Migrations: []string{migration1 + migration1Indexes, migration2 + migration2Indexes, migration3, reparseAll,
		reparseAll, /* 5: C/C++ annotation macros called with arguments are blanked for the parser */
		reparseAll, /* 6: unbalanced #else branches blanked; C++ operators named "operator |=" */
		migration7 + indexSQL()},
}

// reparseAll makes the next update parse every file again, as after a
// change to what extraction stores for unchanged bytes (here: functions
// named Scope.Name in every language, C++ headers parsed as C++): the
// stored mtime and hash can then match no file. Append it again for the
// next such change.
const reparseAll = `UPDATE files SET mtime = 0, hash = x'';`

// migration3 keeps counts an update reports: every update said how many
// definitions the index holds by counting them, a scan of an index that was
// a quarter of a warm 'grit index' on sympy (3 of 12 ms).
const migration3 = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO meta VALUES('defs', (SELECT count(*) FROM defs));
`

const migration1 = `
CREATE TABLE files(
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	lang TEXT NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,        -- Unix nanoseconds
	hash BLOB NOT NULL,            -- SHA-256
	errors INTEGER NOT NULL,       -- ERROR/MISSING nodes
	skip TEXT NOT NULL DEFAULT ''  -- why the file is not indexed, '' if it is
);
CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE defs(
	id INTEGER PRIMARY KEY,
	file_id INTEGER NOT NULL,
	name_id INTEGER NOT NULL,
	qname TEXT NOT NULL,
	kind INTEGER NOT NULL,
	parent TEXT NOT NULL,
	start INTEGER NOT NULL, "end" INTEGER NOT NULL,
	name_start INTEGER NOT NULL, name_end INTEGER NOT NULL,
	start_line INTEGER NOT NULL, start_col INTEGER NOT NULL,
	end_line INTEGER NOT NULL, end_col INTEGER NOT NULL,
	signature TEXT NOT NULL,
	doc TEXT NOT NULL
);
-- One row per (file, caller, callee name): the pair is stored once, its call
-- sites packed in sites as varint (offset delta, line delta) pairs.
CREATE TABLE calls(
	file_id INTEGER NOT NULL,
	caller_id INTEGER NOT NULL,    -- 0 at module level
	name_id INTEGER NOT NULL,
	callee_id INTEGER NOT NULL,    -- resolved definition, 0 if unresolved
	n INTEGER NOT NULL,
	sites BLOB NOT NULL
);
CREATE TABLE imports(
	file_id INTEGER NOT NULL,
	module TEXT NOT NULL,
	names TEXT NOT NULL,           -- space-separated
	alias TEXT NOT NULL,
	resolved_id INTEGER NOT NULL,  -- files.id, 0 if external
	line INTEGER NOT NULL
);
CREATE TABLE refs(
	file_id INTEGER NOT NULL,
	name_id INTEGER NOT NULL,
	n INTEGER NOT NULL,
	PRIMARY KEY(file_id, name_id)
) WITHOUT ROWID;
CREATE TABLE file_edges(
	from_id INTEGER NOT NULL,
	to_id INTEGER NOT NULL,
	weight REAL NOT NULL,
	names TEXT NOT NULL,           -- space-separated, most telling first
	PRIMARY KEY(from_id, to_id)
) WITHOUT ROWID;
`

const migration1Indexes = `
CREATE INDEX defs_file ON defs(file_id, start);
CREATE INDEX defs_name ON defs(name_id);
CREATE INDEX calls_file ON calls(file_id, caller_id);
CREATE INDEX calls_callee ON calls(callee_id);
CREATE INDEX imports_file ON imports(file_id);
CREATE INDEX refs_name ON refs(name_id);
CREATE INDEX file_edges_to ON file_edges(to_id);
`

// migration2 makes the database less than half the source's size. The index
// is a cache, so it starts over (the next Update is a cold build):
//   - file edges are no longer stored: they are derived on read from refs
//     and the definitions' names (edges.go), so nothing is recomputed when a
//     file changes;
//   - refs are one row per file, the (name id, count) pairs packed in a blob;
//   - defs keep parent but not qname, which is parent.name (or name at the
//     top level): most definitions are top-level and store no text for it;
//   - calls are keyed by (file, caller, name) without a rowid, and only
//     resolved calls are indexed by callee.
const migration2 = `
DROP TABLE IF EXISTS file_edges;
DROP TABLE IF EXISTS refs;
DROP TABLE IF EXISTS calls;
DROP TABLE IF EXISTS imports;
DROP TABLE IF EXISTS defs;
DROP TABLE IF EXISTS names;
DROP TABLE IF EXISTS files;
CREATE TABLE files(
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	lang TEXT NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,        -- Unix nanoseconds
	hash BLOB NOT NULL,            -- SHA-256
	errors INTEGER NOT NULL,       -- ERROR/MISSING nodes
	skip TEXT NOT NULL DEFAULT ''  -- why the file is not indexed, '' if it is
);
-- Names are unique but not indexed by text (the writer keeps them in memory,
-- and a lookup by name scans this small table): half a megabyte less.
CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE defs(
	id INTEGER PRIMARY KEY,
	file_id INTEGER NOT NULL,
	name_id INTEGER NOT NULL,
	parent TEXT NOT NULL,          -- the qualified name is parent.name, or name if parent is ''
	kind INTEGER NOT NULL,
	start INTEGER NOT NULL, "end" INTEGER NOT NULL,
	name_start INTEGER NOT NULL, name_end INTEGER NOT NULL,
	start_line INTEGER NOT NULL, start_col INTEGER NOT NULL,
	end_line INTEGER NOT NULL, end_col INTEGER NOT NULL,
	signature TEXT NOT NULL,
	doc TEXT NOT NULL
);
-- One row per (file, caller, callee name): the pair is stored once, its call
-- sites packed in sites as varint (offset delta, line delta) pairs.
CREATE TABLE calls(` + callsColumns + `) WITHOUT ROWID;
CREATE TABLE imports(
	file_id INTEGER NOT NULL,
	module TEXT NOT NULL,
	names TEXT NOT NULL,           -- space-separated
	alias TEXT NOT NULL,
	resolved_id INTEGER NOT NULL,  -- files.id, 0 if external
	line INTEGER NOT NULL
);
-- The names a file refers to: varint (name id delta, count) pairs, by name id.
CREATE TABLE refs(
	file_id INTEGER PRIMARY KEY,
	names BLOB NOT NULL
);
`

// migration2Indexes are the secondary indexes migration 2 created.
const migration2Indexes = `
CREATE INDEX IF NOT EXISTS defs_file ON defs(file_id, start);
CREATE INDEX IF NOT EXISTS defs_name ON defs(name_id);
CREATE INDEX IF NOT EXISTS calls_callee ON calls(callee_id) WHERE callee_id != 0;
CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id);
`

// migration7 makes the database smaller again (Java's was 0.54x its
// source: paths are long and imports many). The index starts over:
//   - files are found by path through an index of a 31-bit hash of the
//     path (pathKey), 4 bytes an entry, instead of the path's UNIQUE index,
//     which held every path a second time (a seventh of the database);
//   - imports are keyed by (file, place in the file) without a rowid, so
//     they need no index by file.
const migration7 = `
DROP TABLE IF EXISTS refs;
DROP TABLE IF EXISTS calls;
DROP TABLE IF EXISTS imports;
DROP TABLE IF EXISTS defs;
DROP TABLE IF EXISTS names;
DROP TABLE IF EXISTS files;
DELETE FROM meta;
INSERT INTO meta VALUES('defs', 0);
CREATE TABLE files(
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL,            -- unique: the writer adds a path only if the index lacks it
	path_key INTEGER NOT NULL,     -- pathKey(path)
	lang TEXT NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,        -- Unix nanoseconds
	hash BLOB NOT NULL,            -- SHA-256
	errors INTEGER NOT NULL,       -- ERROR/MISSING nodes
	skip TEXT NOT NULL DEFAULT ''  -- why the file is not indexed, '' if it is
);
CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE defs(
	id INTEGER PRIMARY KEY,
	file_id INTEGER NOT NULL,
	name_id INTEGER NOT NULL,
	parent TEXT NOT NULL,          -- the qualified name is parent.name, or name if parent is ''
	kind INTEGER NOT NULL,
	start INTEGER NOT NULL, "end" INTEGER NOT NULL,
	name_start INTEGER NOT NULL, name_end INTEGER NOT NULL,
	start_line INTEGER NOT NULL, start_col INTEGER NOT NULL,
	end_line INTEGER NOT NULL, end_col INTEGER NOT NULL,
	signature TEXT NOT NULL,
	doc TEXT NOT NULL
);
CREATE TABLE calls(` + callsColumns + `) WITHOUT ROWID;
CREATE TABLE imports(` + importsColumns + `) WITHOUT ROWID;
CREATE TABLE refs(
	file_id INTEGER PRIMARY KEY,
	names BLOB NOT NULL
);
`

// secondaryIndexes are dropped before a cold build and created after it.
var secondaryIndexes = []struct{ name, def string }{
	{"files_path", "files(path_key)"},
	{"defs_file", "defs(file_id, start)"},
	{"defs_name", "defs(name_id)"},
	{"calls_callee", "calls(callee_id) WHERE callee_id != 0"},
}

func indexSQL() string {
	m := ""
	for _, ix := range secondaryIndexes {
		m += "CREATE INDEX IF NOT EXISTS " + ix.name + " ON " + ix.def + ";\n"
	}
	return m
}

// callsColumns is the calls table's definition (a cold build loads a
// temporary table of the same shape first).
const callsColumns = `
	file_id INTEGER NOT NULL,
	caller_id INTEGER NOT NULL,    -- 0 at module level
	name_id INTEGER NOT NULL,
	callee_id INTEGER NOT NULL,    -- resolved definition, 0 if unresolved
	sites BLOB NOT NULL,           -- as many pairs as call sites
	PRIMARY KEY(file_id, caller_id, name_id)
`

// importsColumns is the imports table's definition since migration 7 (a
// cold build loads a temporary table of the same shape first).
const importsColumns = `
	file_id INTEGER NOT NULL,
	seq INTEGER NOT NULL,          -- its place among the file's imports, from 0
	module TEXT NOT NULL,
	names TEXT NOT NULL,           -- space-separated
	alias TEXT NOT NULL,
	resolved_id INTEGER NOT NULL,  -- files.id, 0 if external
	line INTEGER NOT NULL,
	PRIMARY KEY(file_id, seq)
`
