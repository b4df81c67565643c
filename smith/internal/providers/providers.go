package providers

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/catalog"
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
	// Catalog describes the model; nil means the catalog knows nothing of
	// it: requests are not checked and costs stay unknown. With it, every
	// request is admitted against its advertised capabilities before
	// dispatch (catalog.Guard) and every response is priced from the
	// reported usage (catalog.Cost).
	Catalog *catalog.Model
	// Policy says how an unsupported option degrades; the zero Policy is
	// catalog's default (thinking adjusts, images and tools fail).
	Policy catalog.Policy
	// Thinking is the requested reasoning level; "" means the vendor's
	// default. It is admitted against Catalog when Open is called.
	Thinking catalog.Level
	// Warn receives each adjustment made to fit the model (a thinking
	// level clamped, images replaced); nil discards them.
	Warn func(string)
}

// Opened is a provider whose plugin is loaded and whose credential is
// resolved. Close it when the run is over.
type Opened struct {
	// Name and Model are the two halves of --model.
	Name, Model string
	cfg         provider.Config
	guard       func(model.Provider) model.Provider
	close       func(context.Context) error
}

// Provider returns the provider bridge, behind the catalog's capability
// check when the model is described (see Options.Catalog). With a journal, every exchange is
// recorded durably as a provider.exchange effect (redacted intent before
// anything is sent); nil records none.
func (o *Opened) Provider(j *effect.Journal) (model.Provider, error) {
	cfg := o.cfg
	cfg.Journal = j
	p, err := provider.New(cfg)
	if err != nil {
		return nil, err
	}
	return o.guard(p), nil
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

// load compiles the codec plugin wasm and asks it which providers it
// declares, with their secret names. The returned function releases what
// load made.
func load(ctx context.Context, wasm []byte, cacheDir string) (*wasmhost.Generation, map[string][]string, func(context.Context) error, error) {
	eng, err := wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: cacheDir})
	if err != nil {
		return nil, nil, nil, err
	}
	var gen *wasmhost.Generation
	closeAll := func(ctx context.Context) error {
		if gen != nil {
			gen.Close()
		}
		return eng.Close(ctx)
	}
	fail := func(err error) (*wasmhost.Generation, map[string][]string, func(context.Context) error, error) {
		_ = closeAll(ctx)
		return nil, nil, nil, err
	}
	p, err := provider.Compile(ctx, eng, wasmhost.Artifact{Name: plugin, Reader: bytes.NewReader(wasm)})
	if err != nil {
		return fail(err)
	}
	if gen, err = wasmhost.NewGeneration(p); err != nil {
		return fail(err)
	}
	declared, err := provider.Declared(ctx, gen, plugin)
	if err != nil {
		return fail(err)
	}
	return gen, declared, closeAll, nil
}

// Declared returns the providers the embedded codec plugin declares, with
// the names of the secrets (credential variables) each one takes, so no
// vendor's variable is written anywhere else. cacheDir is as in Options.
func Declared(ctx context.Context, cacheDir string) (map[string][]string, error) {
	arts, err := sysplugins.Artifacts(plugin)
	if err != nil {
		return nil, err
	}
	return declaredOf(ctx, arts[0].Wasm, cacheDir)
}

func declaredOf(ctx context.Context, wasm []byte, cacheDir string) (map[string][]string, error) {
	_, declared, closeAll, err := load(ctx, wasm, cacheDir)
	if err != nil {
		return nil, err
	}
	return declared, closeAll(ctx)
}

// open opens provider name of the codec plugin wasm.
func open(ctx context.Context, wasm []byte, name, modelID string, o Options) (_ *Opened, err error) {
	spec := name + "/" + modelID
	guard, thinking, err := admit(o)
	if err != nil {
		return nil, err
	}
	gen, declared, closeAll, err := load(ctx, wasm, o.CacheDir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = closeAll(ctx)
		}
	}()
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
		Secrets: cred.Lookup(secrets), BaseURLFlag: o.BaseURL, Environ: o.Environ, Thinking: string(thinking)}
	if m := o.Catalog; m != nil {
		cfg.Cost = func(_ string, u model.Usage) model.Amount { return catalog.Cost(*m, u) }
	}
	if _, err := provider.New(cfg); err != nil {
		return nil, err
	}
	return &Opened{Name: name, Model: modelID, cfg: cfg, guard: guard, close: closeAll}, nil
}

// admit checks the requested thinking level against the catalog's model
// before anything is loaded, and returns the guard every request passes and
// the level to send.
func admit(o Options) (func(model.Provider) model.Provider, catalog.Level, error) {
	m := o.Catalog
	if m == nil {
		return func(p model.Provider) model.Provider { return p }, o.Thinking, nil
	}
	grant, err := catalog.Admit(*m, catalog.Needs{Thinking: o.Thinking}, o.Policy)
	if err != nil {
		return nil, "", fmt.Errorf("providers: %w", err)
	}
	if o.Warn != nil {
		for _, n := range grant.Notes {
			o.Warn(n)
		}
	}
	return func(p model.Provider) model.Provider { return catalog.Guard(p, *m, o.Policy, o.Warn) }, grant.Thinking, nil
}
