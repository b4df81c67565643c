package providers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	// Credentials are the explicit credentials of the configuration, by
	// provider or "provider@account"; they beat the environment and the
	// auth file.
	Credentials map[string]auth.Explicit
	// Account is the account bucket whose credential is used; "" is the
	// provider's default account.
	Account string
	// Codec names the codec plugin's provider that serves this one; ""
	// means the provider's own name. A configured OpenAI-compatible server
	// has its own name and Codec "openai-compatible".
	Codec string
	// BaseURL is the base URL from configuration and BaseURLFlag the one
	// from --base-url; the codec applies default < BaseURL < its
	// conventional *_BASE_URL variable < BaseURLFlag. Empty means not set.
	BaseURL, BaseURLFlag string
	// Quirks, when set, is a JSON object of Chat Completions quirk flags
	// for an openai-compatible codec; it replaces the codec's own.
	Quirks json.RawMessage
	// LookupEnv reads the environment for credentials; nil means
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Environ is the environment the codec takes its base URL variable
	// from; nil means os.Environ().
	Environ []string
	// CacheDir holds compiled plugin code; empty means
	// os.UserCacheDir()/smith/wazero, or memory only if that is unknown.
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
// provider and say where a credential or a valid name comes from. Closing
// the returned provider releases the plugin; to open several providers
// over one plugin, use [Load].
func Open(ctx context.Context, spec string, o Options) (_ *Opened, err error) {
	name, modelID, ok := Split(spec)
	if !ok {
		return nil, fmt.Errorf("providers: --model %q is not PROVIDER/MODEL, such as anthropic/claude-sonnet-4-5; list models with 'smith models'", spec)
	}
	art, err := embedded()
	if err != nil {
		return nil, err
	}
	return openArtifact(ctx, art, name, modelID, o)
}

// embedded returns the embedded codec plugin, its SHA-256 verified (once
// per call) so the build-time instrumentation it carries is honoured.
func embedded() (codecArtifact, error) {
	if !slices.Contains(sysplugins.Names(), plugin) {
		return codecArtifact{}, fmt.Errorf("providers: a real model needs the provider codec plugin, which this build does not embed (embedded: %s); use --model mock for the offline demo", strings.Join(sysplugins.Names(), ", "))
	}
	arts, err := sysplugins.Artifacts(plugin)
	if err != nil {
		return codecArtifact{}, err
	}
	a := arts[0]
	if sum := sha256.Sum256(a.Wasm); hex.EncodeToString(sum[:]) != a.SHA256 {
		return codecArtifact{}, fmt.Errorf("providers: the embedded %s plugin does not match its pinned SHA-256 %s; the binary is damaged or was not rebuilt (go run ./tools/pluginbuild)", plugin, a.SHA256)
	}
	return codecArtifact{wasm: a.Wasm, sha256: a.SHA256, instrumented: a.Instrumented}, nil
}

// codecArtifact is the codec plugin's module: its bytes and, for the
// embedded artifact, its verified SHA-256 and the instrumentation
// version it was built with ("" for a module wasmhost must instrument).
type codecArtifact struct {
	wasm                 []byte
	sha256, instrumented string
}

// Set is the loaded codec plugin, from which several providers open (one
// per failover target) over one engine. It is safe for concurrent use;
// Close it when every provider opened from it is done.
type Set struct {
	gen      *wasmhost.Generation
	declared map[string][]string // every declared secret name, optional ones included
	close    func(context.Context) error
}

// Load loads the embedded codec plugin; cacheDir is as in Options.
func Load(ctx context.Context, cacheDir string) (*Set, error) {
	art, err := embedded()
	if err != nil {
		return nil, err
	}
	return loadSet(ctx, art, cacheDir)
}

func loadSet(ctx context.Context, art codecArtifact, cacheDir string) (*Set, error) {
	gen, declared, closeAll, err := load(ctx, art, cacheDir)
	if err != nil {
		return nil, err
	}
	return &Set{gen: gen, declared: declared, close: closeAll}, nil
}

// Declared returns the providers the plugin declares, with the credential
// variables each one reads (see the package function Declared).
func (s *Set) Declared() map[string][]string { return variables(s.declared) }

// Close releases the plugin's instances and engine.
func (s *Set) Close(ctx context.Context) error { return s.close(ctx) }

// Open returns provider name serving modelID, with its credential
// resolved. Closing the returned provider does not close the set.
func (s *Set) Open(ctx context.Context, name, modelID string, o Options) (*Opened, error) {
	op, err := s.open(ctx, name, modelID, o)
	if err != nil {
		return nil, err
	}
	op.close = func(context.Context) error { return nil }
	return op, nil
}

// plugin is the name of the embedded provider codec plugin.
const plugin = "providers"

// load compiles the codec plugin wasm and asks it which providers it
// declares, with their secret names. The returned function releases what
// load made.
func load(ctx context.Context, art codecArtifact, cacheDir string) (*wasmhost.Generation, map[string][]string, func(context.Context) error, error) {
	if cacheDir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			cacheDir = filepath.Join(base, "smith", "wazero")
		}
	}
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
	wa := wasmhost.Artifact{Name: plugin, Bytes: art.wasm}
	if art.sha256 != "" {
		wa.SHA256, wa.Verified, wa.Instrumented = art.sha256, true, art.instrumented
	}
	p, err := provider.Compile(ctx, eng, wa)
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
// vendor's variable is written anywhere else. An optional secret
// (provider.OptionalSecret, such as an OpenAI-compatible server's key) is
// no variable and is left out: such a provider needs no credential, and
// one configured for it (smith.kdl or the auth file) is sent. cacheDir is
// as in Options.
func Declared(ctx context.Context, cacheDir string) (map[string][]string, error) {
	art, err := embedded()
	if err != nil {
		return nil, err
	}
	return declaredArtifact(ctx, art, cacheDir)
}

func declaredOf(ctx context.Context, wasm []byte, cacheDir string) (map[string][]string, error) {
	return declaredArtifact(ctx, codecArtifact{wasm: wasm}, cacheDir)
}

func declaredArtifact(ctx context.Context, art codecArtifact, cacheDir string) (map[string][]string, error) {
	_, declared, closeAll, err := load(ctx, art, cacheDir)
	if err != nil {
		return nil, err
	}
	return variables(declared), closeAll(ctx)
}

// variables returns declared with each provider's secret names narrowed
// to its credential variables (see credentialVariables).
func variables(declared map[string][]string) map[string][]string {
	out := make(map[string][]string, len(declared))
	for p, names := range declared {
		out[p] = credentialVariables(names)
	}
	return out
}

// credentialVariables returns the secret names that are environment
// variables, the optional secrets left out; never nil.
func credentialVariables(names []string) []string {
	return slices.DeleteFunc(append([]string{}, names...), provider.OptionalSecret)
}

// open loads the codec plugin wasm and opens provider name of it; closing
// the result closes the plugin.
func open(ctx context.Context, wasm []byte, name, modelID string, o Options) (_ *Opened, err error) {
	return openArtifact(ctx, codecArtifact{wasm: wasm}, name, modelID, o)
}

func openArtifact(ctx context.Context, art codecArtifact, name, modelID string, o Options) (_ *Opened, err error) {
	set, err := loadSet(ctx, art, o.CacheDir)
	if err != nil {
		return nil, err
	}
	op, err := set.open(ctx, name, modelID, o)
	if err != nil {
		_ = set.Close(ctx)
		return nil, err
	}
	op.close = set.Close
	return op, nil
}

// open opens provider name of the set.
func (s *Set) open(ctx context.Context, name, modelID string, o Options) (*Opened, error) {
	spec := name + "/" + modelID
	guard, thinking, err := admit(o)
	if err != nil {
		return nil, err
	}
	codec := o.Codec
	if codec == "" {
		codec = name
	}
	secrets, known := s.declared[codec]
	if !known {
		names := make([]string, 0, len(s.declared))
		for n := range s.declared {
			names = append(names, n)
		}
		slices.Sort(names)
		if codec != name {
			return nil, fmt.Errorf("providers: --model %q: provider %q is served by %q (its api in smith.kdl), which no provider plugin declares; use one of %s", spec, name, codec, strings.Join(names, ", "))
		}
		return nil, fmt.Errorf("providers: --model %q names provider %q, which no provider plugin declares; use one of %s, or add a provider %q block with its api and base-url to smith.kdl", spec, name, strings.Join(names, ", "), name)
	}
	// An optional secret is read from no variable: the credential is the
	// provider's own (smith.kdl, which may name a variable, or the auth
	// file), or there is none and the header carrying it is not sent.
	resolver := auth.Resolver{File: o.AuthFile, LookupEnv: o.LookupEnv, Config: o.Credentials}
	cred, err := resolver.Resolve(ctx, auth.Spec{Provider: name, Env: credentialVariables(secrets), Account: o.Account})
	if err != nil {
		return nil, err
	}
	if len(secrets) == 0 && cred.Source != auth.SourceNone {
		// A key nobody can send would be silently dropped.
		return nil, fmt.Errorf("providers: --model %q: provider %q has a credential (%s), but its codec %q takes none, so it could not be sent; remove the credential, or use a provider whose codec declares one", spec, name, cred.Origin, codec)
	}
	lookup := cred.Lookup(secrets)
	if cred.Source == auth.SourceNone {
		declared := lookup
		lookup = func(ref string) (string, error) {
			if provider.OptionalSecret(ref) && slices.Contains(secrets, ref) {
				return "", provider.ErrNoSecret
			}
			return declared(ref)
		}
	}
	he, err := httpengine.New(httpengine.Config{})
	if err != nil {
		return nil, fmt.Errorf("providers: %w", err)
	}
	cfg := provider.Config{Name: codec, Plugin: plugin, Instances: s.gen, Engine: he,
		Secrets: lookup, BaseURL: o.BaseURL, BaseURLFlag: o.BaseURLFlag, Environ: o.Environ,
		Quirks: o.Quirks, Thinking: string(thinking)}
	if m := o.Catalog; m != nil {
		cfg.Cost = func(_ string, u model.Usage) model.Amount { return catalog.Cost(*m, u) }
	}
	if _, err := provider.New(cfg); err != nil {
		return nil, err
	}
	return &Opened{Name: name, Model: modelID, cfg: cfg, guard: guard}, nil
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
