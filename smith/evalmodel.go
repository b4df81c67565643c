package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/route"
	"github.com/smith-agent/smith/smith/internal/mockscript"
	"github.com/smith-agent/smith/smith/internal/providers"
	"github.com/urfave/cli/v3"
)

// evalModel is the provider an eval run talks to, opened (credentials
// resolved, capabilities admitted) before the session; the provider itself
// is made once the session's journal exists.
type evalModel struct {
	provider func(j *effect.Journal) (model.Provider, error)
	id       string // the model id passed in every request
	close    func(context.Context) error
}

// openModel opens the provider the configured model (--model, SMITH_MODEL
// or smith.kdl) names: the MOCK for "mock" and "mock/SCRIPT", otherwise
// every target the name resolves to (see resolveModel) through the
// provider codec plugin, each with its credential resolved, its base URL
// and quirks from the configuration, and the thinking level admitted
// before any request. Requests run under core/route's failover policy
// across the targets in order. Warnings (a thinking level clamped to what
// a model supports) go to stderr.
func openModel(ctx context.Context, cmd *cli.Command, cfg *config.Config, rc *runCatalog, cwd string, stderr io.Writer) (*evalModel, error) {
	name := cfg.Model.Value
	switch {
	case name == "":
		return nil, usageErrorf("eval: no model selected; pass --model PROVIDER/MODEL, set SMITH_MODEL, or write model \"…\" in smith.kdl (try --model mock for the offline demo; list models with 'smith models')")
	case mockscript.Is(name):
		// A configured default does not apply to the mock; a flag or
		// variable asking the mock for it is a mistake.
		for _, s := range []config.Source{cfg.Thinking.Source, cfg.BaseURLFlag.Source} {
			if s.Layer == config.LayerFlag || s.Layer == config.LayerEnv {
				return nil, usageErrorf("eval: %s applies to real models; the mock %q has no thinking levels and no base URL", s, name)
			}
		}
		p, err := mockscript.Load(name, cwd)
		if err != nil {
			return nil, usageErrorf("eval: %w", err)
		}
		return &evalModel{provider: func(*effect.Journal) (model.Provider, error) { return p, nil }, id: name,
			close: func(context.Context) error { return nil }}, nil
	}
	targets, described, err := resolveModel(cfg, rc, name)
	if err != nil {
		return nil, err
	}
	baseFlag := cfg.BaseURLFlag.Value
	if baseFlag != "" {
		var provs []string
		for _, t := range targets {
			if !slices.Contains(provs, t.Provider) {
				provs = append(provs, t.Provider)
			}
		}
		if len(provs) > 1 {
			return nil, usageErrorf("eval: --base-url applies to one provider, but --model %q resolves to the providers %s; set base-url in each provider's block of smith.kdl instead", name, strings.Join(provs, ", "))
		}
	}
	f, err := authFile(cmd)
	if err != nil {
		return nil, err
	}
	set, err := providers.Load(ctx, "")
	if err != nil {
		return nil, err
	}
	if err := cfg.CheckProviders(slices.Sorted(maps.Keys(set.Declared()))); err != nil {
		_ = set.Close(ctx)
		return nil, usageErrorf("eval: %w", err)
	}
	opened := make(map[route.Target]*providers.Opened, len(targets))
	maxOut := make(map[route.Target]int, len(targets))
	for i, t := range targets {
		p := cfg.Provider(t.Provider)
		o, err := set.Open(ctx, t.Provider, t.Model, providers.Options{AuthFile: f, Credentials: cfg.Credentials(), Account: t.Account,
			Codec: p.Codec(), BaseURL: p.BaseURL.Value, BaseURLFlag: baseFlag, Quirks: p.QuirksJSON(),
			Catalog: described[i], Thinking: cfg.Thinking.Value, Warn: func(s string) { fmt.Fprintf(stderr, "smith: %s\n", s) }})
		if err != nil {
			_ = set.Close(ctx)
			var capErr *catalog.CapabilityError
			if errors.As(err, &capErr) {
				return nil, usageErrorf("eval: --model %q (target %s): %w", name, t, err)
			}
			if len(targets) > 1 {
				return nil, fmt.Errorf("eval: --model %q: target %s of %d: %w", name, t, len(targets), err)
			}
			return nil, err
		}
		opened[t] = o
		maxOut[t] = maxOutput(cfg.MaxOutputTokens.Value, described[i])
	}
	// Every exchange is journaled in the session: its intent (redacted
	// request) is caused by the entry the request continues from.
	open := func(j *effect.Journal) (model.Provider, error) {
		ps := make(map[route.Target]model.Provider, len(targets))
		for t, o := range opened {
			p, err := o.Provider(j)
			if err != nil {
				return nil, err
			}
			ps[t] = p
		}
		return &routed{targets: targets, open: func(t route.Target) model.Provider { return ps[t] }, maxOutput: maxOut}, nil
	}
	return &evalModel{provider: open, id: targets[0].Model, close: set.Close}, nil
}

// maxOutput is the output bound sent to a target: the configured one, or
// else the model's output limit from the catalog, so the vendor's own
// default (which may be far lower, or below a thinking budget) never
// decides; 0 when neither is known.
func maxOutput(configured int, m *catalog.Model) int {
	if configured > 0 {
		return configured
	}
	if m != nil {
		return m.MaxOutput
	}
	return 0
}

// resolveModel resolves a model name through core/route with the
// configuration's aliases, groups and account buckets and the run's
// catalog, with no network: PROVIDER/MODEL as written, a configured alias
// or group, or a bare model name or alias the catalog knows. It returns
// the targets in failover order and the catalog's description of each
// (nil when the catalog has none, so requests go unchecked and costs stay
// unknown).
func resolveModel(cfg *config.Config, rc *runCatalog, name string) ([]route.Target, []*catalog.Model, error) {
	cat, err := rc.open()
	if err != nil {
		return nil, nil, fmt.Errorf("eval: %w", err)
	}
	snap := cat.Snapshot()
	targets, err := route.Resolve(cfg.Route(), snap, name)
	if err != nil {
		return nil, nil, usageErrorf("eval: model %q (from %s): %w; or pass PROVIDER/MODEL, such as anthropic/claude-sonnet-4-5, or use --model mock for the offline demo", name, cfg.Model.Source, err)
	}
	described := make([]*catalog.Model, len(targets))
	for i, t := range targets {
		if m, err := snap.Lookup(t.Provider, t.Model); err == nil {
			described[i] = &m
		}
	}
	return targets, described, nil
}
