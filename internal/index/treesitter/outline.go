package treesitter

import (
	"context"

	"github.com/grit-dev/grit/internal/edit"
	"github.com/grit-dev/grit/internal/index"
)

// editParser is the parser Outline uses; it is safe for concurrent use.
var editParser = New()

// Outline is the quality monitor's parse callback (edit.ParseFunc): the
// tree-sitter error count of src and its top-level definitions.
func Outline(ctx context.Context, path string, src []byte) (edit.Outline, error) {
	parsed, err := editParser.Parse(ctx, path, src)
	if err != nil {
		return edit.Outline{}, err
	}
	out := edit.Outline{Errors: parsed.Errors}
	for _, d := range parsed.Defs {
		// Top level only; a Go method's Parent is its receiver type.
		if (d.Parent == "" || parsed.Lang == "go") && d.Kind != index.KindVariable {
			out.Defs = append(out.Defs, edit.OutlineDef{Name: d.Name, Kind: d.Kind, Start: d.Start, End: d.End})
		}
	}
	return out, nil
}
