package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

//go:embed write.md
var writeMD string

var writeDesc = render("write.md", writeMD)

// Write creates or replaces a whole file.
type Write struct{}

type writeInput struct {
	FilePath string  `json:"file_path" jsonschema:"Path, absolute or relative to the workspace root"`
	Content  *string `json:"content" jsonschema:"The whole new content"`
}

func (Write) Name() string        { return "Write" }
func (Write) Description() string { return writeDesc() }
func (Write) Kind() Kind          { return KindEdit }
func (Write) Schema() json.RawMessage {
	return rawSchema[writeInput](nil)
}

func (t Write) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, env, input))
}

func (Write) run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var in writeInput
	if err := decode("Write", input, &in); err != nil {
		return Result{}, err
	}
	if in.FilePath == "" || in.Content == nil {
		return Result{}, fixf(ErrInvalidPath, "Write needs file_path and content.")
	}
	rel, err := env.resolve(in.FilePath)
	if err != nil {
		return Result{}, err
	}
	unlock := env.lockFile(rel)
	defer unlock()

	data, fi, err := env.readFile(rel, maxEditSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return writeNew(env, rel, *in.Content)
	case err != nil:
		return Result{}, err
	}
	if err := checkFresh(env, rel, data, fi); err != nil {
		return Result{}, err
	}
	out := []byte(*in.Content)
	target, nfi, err := env.writeFile(rel, out, 0o644, true)
	if err != nil {
		return Result{}, err
	}
	env.MarkRead(rel, stateOf(out, nfi))
	return Result{Content: fmt.Sprintf("Wrote %s (%d bytes).", rel, len(out)), Changed: []string{target}}, nil
}
