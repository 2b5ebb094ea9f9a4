// Package demo embeds the project `grit demo` fixes: a tiny Go package with a
// real bug, its failing test, the task, and the scripted model reply that
// stands in for a real model so the demo needs no model and no server.
package demo

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/txtar"
)

// Task is the demo's bug report.
const Task = "Total ignores the quantity of each item"

//go:embed project.txtar
var project []byte

// Script is the scripted model's reply, in the scripted provider's format.
//
//go:embed model.json
var Script []byte

// Extract writes the demo project into dir.
func Extract(dir string) error {
	for _, f := range txtar.Parse(project).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	return nil
}
