package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grit-dev/grit/internal/index"
)

// TestLangsIndex indexes a repository of Rust, C, C++, Java, Ruby and
// JavaScript files: every stored definition's range is exactly its source,
// and imports resolve to the files they name.
func TestLangsIndex(t *testing.T) {
	ctx := context.Background()
	root := writeRepo(t, "langs/repo.txtar")
	ix := open(t, root, index.Options{})
	update(t, ix)
	defs, err := ix.AllDefs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{} // path:qname → kind
	for _, d := range defs {
		got[d.Path+":"+d.QName] = d.Lang + " " + d.Kind
		src, err := os.ReadFile(filepath.Join(root, d.Path))
		if err != nil {
			t.Fatal(err)
		}
		body, err := ix.Source(ctx, d)
		if err != nil {
			t.Errorf("Source(%s) = %v", d.QName, err)
		} else if string(body) != string(src[d.Start:d.End]) {
			t.Errorf("Source(%s) = %q, want %q", d.QName, body, src[d.Start:d.End])
		}
		if string(src[d.NameStart:d.NameEnd]) != d.Name {
			t.Errorf("%s %s: bytes at the name range = %q", d.Path, d.QName, src[d.NameStart:d.NameEnd])
		}
	}
	want := map[string]string{
		"crate/src/lib.rs:area":                     "rust function",
		"crate/src/units.rs:Meters":                 "rust class",
		"crate/src/units.rs:scale":                  "rust function",
		"c/main.c:main":                             "c function",
		"c/buffer.h:buffer":                         "c class",
		"c/buffer.c:buffer_len":                     "c function",
		"cpp/app.cpp:Circle.area":                   "cpp method",
		"cpp/geo/circle.hpp:Circle":                 "cpp class",
		"java/src/com/ex/App.java:App":              "java class",
		"java/src/com/ex/App.java:App.main":         "java method",
		"java/src/com/ex/model/Item.java:Item":      "java class",
		"java/src/com/ex/model/Item.java:Item.show": "java method",
		"ruby/app.rb:App":                           "ruby class",
		"ruby/app.rb:App.run":                       "ruby method",
		"ruby/lib/util.rb:Util":                     "ruby class",
		"web/helpers.js:help":                       "javascript function",
		"web/polyfill.js:fill":                      "javascript function",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AllDefs() (-want +got):\n%s", diff)
	}

	resolved := map[string]string{}
	for _, f := range []string{"crate/src/lib.rs", "c/main.c", "c/buffer.c", "cpp/app.cpp", "java/src/com/ex/App.java", "web/main.js", "ruby/app.rb"} {
		imps, err := ix.Imports(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range imps {
			resolved[f+" "+i.Module] = i.Resolved
		}
	}
	wantRes := map[string]string{
		"crate/src/lib.rs units":                "crate/src/units.rs",
		"crate/src/lib.rs crate::units":         "crate/src/units.rs",
		"c/main.c <stdio.h>":                    "",
		"c/main.c buffer.h":                     "c/buffer.h",
		"c/buffer.c buffer.h":                   "c/buffer.h",
		"cpp/app.cpp geo/circle.hpp":            "cpp/geo/circle.hpp",
		"java/src/com/ex/App.java com.ex.model": "java/src/com/ex/model/Item.java",
		"web/main.js ./polyfill":                "web/polyfill.js",
		"web/main.js ./helpers":                 "web/helpers.js",
		"ruby/app.rb lib/util":                  "ruby/lib/util.rb",
		"ruby/app.rb json":                      "",
	}
	if diff := cmp.Diff(wantRes, resolved); diff != "" {
		t.Errorf("resolved imports (-want +got):\n%s", diff)
	}
}
