package config

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
	"github.com/smith-agent/smith/core/auth"
)

// providerNodes are the nodes a provider block may hold.
var providerNodes = []string{"api", "base-url", "accounts", "credential", "quirks"}

func (r *reader) provider(n *kdl.Node) {
	const ex = `provider "anthropic" { base-url "https://gateway.example/anthropic" }`
	if !r.shape(n, "provider", 1, 1, nil, true, ex) {
		return
	}
	name, ok := r.nameArg(n, "provider", ex)
	if !ok {
		return
	}
	path := "provider." + name
	if !r.once(path, n, path) {
		return
	}
	p := &Provider{Name: name, Source: r.at(n.Location())}
	if c := n.Children(); c != nil {
		for _, k := range c.Nodes {
			r.providerField(p, k, path)
		}
	}
	if r.out.cfg.Providers == nil {
		r.out.cfg.Providers = map[string]*Provider{}
	}
	r.out.cfg.Providers[name] = p
}

func (r *reader) providerField(p *Provider, n *kdl.Node, parent string) {
	name := n.Name()
	path := parent + "." + name
	switch name {
	case "api":
		const ex = `api "openai-compatible"`
		if r.shape(n, path, 1, 1, nil, false, ex) && r.once(path, n, path) {
			if s, ok := r.str(n.Arg(0), path, ex); ok {
				if !validName(s) {
					r.fail(n.Arg(0).Location(), path, strconv.Quote(s), "is not a provider name of the codec plugin", ex)
					return
				}
				p.API = Setting[string]{Value: s, Source: r.at(n.Arg(0).Location())}
			}
		}
	case "base-url":
		const ex = `base-url "https://gateway.example/v1"`
		if r.shape(n, path, 1, 1, nil, false, ex) && r.once(path, n, path) {
			if s, ok := r.str(n.Arg(0), path, ex); ok {
				if err := checkURL(s); err != "" {
					r.fail(n.Arg(0).Location(), path, strconv.Quote(redactURL(s)), err, ex)
					return
				}
				p.BaseURL = Setting[string]{Value: s, Source: r.at(n.Arg(0).Location())}
			}
		}
	case "accounts":
		const ex = `accounts "work" "personal"`
		if r.shape(n, path, 1, -1, nil, false, ex) && r.once(path, n, path) {
			var accts []string
			for _, v := range n.Arguments() {
				s, ok := r.str(v, path, ex)
				if !ok {
					return
				}
				if !validName(s) || slices.Contains(accts, s) {
					r.fail(v.Location(), path, strconv.Quote(s), "is not a new account name (letters, digits, '.', '_', '-'; each once)", ex)
					return
				}
				accts = append(accts, s)
			}
			p.Accounts = Setting[[]string]{Value: accts, Source: r.at(n.Location())}
		}
	case "credential":
		r.credential(p, n, path)
	case "quirks":
		r.quirks(p, n, path)
	default:
		r.fail(n.Location(), path, "", "is not a provider setting; known: "+strings.Join(providerNodes, ", ")+suggest(name, providerNodes), `base-url "https://gateway.example/v1"`)
	}
}

// checkURL returns why s is not a usable base URL, or "".
func checkURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "is not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "is not an http:// or https:// URL"
	case u.Host == "":
		return "has no host"
	case u.RawQuery != "" || u.Fragment != "":
		return "has a query or fragment; give only the base the request paths are joined to"
	}
	return ""
}

// redactURL hides a URL's user information, which may hold a password.
func redactURL(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "[a URL with user information, redacted]"
	}
	if u.User == nil {
		return s
	}
	return u.Scheme + "://[redacted]@" + u.Host + u.EscapedPath()
}

// envName reports whether s is a portable environment variable name.
func envName(s string) bool {
	if s == "" || len(s) > 128 || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (r *reader) credential(p *Provider, n *kdl.Node, path string) {
	const ex = `credential env="WORK_ANTHROPIC_KEY" (or key="…", optionally account="work")`
	if !r.shape(n, path, 0, 0, []string{"env", "key", "account"}, false, ex) {
		return
	}
	// A project (or plugin) naming any variable as a credential could
	// send it to a base URL of its choosing.
	if !r.userOnly(n, path, "it could send any of your variables to a server of its choosing", ex) {
		return
	}
	props := n.Properties()
	env, hasEnv := props["env"]
	key, hasKey := props["key"]
	if hasKey && key.Kind() == kdl.String && key.String() != "" {
		r.secrets = append(r.secrets, key.String())
	}
	var acct string
	if a, ok := props["account"]; ok {
		s, ok := r.str(a, path+".account", ex)
		if !ok {
			return
		}
		if !validName(s) {
			r.fail(a.Location(), path+".account", strconv.Quote(s), "is not an account name", ex)
			return
		}
		acct = s
	}
	cpath := path
	if acct != "" {
		cpath = path + "@" + acct
	}
	if !r.once(cpath, n, cpath) {
		return
	}
	switch {
	case hasEnv == hasKey:
		r.fail(n.Location(), cpath, "", "needs exactly one of env= (a variable to read) and key= (the key itself)", ex)
		return
	case hasEnv:
		s, ok := r.str(env, cpath+".env", ex)
		if !ok {
			return
		}
		if !envName(s) {
			r.fail(env.Location(), cpath+".env", strconv.Quote(s), "is not an environment variable name (letters, digits and '_')", ex)
			return
		}
		r.setCredential(p, acct, Credential{Env: s, Source: r.at(n.Location())})
	default:
		if key.Kind() != kdl.String || strings.TrimSpace(key.String()) == "" {
			r.fail(key.Location(), cpath+".key", "[redacted]", "is not a non-empty string", ex)
			return
		}
		r.setCredential(p, acct, Credential{Key: auth.NewSecret(key.String()), Source: r.at(n.Location())})
	}
}

func (r *reader) setCredential(p *Provider, acct string, c Credential) {
	if p.Credentials == nil {
		p.Credentials = map[string]Credential{}
	}
	p.Credentials[acct] = c
}
