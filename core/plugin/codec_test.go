package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

// sysDir holds the committed system plugin artifacts (built by
// tools/pluginbuild, embedded by the smith binary).
const sysDir = "../../smith/internal/sysplugins"

// codecPlugins are the committed provider codec artifacts, one per wire
// format, and the providers each declares.
var codecPlugins = map[string][]string{
	"providers-anthropic":        {"anthropic"},
	"providers-openai-responses": {"openai"},
	"providers-openai-chat":      {"openai-chat", "openai-compatible"},
	"providers-gemini":           {"google"},
}

// codecArtifact is the committed codec plugin file (a name of
// codecPlugins) as an artifact named name.
func codecArtifact(tb testing.TB, file, name string) Artifact {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(sysDir, file+".wasm"))
	if err != nil {
		tb.Fatalf("read the committed codec artifact: %v", err)
	}
	sum := sha256.Sum256(b)
	return Artifact{Name: name, Wasm: b, SHA256: hex.EncodeToString(sum[:]), Instrumented: wasmhost.InstrumentationVersion()}
}

// codecArtifacts are the committed codec plugins, sorted by name.
func codecArtifacts(tb testing.TB) []Artifact {
	tb.Helper()
	var arts []Artifact
	for _, name := range slices.Sorted(maps.Keys(codecPlugins)) {
		arts = append(arts, codecArtifact(tb, name, name))
	}
	return arts
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
		g, err := h.Load(ctx, append([]Artifact{artifact(t, "tools")}, codecArtifacts(t)...))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { g.Close(); _ = h.Close(ctx) })
		return h, g
	}
	_, g := load()
	byPlugin := map[string][]ProviderDefinition{}
	for _, p := range g.Providers() {
		if p.DisplayName == "" {
			t.Errorf("provider %+v has no display name", p)
		}
		byPlugin[p.Plugin] = append(byPlugin[p.Plugin], p)
	}
	for plugin, want := range codecPlugins {
		var got []string
		for _, p := range byPlugin[plugin] {
			got = append(got, p.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s declares %v; want %v", plugin, got, want)
		}
		in, err := g.Acquire(ctx, plugin)
		if err != nil {
			t.Fatal(err)
		}
		live, err := pluginabi.Bind(in).DeclareContributions(ctx, pluginabi.DeclareOptions{WorldVersion: WorldVersion, Configuration: "{}"})
		in.Release()
		if err != nil {
			t.Fatal(err)
		}
		if len(live.Providers) != len(byPlugin[plugin]) {
			t.Fatalf("the generation lists %d providers of %s; a live instance declares %d", len(byPlugin[plugin]), plugin, len(live.Providers))
		}
		for i, p := range live.Providers {
			got := byPlugin[plugin][i]
			if got.Name != p.Name || strings.Join(got.SecretNames, ",") != strings.Join(p.SecretNames, ",") {
				t.Errorf("%s provider %d: generation %+v, live %+v", plugin, i, got, p)
			}
		}
	}
	if a, ok := g.Provider("anthropic"); !ok || a.Plugin != "providers-anthropic" {
		t.Errorf("Provider(anthropic) = %+v, %v", a, ok)
	}
	if _, ok := g.Provider("nobody"); ok {
		t.Error("Provider(nobody) found one")
	}
	if _, err := g.Acquire(ctx, "nobody"); err == nil || !strings.Contains(err.Error(), `no plugin "nobody"`) {
		t.Errorf("Acquire(nobody) = %v", err)
	}

	_, warm := load()
	for plugin := range codecPlugins {
		if l := warm.plugin(plugin); l.plugin != nil {
			t.Errorf("a warm load compiled %s; its registration should come from the cache", plugin)
		}
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
	if warm.plugin("providers-anthropic").plugin != nil || warm.plugin("tools").plugin == nil {
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
	_, err = h.Load(ctx, []Artifact{codecArtifact(t, "providers-gemini", "providers-gemini"), codecArtifact(t, "providers-gemini", "copy")})
	if err == nil || !strings.Contains(err.Error(), `is declared by both "providers-gemini" and "copy"`) {
		t.Fatalf("Load = %v", err)
	}
}

// TestRegistrationAhead: a registration computed by Register lets a Load
// on an empty cache publish the plugin without compiling it; one computed
// for other bytes, other grants or garbage is ignored, and the plugin is
// registered live.
func TestRegistrationAhead(t *testing.T) {
	ctx := context.Background()
	h, err := Open(ctx, Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	gemini := codecArtifact(t, "providers-gemini", "providers-gemini")
	reg, err := h.Register(ctx, gemini)
	if err != nil {
		t.Fatal(err)
	}
	other, err := h.Register(ctx, codecArtifact(t, "providers-anthropic", "providers-anthropic"))
	if err != nil {
		t.Fatal(err)
	}
	granted := gemini
	granted.Grants = []string{"fs"}
	tests := []struct {
		name     string
		art      Artifact
		reg      []byte
		compiled bool
	}{
		{name: "matching", art: gemini, reg: reg},
		{name: "other-bytes", art: gemini, reg: other, compiled: true},
		{name: "other-grants", art: granted, reg: reg, compiled: true},
		{name: "garbage", art: gemini, reg: []byte("{"), compiled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Open(ctx, Config{CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close(ctx)
			a := tt.art
			a.Registration = tt.reg
			g, err := h.Load(ctx, []Artifact{a})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			if d, ok := g.Provider("google"); !ok || d.Plugin != "providers-gemini" {
				t.Errorf("Provider(google) = %+v, %v", d, ok)
			}
			if compiled := g.plugin("providers-gemini").plugin != nil; compiled != tt.compiled {
				t.Errorf("compiled at load: %v; want %v", compiled, tt.compiled)
			}
		})
	}
}

// TestValidateModels: a plugin declares models only of its own providers,
// each once and with a usable name; Models returns them with their limits.
func TestValidateModels(t *testing.T) {
	plugin := func(name string, providers []string, models ...pluginabi.ModelDefinition) *loaded {
		l := &loaded{art: Artifact{Name: name}}
		for _, p := range providers {
			l.contrib.Providers = append(l.contrib.Providers, pluginabi.ProviderDefinition{Name: p, DisplayName: p})
		}
		l.contrib.Models = models
		return l
	}
	echo := pluginabi.ModelDefinition{Provider: "toy", Name: "echo-1", ContextWindow: 8192, OutputLimit: 1024, SupportsTools: true}
	tests := []struct {
		name    string
		plugins []*loaded
		want    string
	}{
		{name: "ok", plugins: []*loaded{plugin("toy-provider", []string{"toy"}, echo)}},
		{name: "another plugin's provider", plugins: []*loaded{plugin("toy-provider", []string{"toy"}), plugin("thief", nil, echo)},
			want: `"thief" declares the model "echo-1" of provider "toy", which it does not declare`},
		{name: "twice", plugins: []*loaded{plugin("toy-provider", []string{"toy"}, echo, echo)},
			want: `"toy-provider" declares the model "toy/echo-1" twice`},
		{name: "spaces", plugins: []*loaded{plugin("toy-provider", []string{"toy"}, pluginabi.ModelDefinition{Provider: "toy", Name: "echo 1"})},
			want: `declares a model named "echo 1"; a model name is 1 to 128 characters without spaces`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &Generation{plugins: tt.plugins}
			err := g.validateProviders()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				want := []ModelDefinition{{Plugin: "toy-provider", Provider: "toy", Name: "echo-1", ContextWindow: 8192, OutputLimit: 1024, Tools: true}}
				if got := g.Models(); !slices.Equal(got, want) {
					t.Fatalf("Models() = %+v, want %+v", got, want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}
