package providers

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/httpengine"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
	"github.com/smith-agent/smith/wasmhost"
)

// Options configures [Open]. The zero value reads the process environment
// and no auth file.
type Options struct {
	// AuthFile is Smith's auth file; nil means none.
	AuthFile *auth.File
	// BaseURL, when set, overrides the provider's base URL (a flag's value).
	BaseURL string
	// LookupEnv reads the environment for credentials; nil means
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Environ is the environment the codec takes its base URL variable
	// from; nil means os.Environ().
	Environ []string
	// CacheDir holds compiled plugin code; empty means the user cache
	// directory (see wasmhost.Config).
	CacheDir string
}

// Opened is a provider whose plugin is loaded and whose credential is
// resolved. Close it when the run is over.
type Opened struct {
	// Name and Model are the two halves of --model.
	Name, Model string
	cfg         provider.Config
	close       func(context.Context) error
}

// Provider returns the provider bridge. With a journal, every exchange is
// recorded durably as a provider.exchange effect (redacted intent before
// anything is sent); nil records none.
func (o *Opened) Provider(j *effect.Journal) (model.Provider, error) {
	cfg := o.cfg
	cfg.Journal = j
	return provider.New(cfg)
}

// Close releases the plugin instances and the engine.
func (o *Opened) Close(ctx context.Context) error { return o.close(ctx) }

// Split splits a --model value "PROVIDER/MODEL" at its first slash.
func Split(spec string) (name, modelID string, ok bool) {
	name, modelID, ok = strings.Cut(spec, "/")
	return name, modelID, ok && name != "" && modelID != ""
}

// Open loads the provider codec plugin and returns the provider that spec
// ("PROVIDER/MODEL") names, with its credential resolved. Errors name the
// provider and say where a credential or a valid name comes from.
func Open(ctx context.Context, spec string, o Options) (_ *Opened, err error) {
	name, modelID, ok := Split(spec)
	if !ok {
		return nil, fmt.Errorf("providers: --model %q is not PROVIDER/MODEL, such as anthropic/claude-sonnet-4-5; list models with 'smith models'", spec)
	}
	if !slices.Contains(sysplugins.Names(), plugin) {
		return nil, fmt.Errorf("providers: --model %q needs the provider codec plugin, which this build does not embed (embedded: %s); use --model mock for the offline demo", spec, strings.Join(sysplugins.Names(), ", "))
	}
	arts, err := sysplugins.Artifacts(plugin)
	if err != nil {
		return nil, err
	}
	return open(ctx, arts[0].Wasm, name, modelID, o)
}

// plugin is the name of the embedded provider codec plugin.
const plugin = "providers"

// open opens provider name of the codec plugin wasm.
func open(ctx context.Context, wasm []byte, name, modelID string, o Options) (_ *Opened, err error) {
	spec := name + "/" + modelID
	eng, err := wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: o.CacheDir})
	if err != nil {
		return nil, err
	}
	var gen *wasmhost.Generation
	defer func() {
		if err != nil {
			if gen != nil {
				gen.Close()
			}
			_ = eng.Close(ctx)
		}
	}()
	p, err := provider.Compile(ctx, eng, wasmhost.Artifact{Name: plugin, Reader: bytes.NewReader(wasm)})
	if err != nil {
		return nil, err
	}
	if gen, err = wasmhost.NewGeneration(p); err != nil {
		return nil, err
	}
	declared, err := provider.Declared(ctx, gen, plugin)
	if err != nil {
		return nil, err
	}
	secrets, known := declared[name]
	if !known {
		names := make([]string, 0, len(declared))
		for n := range declared {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("providers: --model %q names provider %q, which no provider plugin declares; use one of %s", spec, name, strings.Join(names, ", "))
	}
	resolver := auth.Resolver{File: o.AuthFile, LookupEnv: o.LookupEnv}
	cred, err := resolver.Resolve(ctx, auth.Spec{Provider: name, Env: secrets})
	if err != nil {
		return nil, err
	}
	he, err := httpengine.New(httpengine.Config{})
	if err != nil {
		return nil, fmt.Errorf("providers: %w", err)
	}
	cfg := provider.Config{Name: name, Plugin: plugin, Instances: gen, Engine: he,
		Secrets: cred.Lookup(secrets), BaseURLFlag: o.BaseURL, Environ: o.Environ}
	if _, err := provider.New(cfg); err != nil {
		return nil, err
	}
	return &Opened{Name: name, Model: modelID, cfg: cfg, close: func(ctx context.Context) error {
		gen.Close()
		return eng.Close(ctx)
	}}, nil
}
