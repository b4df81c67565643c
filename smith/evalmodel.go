package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/route"
	"github.com/smith-agent/smith/smith/internal/mockscript"
	"github.com/smith-agent/smith/smith/internal/providers"
	"github.com/urfave/cli/v3"
)

// evalModel is the provider an eval run talks to, opened (credential
// resolved, capabilities admitted) before the session; the provider itself
// is made once the session's journal exists.
type evalModel struct {
	provider func(j *effect.Journal) (model.Provider, error)
	id       string // the model id passed in every request
	close    func(context.Context) error
}

// openModel opens the provider --model names: the MOCK for "mock" and
// "mock/SCRIPT", otherwise the target the name resolves to (see
// resolveModel) through the provider codec plugin, with its credential
// resolved and the --thinking level admitted before any request. Warnings
// (a thinking level clamped to what the model supports) go to stderr.
func openModel(ctx context.Context, cmd *cli.Command, name, thinking, cwd string, stderr io.Writer) (*evalModel, error) {
	switch {
	case name == "":
		return nil, usageErrorf("eval: no model selected; pass --model PROVIDER/MODEL or set SMITH_MODEL (try --model mock for the offline demo; list models with 'smith models')")
	case mockscript.Is(name):
		if thinking != "" {
			return nil, usageErrorf("eval: --thinking %q applies to real models; the mock %q has no thinking levels", thinking, name)
		}
		p, err := mockscript.Load(name, cwd)
		if err != nil {
			return nil, usageErrorf("eval: %w", err)
		}
		return &evalModel{provider: func(*effect.Journal) (model.Provider, error) { return p, nil }, id: name,
			close: func(context.Context) error { return nil }}, nil
	}
	var level catalog.Level
	if thinking != "" {
		l, err := catalog.ParseLevel(thinking)
		if err != nil {
			return nil, usageErrorf("eval: --thinking: %w", err)
		}
		level = l
	}
	target, described, err := resolveModel(name)
	if err != nil {
		return nil, err
	}
	f, err := authFile(cmd)
	if err != nil {
		return nil, err
	}
	o, err := providers.Open(ctx, target.Provider+"/"+target.Model, providers.Options{AuthFile: f, Catalog: described,
		Thinking: level, Warn: func(s string) { fmt.Fprintf(stderr, "smith: %s\n", s) }})
	if err != nil {
		var capErr *catalog.CapabilityError
		if errors.As(err, &capErr) {
			return nil, usageErrorf("eval: --model %q: %w", name, err)
		}
		return nil, err
	}
	// Every exchange is journaled in the session: its intent (redacted
	// request) is caused by the entry the request continues from. Requests
	// run under the failover policy of core/route.
	open := func(j *effect.Journal) (model.Provider, error) {
		p, err := o.Provider(j)
		if err != nil {
			return nil, err
		}
		return &routed{targets: []route.Target{target}, open: func(route.Target) model.Provider { return p }}, nil
	}
	return &evalModel{provider: open, id: o.Model, close: o.Close}, nil
}

// resolveModel resolves a --model name through core/route against the
// bundled catalog, with no network: PROVIDER/MODEL as written, or a bare
// model name or alias the catalog knows. It returns the first target and
// the catalog's description of it (nil when the catalog has none, so
// requests go unchecked and costs stay unknown).
//
// Routing configuration (user aliases, groups, account buckets) has no
// source yet, so a name resolves to one target: failover has nothing to
// fail over to, and a transient failure is retried on that target.
func resolveModel(name string) (route.Target, *catalog.Model, error) {
	snap, err := catalog.Bundled()
	if err != nil {
		return route.Target{}, nil, fmt.Errorf("eval: %w", err)
	}
	targets, err := route.Resolve(route.Config{}, snap, name)
	if err != nil {
		return route.Target{}, nil, usageErrorf("eval: --model %q (or SMITH_MODEL): %w; or pass PROVIDER/MODEL, such as anthropic/claude-sonnet-4-5, or use --model mock for the offline demo", name, err)
	}
	t := targets[0]
	if t.Account != "" {
		return route.Target{}, nil, usageErrorf("eval: --model %q resolves to %s, but account buckets are not supported by eval yet; name the provider without an account", name, t)
	}
	m, err := snap.Lookup(t.Provider, t.Model)
	if err != nil {
		return t, nil, nil
	}
	return t, &m, nil
}
