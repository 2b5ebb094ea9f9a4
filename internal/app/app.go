// Package app is the composition root: it opens the store with the
// tree-sitter parser and builds the services (agent sessions, the fix
// pipeline, the explorer, the context layer) from settings. It holds wiring
// only; the faces (cli, web, mcp) call it and nothing below it knows it
// exists.
package app
