package web

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/grit-dev/grit/internal/explore"
)

// apiDocPath is the API's documentation, relative to this package.
const apiDocPath = "../../docs/api.md"

// docAnswers lists, per endpoint section of docs/api.md, the Go types of its
// ```json blocks in order (for /api/model: its three events).
var docAnswers = map[string][]any{
	"GET /api/status":  {explore.Status{}},
	"GET /api/search":  {explore.SearchResult{}},
	"POST /api/search": {},
	"GET /api/tree":    {explore.TreeResult{}},
	"GET /api/find":    {explore.SymbolMatches{}},
	"GET /api/refs":    {explore.RefsResult{}},
	"GET /api/symbols": {explore.SymbolsResult{}},
	"GET /api/ast":     {explore.ASTNode{}},
	"GET /api/edges":   {explore.Edges{}},
	"GET /api/file":    {explore.FileSlice{}},
	"POST /api/clone":  {},
	"POST /api/model":  {modelDelta{}, explore.ModelProposal{}, modelError{}},
	"POST /api/apply":  {explore.ApplyResult{}},
	"POST /api/undo":   {explore.UndoResult{}},
}

// docTypes are the shared shapes of the Types section: an answer may elide
// one as {"...": "..."}.
var docTypes = map[string]reflect.Type{
	"Def":     reflect.TypeOf(explore.Def{}),
	"Signals": reflect.TypeOf(explore.Signals{}),
	"Stats":   reflect.TypeOf(explore.Status{}.Stats).Elem(),
}

var (
	headingRE = regexp.MustCompile("^### `(?:(GET|POST) (/api/[a-z]+)|([A-Za-z]+))")
	jsonRE    = regexp.MustCompile("(?s)```json\n(.*?)```")
)

// TestAPIDoc holds docs/api.md to the Go types of the explorer's JSON: every
// route has a section and every section a route; each section's examples
// are complete (every field of the type, at every depth, unless a shared
// type is elided) and name no field the type lacks.
func TestAPIDoc(t *testing.T) {
	b, err := os.ReadFile(apiDocPath)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{} // "GET /api/x" or a type name → its text
	var cur string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#") {
			cur = ""
			if m := headingRE.FindStringSubmatch(line); m != nil {
				cur = m[3]
				if m[1] != "" {
					cur = m[1] + " " + m[2]
				}
				if _, dup := sections[cur]; dup {
					t.Errorf("docs/api.md: two sections for %s", cur)
				}
				sections[cur] = ""
			}
			continue
		}
		if cur != "" {
			sections[cur] += line + "\n"
		}
	}
	for _, rt := range apiRoutes {
		key := rt.method + " " + rt.path
		if _, ok := sections[key]; !ok {
			t.Errorf("docs/api.md has no section for %s", key)
		}
		if _, ok := docAnswers[key]; !ok {
			t.Errorf("%s: add its answer types to docAnswers", key)
		}
	}
	elided := map[reflect.Type]string{}
	for name, typ := range docTypes {
		elided[typ] = name
	}
	for key, text := range sections {
		typ, isType := docTypes[key]
		answers, isRoute := docAnswers[key]
		switch {
		case isType:
			answers = []any{reflect.New(typ).Elem().Interface()}
		case !isRoute:
			t.Errorf("docs/api.md documents %s, which is no route (api.go) and no shared type", key)
			continue
		}
		blocks := jsonRE.FindAllStringSubmatch(text, -1)
		if len(blocks) != len(answers) {
			t.Errorf("%s: %d json examples in docs/api.md, want %d (one per answer type)", key, len(blocks), len(answers))
			continue
		}
		for i, blk := range blocks {
			var v any
			if err := json.Unmarshal([]byte(blk[1]), &v); err != nil {
				t.Errorf("%s: example %d is not JSON: %v", key, i+1, err)
				continue
			}
			w := docWalker{elided: elided, top: reflect.TypeOf(answers[i])}
			w.walk(v, reflect.TypeOf(answers[i]), key)
			for _, e := range w.errs {
				t.Error(e)
			}
		}
	}
}

type docWalker struct {
	elided map[reflect.Type]string
	top    reflect.Type
	errs   []string
}

// walk checks the example v against type t at where.
func (w *docWalker) walk(v any, t reflect.Type, where string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil || t == reflect.TypeOf(time.Time{}) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			w.errs = append(w.errs, fmt.Sprintf("%s: docs/api.md shows %T where %s is an object", where, v, t))
			return
		}
		if _, ok := m["..."]; ok {
			if len(m) != 1 {
				w.errs = append(w.errs, fmt.Sprintf("%s: %q mixes fields and \"...\": show every field or elide the whole object", where, t))
			} else if _, shared := w.elided[t]; !shared || t == w.top {
				w.errs = append(w.errs, fmt.Sprintf("%s: %s is elided but is no shared type of the Types section", where, t))
			}
			return
		}
		fields := jsonFields(t)
		for name, f := range fields {
			if val, ok := m[name]; !ok {
				w.errs = append(w.errs, fmt.Sprintf("%s: field %q of %s is missing from docs/api.md", where, name, t))
			} else {
				w.walk(val, f, where+"."+name)
			}
		}
		for name := range m {
			if _, ok := fields[name]; !ok {
				w.errs = append(w.errs, fmt.Sprintf("%s: docs/api.md names field %q, which %s does not have", where, name, t))
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return // []byte is a string in JSON
		}
		arr, ok := v.([]any)
		if !ok {
			w.errs = append(w.errs, fmt.Sprintf("%s: docs/api.md shows %T where %s is a list", where, v, t))
			return
		}
		for i, e := range arr {
			w.walk(e, t.Elem(), fmt.Sprintf("%s[%d]", where, i))
		}
	}
}

// jsonFields maps a struct's JSON names to their types, embedded structs
// flattened as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			for k, v := range jsonFields(et) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
