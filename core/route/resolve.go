package route

import (
	"fmt"
	"slices"
	"strings"
)

// Target is one place a request can go: a model at a provider, through one
// account bucket of that provider ("" when the provider has none).
type Target struct {
	Provider string
	Model    string
	Account  string
}

// String returns "provider/model" or "provider@account/model".
func (t Target) String() string {
	if t.Account != "" {
		return t.Provider + "@" + t.Account + "/" + t.Model
	}
	return t.Provider + "/" + t.Model
}

// Config is the routing configuration. All fields may be nil.
type Config struct {
	// Aliases map a name to another name: an alias, a group, a bare model
	// name or "provider[@account]/model".
	Aliases map[string]string
	// Groups map a name to an ordered list of names, tried in that order.
	Groups map[string][]string
	// Accounts map a provider to its account buckets, in failover order; a
	// target without an explicit account expands to one per bucket.
	Accounts map[string][]string
}

// Catalog answers which "provider/id" refs serve a bare model name;
// *catalog.Snapshot implements it.
type Catalog interface {
	Refs(name string) []string
}

// maxTargets bounds the expansion of one name.
const maxTargets = 256

// Resolve expands name into its targets, in order, without duplicates. It
// performs no I/O. A name is looked up as an explicit target (it contains
// "/"), then as an alias or group of cfg (configuration beats the catalog),
// then as a bare model name in cat.
func Resolve(cfg Config, cat Catalog, name string) ([]Target, error) {
	r := resolver{cfg: cfg, cat: cat}
	if err := r.expand(name, nil); err != nil {
		return nil, err
	}
	return r.out, nil
}

type resolver struct {
	cfg Config
	cat Catalog
	out []Target
}

func (r *resolver) add(t Target) error {
	if slices.Contains(r.out, t) {
		return nil
	}
	if len(r.out) == maxTargets {
		return fmt.Errorf("route: the expansion has more than %d targets; simplify the groups", maxTargets)
	}
	r.out = append(r.out, t)
	return nil
}

func (r *resolver) expand(name string, path []string) error {
	if name == "" {
		return fmt.Errorf("route: empty model name%s; write provider/model, an alias or a group", via(path))
	}
	if slices.Contains(path, name) {
		cycle := append(slices.Clone(path[slices.Index(path, name):]), name)
		return fmt.Errorf("route: cycle in aliases and groups: %s; break it in smith.kdl", strings.Join(cycle, " → "))
	}
	if strings.Contains(name, "/") {
		return r.explicit(name, path)
	}
	alias, isAlias := r.cfg.Aliases[name]
	group, isGroup := r.cfg.Groups[name]
	path = append(path, name)
	switch {
	case isAlias && isGroup:
		return fmt.Errorf("route: %q is ambiguous%s: it is both alias → %s and group [%s]; rename one of them", name, via(path[:len(path)-1]), alias, strings.Join(group, ", "))
	case isAlias:
		return r.expand(alias, path)
	case isGroup:
		if len(group) == 0 {
			return fmt.Errorf("route: group %q%s is empty; list at least one model", name, via(path[:len(path)-1]))
		}
		for _, m := range group {
			if err := r.expand(m, path); err != nil {
				return err
			}
		}
		return nil
	}
	var refs []string
	if r.cat != nil {
		refs = r.cat.Refs(name)
	}
	switch len(refs) {
	case 0:
		return fmt.Errorf("route: no alias, group or model named %q%s; run `smith models` for the known models or write provider/model", name, via(path[:len(path)-1]))
	case 1:
		return r.explicit(refs[0], path)
	}
	sorted := slices.Sorted(slices.Values(refs))
	return fmt.Errorf("route: model name %q%s is ambiguous: served by %s; write one of them in full or define an alias", name, via(path[:len(path)-1]), strings.Join(sorted, ", "))
}

// explicit adds "provider[@account]/model".
func (r *resolver) explicit(ref string, path []string) error {
	prov, model, _ := strings.Cut(ref, "/")
	prov, account, hasAccount := strings.Cut(prov, "@")
	if prov == "" || model == "" || (hasAccount && account == "") {
		return fmt.Errorf("route: %q%s is not provider/model or provider@account/model, such as anthropic/claude-sonnet-4-5", ref, via(path))
	}
	buckets := r.cfg.Accounts[prov]
	if hasAccount {
		if len(buckets) > 0 && !slices.Contains(buckets, account) {
			return fmt.Errorf("route: %q%s names account %q, but provider %q has accounts %s", ref, via(path), account, prov, strings.Join(buckets, ", "))
		}
		return r.add(Target{Provider: prov, Model: model, Account: account})
	}
	if len(buckets) == 0 {
		return r.add(Target{Provider: prov, Model: model})
	}
	for _, b := range buckets {
		if err := r.add(Target{Provider: prov, Model: model, Account: b}); err != nil {
			return err
		}
	}
	return nil
}

func via(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return " (via " + strings.Join(path, " → ") + ")"
}
