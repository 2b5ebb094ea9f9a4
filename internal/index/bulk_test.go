package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/index"
)

// TestColdEqualsIncremental builds one repository twice: cold in one run
// (the bulk path: calls loaded through a temporary table, secondary indexes
// built last) and file batch by file batch (the incremental path). Both
// must store the same definitions, calls with their resolution, imports and
// references.
func TestColdEqualsIncremental(t *testing.T) {
	const n = 90
	src := make(map[string]string, n)
	for i := range n {
		var sb strings.Builder
		fmt.Fprintf(&sb, "from pkg.mod_%03d import helper_%03d\n\n", (i+1)%n, (i+1)%n)
		fmt.Fprintf(&sb, "def helper_%03d(x):\n    return shared(x) + helper_%03d(x)\n\n", i, (i+1)%n)
		fmt.Fprintf(&sb, "class Thing%03d:\n    def method(self):\n        return helper_%03d(self) + self.other()\n\n", i, i)
		fmt.Fprintf(&sb, "def shared(x):\n    return len(x)\n")
		src[fmt.Sprintf("pkg/mod_%03d.py", i)] = sb.String()
	}
	write := func(root string, names []string) {
		for _, name := range names {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(src[name]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var names []string
	for name := range src {
		names = append(names, name)
	}
	slices.Sort(names)

	cold := t.TempDir()
	write(cold, names)
	ixCold := open(t, cold, index.Options{})
	if st := update(t, ixCold); st.Parsed != n {
		t.Fatalf("cold Update() parsed %d files, want %d", st.Parsed, n)
	}

	inc := t.TempDir()
	ixInc := open(t, inc, index.Options{})
	for i := 0; i < n; i += 20 {
		write(inc, names[i:min(i+20, n)])
		update(t, ixInc)
	}

	for _, q := range []string{
		`SELECT f.path, n.name, d.parent, d.kind, d.start, d."end" FROM defs d JOIN files f ON f.id = d.file_id JOIN names n ON n.id = d.name_id ORDER BY 1, 5`,
		`SELECT f.path, coalesce(cd.parent || '.' || cn.name, ''), n.name, coalesce(tf.path || ':' || td.start, ''), hex(c.sites)
		 FROM calls c JOIN files f ON f.id = c.file_id JOIN names n ON n.id = c.name_id
		 LEFT JOIN defs cd ON cd.id = c.caller_id LEFT JOIN names cn ON cn.id = cd.name_id
		 LEFT JOIN defs td ON td.id = c.callee_id LEFT JOIN files tf ON tf.id = td.file_id ORDER BY 1, 2, 3`,
		`SELECT f.path, i.module, i.names, coalesce(r.path, '') FROM imports i JOIN files f ON f.id = i.file_id LEFT JOIN files r ON r.id = i.resolved_id ORDER BY 1, 2`,
		`SELECT count(*) FROM calls WHERE callee_id != 0`,
	} {
		a, b := dump(t, ixCold, q), dump(t, ixInc, q)
		if len(a) == 0 {
			t.Errorf("cold build: %s: no rows", q)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s\n(-cold +incremental):\n%s", q, diff)
		}
	}
	for _, ix := range []*index.Index{ixCold, ixInc} {
		edges, err := ix.AllEdges(context.Background())
		if err != nil || len(edges) == 0 {
			t.Errorf("AllEdges() = %d edges, %v; want some", len(edges), err)
		}
		if err := ix.DB().IntegrityCheck(context.Background()); err != nil {
			t.Error(err)
		}
	}
}

func dump(t *testing.T, ix *index.Index, q string) []string {
	t.Helper()
	rows, err := ix.DB().QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out
}
