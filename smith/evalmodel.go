package main

import (
	"context"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/smith/internal/mockscript"
	"github.com/smith-agent/smith/smith/internal/providers"
	"github.com/urfave/cli/v3"
)

// evalModel is the provider an eval run talks to, opened (credential
// resolved) before the session; the provider itself is made once the
// session's journal exists.
type evalModel struct {
	provider func(j *effect.Journal) (model.Provider, error)
	id       string // the model id passed in every request
	close    func(context.Context) error
}

// openModel opens the provider --model names: the MOCK for "mock" and
// "mock/SCRIPT", otherwise PROVIDER/MODEL through the provider codec
// plugin, with its credential resolved before any request.
func openModel(ctx context.Context, cmd *cli.Command, name, cwd string) (*evalModel, error) {
	switch {
	case name == "":
		return nil, usageErrorf("eval: no model selected; pass --model PROVIDER/MODEL or set SMITH_MODEL (try --model mock for the offline demo; list models with 'smith models')")
	case mockscript.Is(name):
		p, err := mockscript.Load(name, cwd)
		if err != nil {
			return nil, usageErrorf("eval: %w", err)
		}
		return &evalModel{provider: func(*effect.Journal) (model.Provider, error) { return p, nil }, id: name,
			close: func(context.Context) error { return nil }}, nil
	}
	if _, _, ok := providers.Split(name); !ok {
		return nil, usageErrorf("eval: --model %q (or SMITH_MODEL) is not PROVIDER/MODEL, such as anthropic/claude-sonnet-4-5; use --model mock for the offline demo, or list models with 'smith models'", name)
	}
	f, err := authFile(cmd)
	if err != nil {
		return nil, err
	}
	o, err := providers.Open(ctx, name, providers.Options{AuthFile: f})
	if err != nil {
		return nil, err
	}
	// The exchanges are not journaled yet: core/session refuses an effect
	// intent without a causal parent, and core/provider's exchange intents
	// carry none, so a journaled bridge would refuse every request.
	return &evalModel{provider: func(*effect.Journal) (model.Provider, error) { return o.Provider(nil) },
		id: o.Model, close: o.Close}, nil
}
