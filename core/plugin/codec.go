package plugin

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

// ProviderDefinition is a provider a plugin of the generation contributes:
// its codec is the plugin's provider export.
type ProviderDefinition struct {
	// Plugin is the contributing plugin's name (an [Artifact] name), the
	// name to pass to [Generation.Acquire].
	Plugin string
	// Name is the provider's name, unique in the generation, such as
	// "anthropic".
	Name string
	// DisplayName is the name shown to the user.
	DisplayName string
	// SecretNames are the secrets the provider's request templates
	// reference; a name ending in "?" is optional.
	SecretNames []string
	// Options are what the user may set for the provider in its
	// configuration block (smith.kdl quirks), as the codec declares them;
	// empty when the provider takes none.
	Options []ProviderOption
}

// ProviderOption is one option a codec declares for a provider.
type ProviderOption struct {
	// Name is the option's name in smith.kdl, such as "max-tokens-field".
	Name string
	// Kind is "flag" (a boolean), "text" (a string) or "count" (a whole
	// number from 0 to 65536).
	Kind string
	// Allowed are the values a text option may take; empty is any.
	Allowed []string
	// Example is a valid value as written in smith.kdl; Description says
	// what the option changes.
	Example, Description string
}

// providerOptions converts the declared options, giving each its own
// slices.
func providerOptions(in []pluginabi.ProviderOption) []ProviderOption {
	if len(in) == 0 {
		return nil
	}
	out := make([]ProviderOption, len(in))
	for i, o := range in {
		out[i] = ProviderOption{Name: o.Name, Kind: o.Kind.String(), Allowed: slices.Clone(o.Allowed),
			Example: o.Example, Description: o.Description}
	}
	return out
}

// Providers returns the providers the generation's plugins contribute, in
// load and declaration order. Declaring them needed no instance: a cached
// registration serves them without compiling the codec.
func (g *Generation) Providers() []ProviderDefinition {
	out := make([]ProviderDefinition, len(g.providers))
	copy(out, g.providers)
	for i := range out {
		out[i].SecretNames = slices.Clone(out[i].SecretNames)
		out[i].Options = slices.Clone(out[i].Options)
		for j := range out[i].Options {
			out[i].Options[j].Allowed = slices.Clone(out[i].Options[j].Allowed)
		}
	}
	return out
}

// Provider returns the definition of the provider called name.
func (g *Generation) Provider(name string) (ProviderDefinition, bool) {
	for _, p := range g.providers {
		if p.Name == name {
			return p, true
		}
	}
	return ProviderDefinition{}, false
}

// Acquire hands out an idle instance of the named plugin of the generation
// (compiling the plugin on first use), for calls on its exports such as a
// provider codec's; release it when done. It implements core/provider's
// Instances, so every codec runs in the generation that declared it. It is
// safe for concurrent use.
func (g *Generation) Acquire(ctx context.Context, name string) (*wasmhost.Instance, error) {
	l := g.plugin(name)
	if l == nil {
		names := make([]string, len(g.plugins))
		for i, p := range g.plugins {
			names[i] = p.art.Name
		}
		return nil, fmt.Errorf("plugin: no plugin %q in generation %d (it has %s)", name, g.id, strings.Join(names, ", "))
	}
	if err := l.awaitWarm(ctx); err != nil {
		return nil, err
	}
	pool, err := l.instances(ctx)
	if err != nil {
		return nil, err
	}
	in, err := pool.Acquire(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("plugin: %q: %w", name, err)
	}
	return in, nil
}

func (g *Generation) plugin(name string) *loaded {
	for _, l := range g.plugins {
		if l.art.Name == name {
			return l
		}
	}
	return nil
}

// validateProviders checks that every provider name is well formed and
// contributed once in the generation, and builds g.providers.
func (g *Generation) validateProviders() error {
	owner := make(map[string]string)
	for _, l := range g.plugins {
		for _, p := range l.contrib.Providers {
			if !validToolName(p.Name) {
				return fmt.Errorf("plugin: %q declares provider name %q; a provider name is a letter then up to 63 letters, digits, '_' or '-'", l.art.Name, p.Name)
			}
			if prev, dup := owner[p.Name]; dup {
				if prev == l.art.Name {
					return fmt.Errorf("plugin: %q declares provider %q twice; declare each provider once", l.art.Name, p.Name)
				}
				return fmt.Errorf("plugin: provider %q is declared by both %q and %q; disable one of the plugins", p.Name, prev, l.art.Name)
			}
			owner[p.Name] = l.art.Name
			g.providers = append(g.providers, ProviderDefinition{Plugin: l.art.Name, Name: p.Name, DisplayName: p.DisplayName,
				SecretNames: slices.Clone(p.SecretNames), Options: providerOptions(p.Options)})
		}
	}
	seen := map[string]bool{}
	for _, l := range g.plugins {
		for _, m := range l.contrib.Models {
			ref := m.Provider + "/" + m.Name
			switch {
			case owner[m.Provider] != l.art.Name:
				return fmt.Errorf("plugin: %q declares the model %q of provider %q, which it does not declare; a plugin declares models only of its own providers", l.art.Name, m.Name, m.Provider)
			case m.Name == "" || len(m.Name) > 128 || strings.ContainsAny(m.Name, " \t\n"):
				return fmt.Errorf("plugin: %q declares a model named %q; a model name is 1 to 128 characters without spaces", l.art.Name, m.Name)
			case seen[ref]:
				return fmt.Errorf("plugin: %q declares the model %q twice; declare each model once", l.art.Name, ref)
			}
			seen[ref] = true
			g.models = append(g.models, ModelDefinition{Plugin: l.art.Name, Provider: m.Provider, Name: m.Name, DisplayName: m.DisplayName,
				ContextWindow: int(m.ContextWindow), OutputLimit: int(m.OutputLimit), Tools: m.SupportsTools, Images: m.SupportsImages})
		}
	}
	return nil
}

// ModelDefinition is a model a provider of the generation serves, as its
// plugin declared it.
type ModelDefinition struct {
	// Plugin is the declaring plugin's name.
	Plugin string
	// Provider is the provider serving it, one of the same plugin's.
	Provider string
	// Name is the model's identifier at the provider; DisplayName the
	// name shown to the user.
	Name, DisplayName string
	// ContextWindow and OutputLimit are in tokens; 0 is unknown.
	ContextWindow, OutputLimit int
	// Tools and Images say whether the model calls tools and takes images.
	Tools, Images bool
}

// Models returns the models the generation's providers declare, in load
// and declaration order.
func (g *Generation) Models() []ModelDefinition { return slices.Clone(g.models) }
