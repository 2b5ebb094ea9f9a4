package search

import (
	"math"
	"sort"
	"strings"

	"github.com/grit-dev/grit/internal/index"
)

// operationRE finds operations written in a task that Python dispatches to
// special methods: builtin calls, (in)equality, and instantiation in prose.
var operationRE = lazyRegexp(`\b(str|repr|hash|len|bool|abs|iter|int|float|format)\s*\(|(==|!=)|(?i:\b(instantiat\w*|constructors?|initiali[sz]\w*)\b)`)

// operationMethods maps what operationRE matched to the special methods
// that implement it.
var operationMethods = map[string][]string{
	"str": {"__str__"}, "repr": {"__repr__"}, "hash": {"__hash__"}, "len": {"__len__"},
	"bool": {"__bool__", "__nonzero__"}, "abs": {"__abs__"}, "iter": {"__iter__"},
	"int": {"__int__", "__index__"}, "float": {"__float__"}, "format": {"__format__"},
	"==": {"__eq__"}, "!=": {"__ne__", "__eq__"},
	"new": {"__init__", "__new__"},
}

// operations returns the special methods that the operations written in
// text run, each with the reason, sorted by method name.
func operations(text string) map[string]string {
	out := map[string]string{}
	for _, m := range operationRE().FindAllStringSubmatch(text, -1) {
		key, why := "", ""
		switch {
		case m[1] != "":
			key, why = m[1], "the task calls "+m[1]+"()"
		case m[2] != "":
			key, why = m[2], "the task compares with "+m[2]
		default:
			key, why = "new", "the task is about "+strings.ToLower(m[3])
		}
		for _, meth := range operationMethods[key] {
			if _, ok := out[meth]; !ok {
				out[meth] = why
			}
		}
	}
	return out
}

// scoreOperations credits the special methods implementing an operation the
// task performs with OperationShare of their file's standing, added to their
// symbol signal. It runs after the file signal is known and changes only the
// ranking of definitions.
func (c *Corpus) scoreOperations(qi queryInfo, cands []candidate) {
	ops := qi.ops
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		why := ops[name] + ", which " + name + " implements"
		for _, i := range c.byName[name] {
			if c.parentOf[i] < 0 {
				continue
			}
			x := &cands[i]
			v := OperationShare * x.fileCtx
			if v <= 0 {
				continue
			}
			if x.sym == 0 {
				x.symWhy = why
			} else {
				x.symWhy += "; " + why
			}
			x.sym = math.Min(1, x.sym+v)
		}
	}
	classes := make([]string, 0, len(qi.identW))
	for name, w := range qi.identW {
		if w >= SnippetWeight && len(c.bySegment[name]) > 0 {
			classes = append(classes, name)
		}
	}
	sort.Strings(classes)
	for _, name := range classes {
		isClass := false
		for _, i := range c.byName[name] {
			isClass = isClass || c.defs[i].Kind == index.KindClass
		}
		if !isClass {
			continue
		}
		for _, i := range c.bySegment[name] {
			x := &cands[i]
			if v := DispatchFileShare * x.fileCtx; v > 0 {
				x.sym = math.Min(1, x.sym+v)
			}
		}
	}
}
