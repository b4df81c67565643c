package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/ident"
	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/core/route"
)

// DefaultMaxOutputTokens bounds each response of a model the catalog does
// not describe when max-output-tokens is not configured: 16,384 tokens.
// Providers that require a bound (Anthropic) get it; a smaller model
// refuses the request, naming its own limit.
const DefaultMaxOutputTokens = 16384

// boundModel is a session's model, resolved and ready to serve requests.
type boundModel struct {
	state protocol.ModelState
	// modelID is the first target's model id (the agent's request model;
	// routing sets each target's own).
	modelID  string
	provider model.Provider
	// codecs are the plugins serving the targets, compiled ahead of the
	// first request.
	codecs []string
	// notices are warnings for the user (a thinking level clamped, an
	// unknown model sent anyway).
	notices []string
	// described is the catalog's entry of the first target; nil when
	// unknown.
	described *catalog.Model
	// cache is the first target's cache mode ("" for none or unknown).
	cache catalog.CacheMode
}

// bindModel resolves name (as chosen: PROVIDER/MODEL, a bare catalog
// name, an alias, a group, or mock, mock/NAME, mock/PATH) with thinking
// level thinking ("" for the provider's default) into a provider whose
// exchanges are journaled in j and whose prompt cache is keyed by
// cacheKey (the session id). Every target's credential is resolved and
// its thinking level admitted here, before any request. A mock takes its
// limits from a model-info block named as it is ("mock/NAME"), when there
// is one. Errors a user fixes by choosing differently wrap [ErrUsage].
func (rt *Runtime) bindModel(ctx context.Context, name string, thinking catalog.Level, j *effect.Journal, cacheKey string) (*boundModel, error) {
	conf := rt.conf
	switch {
	case name == "":
		return nil, usagef("runtime: no model selected; pass --model PROVIDER/MODEL, set SMITH_MODEL, or write model \"…\" in smith.kdl (try --model mock for the offline demo; list models with 'smith models')")
	case mockprovider.Is(name):
		for _, s := range []config.Source{conf.Thinking.Source, conf.BaseURLFlag.Source} {
			if thinking != "" && s == conf.Thinking.Source && (s.Layer == config.LayerFlag || s.Layer == config.LayerEnv) ||
				s == conf.BaseURLFlag.Source && conf.BaseURLFlag.IsSet() {
				return nil, usagef("runtime: %s applies to real models; the mock %q has no thinking levels and no base URL", s, name)
			}
		}
		p, err := mockprovider.Named(name, rt.cfg.Cwd)
		if err != nil {
			return nil, usagef("runtime: %w", err)
		}
		bm := &boundModel{state: protocol.ModelState{Name: name, Targets: []string{name}}, modelID: name, provider: p}
		if m, ok := conf.Models[name]; ok {
			// A model-info block describes the mock's limits (a small
			// context window to exercise compaction).
			d := m.Value
			bm.described = &d
			bm.state.Context, bm.state.MaxOutput, bm.state.Known = d.Context, d.MaxOutput, true
		}
		return bm, nil
	}
	snap, err := rt.CatalogSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	targets, err := route.Resolve(conf.Route(), snap, name)
	if err != nil {
		return nil, usagef("runtime: model %q (from %s): %w; or pass PROVIDER/MODEL, such as anthropic/claude-sonnet-4-5, or use --model mock for the offline demo", name, rt.modelSource(name), err)
	}
	if conf.BaseURLFlag.Value != "" {
		var provs []string
		for _, t := range targets {
			if !slices.Contains(provs, t.Provider) {
				provs = append(provs, t.Provider)
			}
		}
		if len(provs) > 1 {
			return nil, usagef("runtime: --base-url applies to one provider, but the model %q resolves to the providers %s; set base-url in each provider's block of smith.kdl instead", name, strings.Join(provs, ", "))
		}
	}
	gen, err := rt.Generation(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkProviders(conf, gen); err != nil {
		return nil, err
	}
	bm := &boundModel{modelID: targets[0].Model}
	bm.state = protocol.ModelState{Name: name, Thinking: string(thinking)}
	serving := make(map[route.Target]model.Provider, len(targets))
	maxOut := make(map[route.Target]int, len(targets))
	for i, t := range targets {
		bm.state.Targets = append(bm.state.Targets, t.String())
		var described *catalog.Model
		if m, err := snap.Lookup(t.Provider, t.Model); err == nil {
			described = &m
		}
		if i == 0 && (described == nil || described.Evidence == catalog.EvidenceInferred) {
			bm.notices = append(bm.notices, unknownModelNotice(t, snap, conf.MaxOutputTokens.Value, described != nil))
		}
		p, codec, notes, err := rt.openTarget(ctx, gen, t, described, thinking, j, cacheKey)
		if err != nil {
			var capErr *catalog.CapabilityError
			switch {
			case errors.As(err, &capErr):
				return nil, usagef("runtime: model %q (target %s): %w", name, t, err)
			case len(targets) > 1:
				return nil, fmt.Errorf("runtime: model %q: target %s of %d: %w", name, t, len(targets), err)
			}
			return nil, err
		}
		bm.notices = append(bm.notices, notes...)
		if !slices.Contains(bm.codecs, codec) {
			bm.codecs = append(bm.codecs, codec)
		}
		serving[t] = p
		maxOut[t] = maxOutput(conf.MaxOutputTokens.Value, described)
		if i == 0 {
			bm.described = described
			if described != nil && described.Evidence != catalog.EvidenceInferred {
				bm.state.Known = true
				bm.state.Context, bm.state.MaxOutput = described.Context, described.MaxOutput
				bm.cache = described.Cache
			}
		}
	}
	bm.provider = &routed{targets: targets, serving: serving, maxOutput: maxOut}
	return bm, nil
}

// modelSource names where a model name came from, for errors.
func (rt *Runtime) modelSource(name string) string {
	if rt.conf.Model.Value == name && rt.conf.Model.IsSet() {
		return rt.conf.Model.Source.String()
	}
	return "the session's last model_change"
}

// maxOutput is the output bound sent to a target: the configured one, else
// the model's output limit from the catalog, else DefaultMaxOutputTokens —
// never the vendor's own default, which may be far lower or below a
// thinking budget.
func maxOutput(configured int, m *catalog.Model) int {
	switch {
	case configured > 0:
		return configured
	case m != nil && m.MaxOutput > 0:
		return m.MaxOutput
	}
	return DefaultMaxOutputTokens
}

// unknownModelNotice warns that t is not in the catalog, naming the
// nearest models it knows.
func unknownModelNotice(t route.Target, snap *catalog.Snapshot, configured int, inferred bool) string {
	type cand struct {
		ref string
		d   int
	}
	var cands []cand
	for _, m := range snap.Models() {
		// A model is as near as the nearest of its id and aliases.
		best, name := -1, m.ID
		for _, n := range append([]string{m.ID}, m.Aliases...) {
			if d := ident.Distance(t.Model, n); best < 0 || d < best {
				best, name = d, n
			}
		}
		if m.Provider != t.Provider {
			best += 3
		}
		cands = append(cands, cand{m.Provider + "/" + name, best})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.d - b.d })
	var near []string
	for _, c := range cands[:min(3, len(cands))] {
		near = append(near, c.ref)
	}
	bound := fmt.Sprintf("output bounded to %d tokens (set max-output-tokens, or describe the model in a model-info block of smith.kdl)", DefaultMaxOutputTokens)
	if configured > 0 {
		bound = fmt.Sprintf("output bounded to %d tokens by max-output-tokens", configured)
	}
	known := "limits and price unknown"
	if inferred {
		known = "capabilities inferred from its name, limits and price unknown"
	}
	return fmt.Sprintf("model %s is not in Smith's catalog; sending it as named (%s; %s); nearest known: %s",
		t, known, bound, strings.Join(near, ", "))
}

// openTarget opens the provider serving one target: its codec from the
// generation, its credential, its base URL and quirks from configuration,
// and its thinking level admitted against the catalog (notes say what was
// adjusted). Prompt caching keyed by cacheKey is requested unless the
// catalog says the model does not cache (a model it does not know may: the
// codec knows which servers take a cache key). It returns the provider and
// the codec plugin's name.
func (rt *Runtime) openTarget(ctx context.Context, gen *plugin.Generation, t route.Target, described *catalog.Model, thinking catalog.Level, j *effect.Journal, cacheKey string) (model.Provider, string, []string, error) {
	conf := rt.conf
	spec := t.Provider + "/" + t.Model
	pc := conf.Provider(t.Provider)
	codec := pc.Codec()
	def, known := gen.Provider(codec)
	if !known {
		names := declaredNames(gen)
		if codec != t.Provider {
			return nil, "", nil, usagef("runtime: model %q: provider %q is served by %q (its api in smith.kdl), which no provider plugin declares; use one of %s", spec, t.Provider, codec, strings.Join(names, ", "))
		}
		return nil, "", nil, usagef("runtime: model %q names provider %q, which no provider plugin declares; use one of %s, or add a provider %q block with its api and base-url to smith.kdl", spec, t.Provider, strings.Join(names, ", "), t.Provider)
	}
	var notes []string
	level := thinking
	guard := func(p model.Provider) model.Provider { return p }
	if m := described; m != nil {
		grant, err := catalog.Admit(*m, catalog.Needs{Thinking: thinking}, catalog.Policy{})
		if err != nil {
			return nil, "", nil, err
		}
		notes = append(notes, grant.Notes...)
		level = grant.Thinking
		guard = func(p model.Provider) model.Provider { return catalog.Guard(p, *m, catalog.Policy{}) }
	}
	secrets := def.SecretNames
	resolver := auth.Resolver{File: rt.AuthFile(), LookupEnv: rt.cfg.LookupEnv, Config: conf.Credentials()}
	cred, err := resolver.Resolve(ctx, auth.Spec{Provider: t.Provider, Env: credentialVariables(secrets), Account: t.Account})
	if err != nil {
		var missing *auth.MissingError
		if errors.As(err, &missing) {
			return nil, "", nil, fmt.Errorf("%w%w", ErrUsage, err)
		}
		return nil, "", nil, err
	}
	if len(secrets) == 0 && cred.Source != auth.SourceNone {
		// A key nobody can send would be silently dropped.
		return nil, "", nil, usagef("runtime: model %q: provider %q has a credential (%s), but its codec %q takes none, so it could not be sent; remove the credential, or use a provider whose codec declares one", spec, t.Provider, cred.Origin, codec)
	}
	credential := ""
	if cred.Source != auth.SourceNone {
		credential = describeCredential(string(cred.Source), cred.Origin)
	}
	environ := os.Environ()
	endpoints := newEndpointGuard(conf, t.Provider, pc, credential, environ)
	if _, declared := gen.Provider(endpoints.apiFrom); endpoints.apiFrom != "" && !pc.APIBefore.IsSet() && !declared {
		// A provider of the project's own, not one whose api it changed:
		// its credential is the codec's own variable, for the codec's vendor.
		endpoints.apiFrom = ""
	}
	if err := endpoints.bind(); err != nil {
		return nil, "", nil, usagef("runtime: model %q: %w", spec, err)
	}
	rt.registerCredential(cred)
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
	engine, err := rt.engine()
	if err != nil {
		return nil, "", nil, fmt.Errorf("runtime: %w", err)
	}
	pcfg := provider.Config{Name: codec, Plugin: def.Plugin, Instances: gen, Engine: engine, Secrets: lookup, Redactor: &rt.secrets.set,
		BaseURL: pc.BaseURL.Value, BaseURLFlag: conf.BaseURLFlag.Value, Environ: environ, Endpoint: endpoints.check,
		Quirks: pc.QuirksJSON(), Thinking: string(level), Journal: j,
		IdleTimeout: conf.Timeout(config.KeyIdleTimeout), ResponseTimeout: conf.Timeout(config.KeyResponseTimeout)}
	if described == nil || described.Cache != catalog.CacheNone {
		pcfg.CacheKey = cacheKey
	}
	if m := described; m != nil {
		pcfg.Cost = func(_ string, u model.Usage) model.Amount { return catalog.Cost(*m, u) }
	}
	p, err := provider.New(pcfg)
	if err != nil {
		return nil, "", nil, err
	}
	if endpoints.deferred() {
		// Refused now, the endpoint stops the session before a prompt
		// is recorded; refused at dispatch, the prompt's answer would be
		// the refusal. A codec that cannot build the probe leaves the
		// verdict to dispatch, which checks every request.
		if url, credentialed, err := p.EndpointURL(ctx, t.Model); err == nil {
			if err := endpoints.refuse(url, credentialed); err != nil {
				return nil, "", nil, usagef("runtime: model %q: %w", spec, err)
			}
		}
	}
	return guard(p), def.Plugin, notes, nil
}

// credentialVariables returns the secret names that are environment
// variables (optional secrets, ending in "?", are not); never nil.
func credentialVariables(names []string) []string {
	return slices.DeleteFunc(append([]string{}, names...), provider.OptionalSecret)
}

// routed sends every request through route.Stream over its targets: a
// rate limit fails over at once (or, on the last target, is waited out), a
// transient failure before the first event is retried with bounded
// backoff honouring the provider's retry hint, an invalid request stops;
// every retry and failover is a routing notice in the stream. It is safe
// for concurrent use.
type routed struct {
	targets   []route.Target
	serving   map[route.Target]model.Provider
	maxOutput map[route.Target]int
	policy    route.Policy
}

func (r *routed) Stream(ctx context.Context, req *model.Request) model.Stream {
	return route.Stream(ctx, r.targets, func(ctx context.Context, t route.Target) model.Stream {
		q := *req
		q.Model = t.Model
		if q.MaxOutputTokens == 0 {
			q.MaxOutputTokens = r.maxOutput[t]
		}
		return r.serving[t].Stream(ctx, &q)
	}, r.policy)
}
