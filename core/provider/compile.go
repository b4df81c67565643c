package provider

import (
	"context"
	"fmt"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

// Compile compiles a provider codec plugin for the smith:plugin world with
// no capability granted: a codec is pure computation. The plugin manager
// uses its own loader; this one serves tools and tests that load a codec
// artifact directly.
func Compile(ctx context.Context, eng *wasmhost.Engine, a wasmhost.Artifact) (*wasmhost.Plugin, error) {
	mods, err := pluginabi.HostModules(pluginabi.Hosts{})
	if err != nil {
		return nil, fmt.Errorf("provider: host modules for codec plugin %q: %w", a.Name, err)
	}
	p, err := eng.Compile(ctx, a, wasmhost.PluginConfig{World: pluginabi.WorldSpec(), Hosts: mods})
	if err != nil {
		return nil, fmt.Errorf("provider: compile codec plugin %q: %w", a.Name, err)
	}
	return p, nil
}

// Declared returns the providers a codec plugin declares, with their
// secret names, by asking one instance.
func Declared(ctx context.Context, inst Instances, plugin string) (map[string][]string, error) {
	in, err := inst.Acquire(ctx, plugin)
	if err != nil {
		return nil, fmt.Errorf("provider: start codec plugin %q: %w", plugin, err)
	}
	defer in.Release()
	c, err := pluginabi.Bind(in).DeclareContributions(ctx, pluginabi.DeclareOptions{WorldVersion: "0.0.0", Configuration: "{}"})
	if err != nil {
		return nil, fmt.Errorf("provider: codec plugin %q did not declare its providers: %w", plugin, err)
	}
	out := make(map[string][]string, len(c.Providers))
	for _, p := range c.Providers {
		out[p.Name] = p.SecretNames
	}
	return out, nil
}
