package sysplugins

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
)

// TestEmbeddedLoad: every embedded artifact passes the engine's validation
// with the capabilities its policy grants, registers, and the tools plugin
// contributes the seven built-in tools.
func TestEmbeddedLoad(t *testing.T) {
	ctx := context.Background()
	h := testHost(t)
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

// TestTamperedRefusedByLoad: an embedded artifact with one byte flipped has
// its pinned size, so load hands it on, and core/plugin refuses it on its
// SHA-256 before any of it runs: Host.Load before registering (no
// registration ahead, a cold cache); with the embedded registration or a
// cached one, Load publishes the declarations and the first compile
// (Prepare) refuses it.
func TestTamperedRefusedByLoad(t *testing.T) {
	ctx := context.Background()
	p := toolsPin(t)
	flipped := append([]byte(nil), p.data...)
	flipped[len(flipped)/2] ^= 1
	bad := p
	bad.data = flipped
	arts, err := load([]pin{bad}, instrumented, nil)
	if err != nil {
		t.Fatalf("load of a same-size artifact: %v; the size check alone should pass it", err)
	}
	cache := t.TempDir()
	tests := []struct {
		name  string
		ahead bool // the embedded registration
		warm  bool // a cached registration
	}{
		{name: "registered-ahead", ahead: true},
		{name: "cold-cache"},
		{name: "warm-cache", warm: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := plugin.Open(ctx, plugin.Config{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close(ctx)
			if tt.warm {
				goodArts, err := load([]pin{p}, instrumented, nil)
				if err != nil {
					t.Fatal(err)
				}
				goodArts[0].Registration = nil
				g, err := h.Load(ctx, goodArts)
				if err != nil {
					t.Fatalf("load of the untampered artifact: %v", err)
				}
				g.Close()
			}
			a := arts[0]
			if !tt.ahead {
				a.Registration = nil
			}
			published := tt.ahead || tt.warm
			g, err := h.Load(ctx, []plugin.Artifact{a})
			if published {
				if err != nil {
					t.Fatalf("a load with a registration publishes its declarations: %v", err)
				}
				err = g.Prepare(ctx)
				g.Close()
			}
			if err == nil {
				if !published {
					g.Close()
				}
				t.Fatal("a tampered artifact was loaded and prepared")
			}
			for _, w := range []string{`artifact "tools" has SHA-256`, "not the pinned " + p.sha256} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
