package runtime

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// configured returns arts as the configuration shapes them: the
// permissions plugin given the policy (withPolicy) and every plugin its
// smith.kdl budgets (withBudgets), with a note for each plugin block that
// names no plugin. arts itself is not changed.
func configured(arts []plugin.Artifact, conf *config.Config, userFile string) ([]plugin.Artifact, []string) {
	return withBudgets(withPolicy(arts, conf, userFile), conf)
}

// withBudgets applies smith.kdl's plugin blocks: what a block sets beats
// what the artifact carries (its manifest's hints, which may only tighten
// Smith's defaults, or a system plugin's own budgets), and what it leaves
// unset stays. The result is a copy when any block applies.
func withBudgets(arts []plugin.Artifact, conf *config.Config) ([]plugin.Artifact, []string) {
	if len(conf.PluginBudgets) == 0 {
		return arts, nil
	}
	out := slices.Clone(arts)
	var notes []string
	names := make([]string, len(out))
	for i, a := range out {
		names[i] = a.Name
	}
	for _, name := range slices.Sorted(maps.Keys(conf.PluginBudgets)) {
		b := conf.PluginBudgets[name]
		i := slices.Index(names, name)
		if i < 0 {
			notes = append(notes, fmt.Sprintf("the plugin block at %s sets the budgets of %q, which is not loaded (loaded: %s); fix the name or remove the block (smith plugin list shows the names)",
				b.Source, name, strings.Join(names, ", ")))
			continue
		}
		if b.Timeout.IsSet() {
			out[i].Timeout = b.Timeout.Value
		}
		if b.Fuel.IsSet() {
			out[i].Fuel = uint64(b.Fuel.Value)
		}
		if b.Memory.IsSet() {
			out[i].MemoryPages = uint32(b.Memory.Value / wasmhost.PageSize)
		}
		if b.Output.IsSet() {
			out[i].OutputBytes = int(b.Output.Value)
		}
		if b.Log.IsSet() {
			out[i].LogBytes = int(b.Log.Value)
		}
	}
	return out, notes
}
