package runtime

import (
	"context"
	"maps"
	"slices"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/route"
)

// Models lists what a model can be set to: every model of the run's
// catalog (the bundle, a cached refresh, the configuration's model-info
// blocks, the models plugins declare), in catalog order, and every alias and group of the
// configuration, by name, with the targets it resolves to or why it does
// not resolve. It reads no network. The mock model ("mock", "mock/NAME")
// is always accepted and never listed.
func (rt *Runtime) Models(ctx context.Context) (protocol.ModelList, error) {
	snap, err := rt.CatalogSnapshot(ctx)
	if err != nil {
		return protocol.ModelList{}, err
	}
	l := protocol.ModelList{Models: []protocol.ModelInfo{}, Routes: []protocol.ModelRoute{}}
	for _, m := range snap.Models() {
		mi := protocol.ModelInfo{Ref: m.Ref(), Name: m.Name, Aliases: m.Aliases, Context: m.Context, MaxOutput: m.MaxOutput,
			Input: []string{}, Tools: m.Tools, Thinking: []string{}, Priced: m.Price != nil}
		for _, in := range m.Input {
			mi.Input = append(mi.Input, string(in))
		}
		for _, t := range m.Thinking {
			mi.Thinking = append(mi.Thinking, string(t))
		}
		l.Models = append(l.Models, mi)
	}
	add := func(name, kind string) {
		r := protocol.ModelRoute{Name: name, Kind: kind, Targets: []string{}}
		targets, err := route.Resolve(rt.conf.Route(), snap, name)
		if err != nil {
			r.Error = err.Error()
		}
		for _, t := range targets {
			r.Targets = append(r.Targets, t.String())
		}
		l.Routes = append(l.Routes, r)
	}
	for _, n := range slices.Sorted(maps.Keys(rt.conf.Aliases)) {
		add(n, "alias")
	}
	for _, n := range slices.Sorted(maps.Keys(rt.conf.Groups)) {
		add(n, "group")
	}
	return l, nil
}
