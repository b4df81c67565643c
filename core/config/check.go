package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// check validates the merged configuration: names shared by an alias and
// a group, and credentials of accounts a provider does not list.
func check(cfg *Config) Errors {
	var errs Errors
	for _, name := range slices.Sorted(maps.Keys(cfg.Aliases)) {
		if g, ok := cfg.Groups[name]; ok {
			a := cfg.Aliases[name]
			errs = append(errs, &Error{Source: g.Source, Path: "group." + name, Value: strconv.Quote(name),
				Problem: fmt.Sprintf("is both a group and an alias (at %s); rename one of them", a.Source)})
		}
	}
	errs = append(errs, cycles(cfg)...)
	for _, name := range cfg.ProviderNames() {
		p := cfg.Providers[name]
		for _, acct := range slices.Sorted(maps.Keys(p.Credentials)) {
			if acct == "" {
				continue
			}
			if !slices.Contains(p.Accounts.Value, acct) {
				c := p.Credentials[acct]
				known := "lists no accounts"
				if len(p.Accounts.Value) > 0 {
					known = "lists the accounts " + strings.Join(p.Accounts.Value, ", ")
				}
				errs = append(errs, &Error{Source: c.Source, Path: "provider." + name + ".credential", Value: strconv.Quote(acct),
					Problem: fmt.Sprintf("names an account the provider %s", known), Example: fmt.Sprintf(`accounts %q`, acct)})
			}
		}
	}
	return errs
}

// cycles reports each cycle among aliases and groups once, at the
// definition of its first name in sorted order, naming every member.
func cycles(cfg *Config) Errors {
	refs := func(name string) ([]string, Source, bool) {
		if a, ok := cfg.Aliases[name]; ok {
			return []string{a.Value}, a.Source, true
		}
		if g, ok := cfg.Groups[name]; ok {
			return g.Value, g.Source, true
		}
		return nil, Source{}, false
	}
	names := slices.Sorted(maps.Keys(cfg.Aliases))
	names = append(names, slices.Sorted(maps.Keys(cfg.Groups))...)
	slices.Sort(names)
	reported := map[string]bool{}
	var errs Errors
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var walk func(name string, path []string)
	walk = func(name string, path []string) {
		next, _, ok := refs(name)
		if !ok || state[name] == done {
			return
		}
		if state[name] == visiting {
			cycle := append(slices.Clone(path[slices.Index(path, name):]), name)
			key := slices.Min(cycle)
			if !reported[key] {
				reported[key] = true
				_, src, _ := refs(key)
				errs = append(errs, &Error{Source: src, Path: kindOf(cfg, key) + "." + key, Value: strconv.Quote(key),
					Problem: "is part of a cycle: " + strings.Join(cycle, " → ") + "; make one of them name a model"})
			}
			return
		}
		state[name] = visiting
		for _, n := range next {
			walk(n, append(path, name))
		}
		state[name] = done
	}
	for _, n := range names {
		walk(n, nil)
	}
	return errs
}

func kindOf(cfg *Config, name string) string {
	if _, ok := cfg.Aliases[name]; ok {
		return "alias"
	}
	return "group"
}
