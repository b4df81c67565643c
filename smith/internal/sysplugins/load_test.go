package sysplugins

import (
	"context"
	"slices"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
)

// TestEmbeddedLoad: every embedded artifact passes the engine's validation
// with the capabilities its policy grants, registers, and the tools plugin
// contributes the seven built-in tools.
func TestEmbeddedLoad(t *testing.T) {
	ctx := context.Background()
	h, err := plugin.Open(ctx, plugin.Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	arts, err := Artifacts()
	if err != nil {
		t.Fatal(err)
	}
	g, err := h.Load(ctx, arts)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var names []string
	for _, d := range g.Tools() {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"read", "write", "edit", "bash", "find", "grep", "ls"}) {
		t.Errorf("tools = %v", names)
	}
}
