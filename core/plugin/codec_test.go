package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

// codecFile is the committed provider codec artifact (built by
// tools/pluginbuild, embedded by the smith binary).
const codecFile = "../../smith/internal/sysplugins/providers.wasm"

// codecArtifact is the committed codec plugin as an artifact named name.
func codecArtifact(tb testing.TB, name string) Artifact {
	tb.Helper()
	b, err := os.ReadFile(codecFile)
	if err != nil {
		tb.Fatalf("read the committed codec artifact: %v", err)
	}
	sum := sha256.Sum256(b)
	return Artifact{Name: name, Wasm: b, SHA256: hex.EncodeToString(sum[:]), Instrumented: wasmhost.InstrumentationVersion()}
}

// TestCodecsLoadWithTheTools: the provider codecs and the tools load into
// one generation; its providers are what a live instance declares, an
// instance comes from the generation, and a warm load (registration
// cached) compiles no codec.
func TestCodecsLoadWithTheTools(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	load := func() (*Host, *Generation) {
		h, err := Open(ctx, Config{CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		g, err := h.Load(ctx, []Artifact{artifact(t, "tools"), codecArtifact(t, "providers")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { g.Close(); _ = h.Close(ctx) })
		return h, g
	}
	_, g := load()
	var names []string
	for _, p := range g.Providers() {
		if p.Plugin != "providers" || p.DisplayName == "" {
			t.Errorf("provider %+v", p)
		}
		names = append(names, p.Name)
	}
	for _, want := range []string{"anthropic", "google", "openai", "openai-compatible"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("providers %v lack %s", names, want)
		}
	}
	in, err := g.Acquire(ctx, "providers")
	if err != nil {
		t.Fatal(err)
	}
	live, err := pluginabi.Bind(in).DeclareContributions(ctx, pluginabi.DeclareOptions{WorldVersion: WorldVersion, Configuration: "{}"})
	in.Release()
	if err != nil {
		t.Fatal(err)
	}
	if len(live.Providers) != len(g.Providers()) {
		t.Fatalf("the generation lists %d providers; a live instance declares %d", len(g.Providers()), len(live.Providers))
	}
	for i, p := range live.Providers {
		got := g.Providers()[i]
		if got.Name != p.Name || strings.Join(got.SecretNames, ",") != strings.Join(p.SecretNames, ",") {
			t.Errorf("provider %d: generation %+v, live %+v", i, got, p)
		}
	}
	if a, ok := g.Provider("anthropic"); !ok || a.Plugin != "providers" {
		t.Errorf("Provider(anthropic) = %+v, %v", a, ok)
	}
	if _, ok := g.Provider("nobody"); ok {
		t.Error("Provider(nobody) found one")
	}
	if _, err := g.Acquire(ctx, "nobody"); err == nil || !strings.Contains(err.Error(), `no plugin "nobody"`) {
		t.Errorf("Acquire(nobody) = %v", err)
	}

	_, warm := load()
	if l := warm.plugin("providers"); l.plugin != nil {
		t.Error("a warm load compiled the codec plugin; its registration should come from the cache")
	}
	if len(warm.Providers()) != len(g.Providers()) {
		t.Errorf("warm load lists %d providers", len(warm.Providers()))
	}
	if err := warm.Prepare(ctx, "nobody"); err == nil {
		t.Error("Prepare of an unknown plugin succeeded")
	}
	if err := warm.Prepare(ctx, "tools"); err != nil {
		t.Fatal(err)
	}
	if warm.plugin("providers").plugin != nil || warm.plugin("tools").plugin == nil {
		t.Error("Prepare(tools) must compile the tools and only them")
	}
	if _, err := os.Stat(filepath.Join(cache, "registrations")); err != nil {
		t.Errorf("no registration cache: %v", err)
	}
}

// TestProviderDeclaredTwice: two plugins contributing one provider name
// fail the load, naming both.
func TestProviderDeclaredTwice(t *testing.T) {
	ctx := context.Background()
	h, err := Open(ctx, Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	_, err = h.Load(ctx, []Artifact{codecArtifact(t, "providers"), codecArtifact(t, "copy")})
	if err == nil || !strings.Contains(err.Error(), `is declared by both "providers" and "copy"`) {
		t.Fatalf("Load = %v", err)
	}
}
