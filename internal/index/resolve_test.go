package index

import "testing"

// TestResolve: imports of every language resolve to the repository file they
// name, or to "" when they are external.
func TestResolve(t *testing.T) {
	paths := []string{
		// C and C++
		"src/buffer.c", "src/buffer.h", "src/util/log.h", "include/mylib/api.h", "other/log.h",
		"src/geo/shape.cpp", "src/geo/shape.hpp",
		// Java
		"app/src/main/java/com/example/shop/Inventory.java",
		"app/src/main/java/com/example/shop/model/Item.java",
		"app/src/main/java/com/example/shop/model/Price.java",
		// Rust
		"crate/src/lib.rs", "crate/src/units.rs", "crate/src/config/mod.rs", "crate/src/config/parse.rs",
		"crate/src/shapes.rs", "crate/src/shapes/circle.rs",
		// Ruby
		"shop/cart.rb", "shop/pricing.rb", "lib/tax.rb", "lib/shop/money.rb",
		// Python and JavaScript, unchanged
		"pkg/__init__.py", "pkg/util.py", "web/a.js", "web/y.ts", "web/polyfill.js",
	}
	r := newResolver(t.TempDir(), paths)
	tests := []struct {
		name, lang, importer string
		imp                  Import
		want                 string
	}{
		{"c quoted sibling", "c", "src/buffer.c", Import{Module: "buffer.h"}, "src/buffer.h"},
		{"c quoted relative", "c", "src/buffer.c", Import{Module: "util/log.h"}, "src/util/log.h"},
		{"c quoted by suffix", "c", "src/buffer.c", Import{Module: "../util/log.h"}, "src/util/log.h"},
		{"c quoted by suffix, nearest", "c", "src/buffer.c", Import{Module: "log.h"}, "src/util/log.h"},
		{"c quoted by suffix, elsewhere", "c", "other/x.c", Import{Module: "log.h"}, "other/log.h"},
		{"c angle by suffix", "c", "src/buffer.c", Import{Module: "<mylib/api.h>"}, "include/mylib/api.h"},
		{"c system header", "c", "src/buffer.c", Import{Module: "<stdio.h>"}, ""},
		{"cpp header", "cpp", "src/geo/shape.cpp", Import{Module: "shape.hpp"}, "src/geo/shape.hpp"},
		{"cpp standard", "cpp", "src/geo/shape.cpp", Import{Module: "<vector>"}, ""},
		{"java class", "java", "app/src/main/java/com/example/shop/Inventory.java",
			Import{Module: "com.example.shop.model", Names: []string{"Item"}}, "app/src/main/java/com/example/shop/model/Item.java"},
		{"java static member", "java", "app/src/main/java/com/example/shop/Inventory.java",
			Import{Module: "com.example.shop.model.Price", Names: []string{"of"}}, "app/src/main/java/com/example/shop/model/Price.java"},
		{"java star", "java", "app/src/main/java/com/example/shop/Inventory.java",
			Import{Module: "com.example.shop.model", Names: []string{"*"}}, "app/src/main/java/com/example/shop/model/Item.java"},
		{"java library", "java", "app/src/main/java/com/example/shop/Inventory.java",
			Import{Module: "java.util", Names: []string{"List"}}, ""},
		{"rust crate item", "rust", "crate/src/shapes.rs", Import{Module: "crate::units", Names: []string{"Meters"}}, "crate/src/units.rs"},
		{"rust crate module dir", "rust", "crate/src/units.rs", Import{Module: "crate::config", Names: []string{"parse"}}, "crate/src/config/parse.rs"},
		{"rust mod declaration", "rust", "crate/src/shapes.rs", Import{Module: "circle"}, "crate/src/shapes/circle.rs"},
		{"rust mod in lib.rs", "rust", "crate/src/lib.rs", Import{Module: "config"}, "crate/src/config/mod.rs"},
		{"rust super", "rust", "crate/src/shapes/circle.rs", Import{Module: "super::super::units", Names: []string{"*"}}, "crate/src/units.rs"},
		{"rust super star", "rust", "crate/src/shapes/circle.rs", Import{Module: "super", Names: []string{"*"}}, "crate/src/shapes.rs"},
		{"rust self", "rust", "crate/src/config/mod.rs", Import{Module: "self::parse", Names: []string{"Parser"}}, "crate/src/config/parse.rs"},
		{"rust std", "rust", "crate/src/lib.rs", Import{Module: "std::collections", Names: []string{"HashMap"}}, ""},
		{"ruby require_relative", "ruby", "shop/cart.rb", Import{Module: "pricing"}, "shop/pricing.rb"},
		{"ruby require_relative up", "ruby", "shop/cart.rb", Import{Module: "../lib/tax.rb"}, "lib/tax.rb"},
		{"ruby require from lib", "ruby", "shop/cart.rb", Import{Module: "shop/money"}, "lib/shop/money.rb"},
		{"ruby gem", "ruby", "shop/cart.rb", Import{Module: "json"}, ""},
		{"python relative", "python", "pkg/__init__.py", Import{Module: ".util"}, "pkg/util.py"},
		{"js relative", "javascript", "web/a.js", Import{Module: "./y"}, "web/y.ts"},
		{"js side effect", "javascript", "web/a.js", Import{Module: "./polyfill"}, "web/polyfill.js"},
		{"js package", "javascript", "web/a.js", Import{Module: "react"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.resolve(tt.lang, tt.importer, tt.imp); got != tt.want {
				t.Errorf("resolve(%s, %s, %+v) = %q, want %q", tt.lang, tt.importer, tt.imp, got, tt.want)
			}
		})
	}
}
