package main

import (
	"context"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/smith/internal/mockscript"
	"github.com/smith-agent/smith/smith/internal/providers"
	"github.com/urfave/cli/v3"
)

// evalModel is the provider an eval run talks to.
type evalModel struct {
	provider model.Provider
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
		return &evalModel{provider: p, id: name, close: func(context.Context) error { return nil }}, nil
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
	return &evalModel{provider: o.Provider, id: o.Model, close: o.Close}, nil
}
