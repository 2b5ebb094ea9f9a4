package index

// How a call was resolved to its definition, in the order resolve tries
// the steps. Only ViaName is a guess: the name is defined once in the
// repository, and nothing in the calling file says that definition is meant.
const (
	ViaClass  = "class"  // a sibling of the caller in its enclosing class (self.x(), a method of the same type)
	ViaFile   = "file"   // a definition in the calling file
	ViaImport = "import" // a definition in a file the calling file imports
	ViaName   = "name"   // the name's only definition in the repository: a name-only match
)

// ResolvedVia reports which step of resolve (edges.go) links a call made in
// callerPath, from a definition whose Parent is callerParent ("" at module
// level or for a top-level function), to callee. imported holds the
// repository files callerPath imports (Import.Resolved).
func ResolvedVia(callerPath, callerParent string, callee Def, imported map[string]bool) string {
	switch {
	case callee.Path == callerPath && callerParent != "" && callee.Parent == callerParent:
		return ViaClass
	case callee.Path == callerPath:
		return ViaFile
	case imported[callee.Path]:
		return ViaImport
	}
	return ViaName
}
