package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Entry is one resolved value in printable form: the field path, the
// value (credentials and URL passwords redacted) and its source.
type Entry struct {
	Path   string `json:"path"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Entries lists every option and every configured provider field, alias
// and group, in a fixed order, for `smith config show`. No credential
// value is part of an Entry.
func (c *Config) Entries() []Entry {
	var out []Entry
	add := func(path, value string, s Source) {
		out = append(out, Entry{Path: path, Value: value, Source: s.String()})
	}
	or := func(v, unset string) string {
		if v == "" {
			return unset
		}
		return v
	}
	add(KeyModel, or(c.Model.Value, "(none: pass --model)"), c.Model.Source)
	add(KeyThinking, or(string(c.Thinking.Value), "(the provider's default)"), c.Thinking.Source)
	tokens := "(the model's output limit)"
	if c.MaxOutputTokens.Value > 0 {
		tokens = strconv.Itoa(c.MaxOutputTokens.Value)
	}
	add(KeyMaxOutputTokens, tokens, c.MaxOutputTokens.Source)
	add(KeyMaxCost, c.maxCostEntry(), c.MaxCost.Source)
	for _, k := range []string{KeyHeadTimeout, KeyIdleTimeout, KeyResponseTimeout} {
		add(k, c.Timeout(k).String(), c.timeoutSetting(k).Source)
	}
	for _, p := range c.Ignore {
		add("ignore", p.Value, p.Source)
	}
	c.sandboxEntries(add)
	c.permissionEntries(add)
	add(KeyTrustProject, strconv.FormatBool(c.TrustProject.Value), c.TrustProject.Source)
	add(KeyBaseURL, or(redactURL(c.BaseURLFlag.Value), "(not given)"), c.BaseURLFlag.Source)
	add(KeyCatalogRefresh, or(redactURL(c.CatalogRefresh.Value), "off"), c.CatalogRefresh.Source)
	switch sp := c.SystemPrompt.Value; {
	case sp.File != "":
		add(KeySystemPrompt, "file "+sp.File, c.SystemPrompt.Source)
	case sp.Text != "":
		add(KeySystemPrompt, fmt.Sprintf("text (%d bytes)", len(sp.Text)), c.SystemPrompt.Source)
	default:
		add(KeySystemPrompt, "(the product plugin's)", c.SystemPrompt.Source)
	}
	for _, name := range c.ProviderNames() {
		p := c.Providers[name]
		pre := "provider." + name + "."
		if p.API.IsSet() {
			add(pre+"api", p.API.Value, p.API.Source)
		}
		if p.BaseURL.IsSet() {
			add(pre+"base-url", redactURL(p.BaseURL.Value), p.BaseURL.Source)
		}
		if p.Accounts.IsSet() {
			add(pre+"accounts", strings.Join(p.Accounts.Value, ", "), p.Accounts.Source)
		}
		for _, acct := range slices.Sorted(maps.Keys(p.Credentials)) {
			cr := p.Credentials[acct]
			path := pre + "credential"
			if acct != "" {
				path += "@" + acct
			}
			add(path, cr.Describe(), cr.Source)
		}
		if p.Quirks.IsSet() {
			add(pre+"quirks", string(p.QuirksJSON()), p.Quirks.Source)
		}
	}
	for _, ref := range slices.Sorted(maps.Keys(c.Models)) {
		m := c.Models[ref]
		add("model-info."+ref, describe(m.Value), m.Source)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Aliases)) {
		a := c.Aliases[name]
		add("alias."+name, a.Value, a.Source)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Groups)) {
		g := c.Groups[name]
		add("group."+name, strings.Join(g.Value, ", "), g.Source)
	}
	for _, t := range c.Trusted {
		add("trusted-project", t.Value, t.Source)
	}
	for _, t := range c.TrustedBaseURLs {
		add(KeyTrustedBaseURL, redactURL(t.Value), t.Source)
	}
	c.Compaction.entries(add)
	c.pluginBudgetEntries(add)
	return out
}

// RedactURL returns u with any user information (which may hold a
// password) replaced by [redacted].
func RedactURL(u string) string { return redactURL(u) }
