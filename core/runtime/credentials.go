package runtime

import (
	"context"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/plugin"
)

// Providers returns the names of the providers the plugin generation
// declares, sorted: vendor names are the codec plugins' data, never the
// runtime's.
func (rt *Runtime) Providers(ctx context.Context) ([]string, error) {
	gen, err := rt.Generation(ctx)
	if err != nil {
		return nil, err
	}
	return declaredNames(gen), nil
}

// declaredNames returns the names of the providers gen declares, sorted.
func declaredNames(gen *plugin.Generation) []string {
	var names []string
	for _, d := range gen.Providers() {
		names = append(names, d.Name)
	}
	slices.Sort(names)
	return names
}

// CheckProviders checks the configuration's provider blocks against what
// the plugin generation declares: each block names a declared provider or
// the api of one, and its quirks are options that provider's codec
// declares, with values of their kind. An error wraps [ErrUsage] and
// names each offending file:line:col.
func (rt *Runtime) CheckProviders(ctx context.Context) error {
	gen, err := rt.Generation(ctx)
	if err != nil {
		return err
	}
	return checkProviders(rt.conf, gen)
}

// checkProviders is CheckProviders for a loaded generation.
func checkProviders(conf *config.Config, gen *plugin.Generation) error {
	defs := gen.Providers()
	schemas := make([]config.ProviderSchema, len(defs))
	for i, d := range defs {
		schemas[i].Name = d.Name
		for _, o := range d.Options {
			schemas[i].Options = append(schemas[i].Options, config.OptionSpec{Name: o.Name, Kind: config.OptionKind(o.Kind),
				Allowed: o.Allowed, Example: o.Example, Description: o.Description})
		}
	}
	if err := conf.CheckProviders(schemas); err != nil {
		return usagef("runtime: %w", err)
	}
	return nil
}

// CredentialStatus checks, without any request, where the credential of
// every provider comes from: each provider the plugins declare, each
// provider block of smith.kdl (a block of a new name takes the secrets of
// the codec serving it), each account bucket, and each provider the auth
// file holds a key for. Values are never part of a status. A provider
// block naming no declared provider is an error wrapping [ErrUsage].
func (rt *Runtime) CredentialStatus(ctx context.Context) ([]auth.Status, error) {
	gen, err := rt.Generation(ctx)
	if err != nil {
		return nil, err
	}
	env := map[string][]string{}
	var specs []auth.Spec
	for _, d := range gen.Providers() {
		vars := credentialVariables(d.SecretNames)
		env[d.Name] = vars
		specs = append(specs, auth.Spec{Provider: d.Name, Env: vars})
	}
	if err := checkProviders(rt.conf, gen); err != nil {
		return nil, err
	}
	for _, name := range rt.conf.ProviderNames() {
		p := rt.conf.Providers[name]
		secrets := env[p.Codec()]
		if secrets == nil {
			secrets = []string{}
		}
		if _, declared := env[name]; !declared {
			specs = append(specs, auth.Spec{Provider: name, Env: secrets})
		}
		for _, acct := range p.Accounts.Value {
			specs = append(specs, auth.Spec{Provider: name, Env: secrets, Account: acct})
		}
	}
	known := map[string]bool{}
	for _, s := range specs {
		known[specKey(s)] = true
	}
	f := rt.AuthFile()
	// An unreadable file is reported by the status of every provider.
	if stored, err := f.Providers(); err == nil {
		for _, p := range stored {
			if !known[p] {
				specs = append(specs, auth.Spec{Provider: p, Env: []string{}})
			}
		}
	}
	slices.SortFunc(specs, func(a, b auth.Spec) int { return strings.Compare(specKey(a), specKey(b)) })
	r := auth.Resolver{File: f, LookupEnv: rt.cfg.LookupEnv, Config: rt.conf.Credentials()}
	return r.Check(specs), nil
}

// specKey is the name a spec's credential is stored under: "provider" or
// "provider@account".
func specKey(s auth.Spec) string {
	if s.Account != "" {
		return s.Provider + "@" + s.Account
	}
	return s.Provider
}
