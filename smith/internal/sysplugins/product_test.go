package sysplugins

import (
	"context"
	"slices"
	"testing"
)

// TestProductPlugin: the embedded product plugin is granted fs and nothing
// else, loads beside the tools plugin, and contributes the init command
// (its prompt and context transform are exercised by
// TestFirstRequestBudget and core/plugin's tests).
func TestProductPlugin(t *testing.T) {
	arts, err := Artifacts("product")
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) != 1 || !slices.Equal(arts[0].Grants, []string{"fs"}) {
		t.Fatalf("Artifacts(product) = %+v; want one artifact granted fs only", arts)
	}
	ctx := context.Background()
	h := testHost(t)
	all, err := Artifacts()
	if err != nil {
		t.Fatal(err)
	}
	g, err := h.Load(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	cmds := g.Commands()
	if len(cmds) != 1 || cmds[0].Name != "init" || cmds[0].Plugin != "product" {
		t.Errorf("commands = %+v; want product's init", cmds)
	}
}
