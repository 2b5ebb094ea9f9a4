package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/grit-dev/grit/internal/app"
	"github.com/grit-dev/grit/internal/fix/oracle"
	"github.com/grit-dev/grit/internal/index"
)

func TestZZDebugGold(t *testing.T) {
	id := os.Getenv("DBG_ID")
	if id == "" {
		t.Skip()
	}
	recs, err := oracle.LoadInstances(os.Getenv("DBG_DATA"))
	if err != nil {
		t.Fatal(err)
	}
	parser := app.NewParser()
	parse := func(ctx context.Context, path string, src []byte) ([]index.Def, error) {
		p, err := parser.Parse(ctx, path, src)
		if err != nil {
			fmt.Println("PARSE ERR", path, err)
			return nil, err
		}
		return p.Defs, nil
	}
	for _, r := range recs {
		if r.InstanceID != id {
			continue
		}
		mirror := "/work/.mirror/" + strings.ReplaceAll(r.Repo, "/", "+") + "/repo"
		g, err := oracle.NewGold(context.Background(), r.Patch, func(string) bool { return true }, func(p string) ([]byte, error) {
			return exec.Command("git", "--git-dir="+mirror, "cat-file", "blob", r.BaseCommit+":"+p).Output()
		}, parse)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range g.Order {
			gf := g.Files[p]
			fmt.Println("FILE", p, gf.Lang, len(gf.PreDefs), len(gf.PostDefs), "infunc", gf.InFunctionsOnly())
			for _, d := range gf.Edited() {
				post, ok := gf.PostOf(d)
				b, _ := json.Marshal(d)
				fmt.Println(" EDITED", string(b), ok)
				fmt.Println(post)
			}
		}
	}
}
