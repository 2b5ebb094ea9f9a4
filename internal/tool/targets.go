package tool

import (
	"context"
	"encoding/json"
)

// Targeted is implemented by tools whose input does not name the file they
// touch in a path field (EditFunction names a definition; the index knows
// its file).
type Targeted interface {
	// Targets returns the absolute paths the call would read or write.
	Targets(ctx context.Context, env *Env, input json.RawMessage) ([]string, error)
}

// Targets returns the absolute paths a call of t would read or write,
// resolved the way the tool itself resolves them, so that the permission
// check looks at the file actually touched. A tool that names no path
// (Bash, a Grep of the whole workspace) has none. A path the tool would
// refuse (outside the workspace, a definition the index does not know) is
// returned as an error Result for the model, with ok false.
func Targets(ctx context.Context, t Tool, env *Env, input json.RawMessage) (paths []string, refused Result, err error) {
	if env == nil {
		return nil, Result{}, nil
	}
	var ps []string
	if tt, ok := t.(Targeted); ok {
		ps, err = tt.Targets(ctx, env, input)
	} else if KindOf(t) != KindExecute {
		ps, err = pathField(env, input)
	}
	if res, ferr := finish(Result{}, err); ferr != nil || res.IsError {
		return nil, res, ferr
	}
	return ps, Result{}, nil
}

// pathField resolves the path field Claude Code's file tools use
// (file_path, notebook_path, path).
func pathField(env *Env, input json.RawMessage) ([]string, error) {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Path         string `json:"path"`
	}
	if json.Unmarshal(input, &in) != nil {
		return nil, nil // the tool reports its own input errors
	}
	p := in.FilePath
	if p == "" {
		p = in.NotebookPath
	}
	if p == "" {
		p = in.Path
	}
	if p == "" {
		return nil, nil
	}
	rel, err := env.resolve(p)
	if err != nil {
		return nil, err
	}
	return []string{env.Abs(rel)}, nil
}
