package runtime

import (
	"context"
	"fmt"

	"github.com/smith-agent/smith/core/catalog"
)

// CatalogSnapshot returns the run's catalog (see [Runtime.Catalog]) with
// the models the plugin generation's providers declare merged in as
// provider evidence: one layer per declaring plugin, beaten by the bundle
// and the configuration's model-info blocks, beating a refresh. It waits
// for the generation only when that has loaded or is loading; it is safe
// for concurrent use.
func (rt *Runtime) CatalogSnapshot(ctx context.Context) (*catalog.Snapshot, error) {
	cat, err := rt.Catalog()
	if err != nil {
		return nil, fmt.Errorf("runtime: %w", err)
	}
	snap := cat.Snapshot()
	gen, err := rt.Generation(ctx)
	if err != nil {
		return nil, err
	}
	byPlugin := map[string][]catalog.Declared{}
	var order []string
	for _, m := range gen.Models() {
		if _, ok := byPlugin[m.Plugin]; !ok {
			order = append(order, m.Plugin)
		}
		byPlugin[m.Plugin] = append(byPlugin[m.Plugin], catalog.Declared{Provider: m.Provider, ID: m.Name, Name: m.DisplayName,
			Context: m.ContextWindow, MaxOutput: m.OutputLimit, Tools: m.Tools, Images: m.Images})
	}
	for _, p := range order {
		snap = snap.With(snap.DeclaredLayer(catalog.FileOrigin{Source: "the plugin " + p}, byPlugin[p]))
	}
	return snap, nil
}
