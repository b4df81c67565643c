// Package proxyenv resolves which proxy, if any, carries a request, from the
// conventional HTTPS_PROXY, HTTP_PROXY and NO_PROXY variables (uppercase
// first, then lowercase).
//
// It differs from net/http.ProxyFromEnvironment in two ways: the environment
// is read when a [Resolver] is built rather than once per process, and a bad
// proxy URL is an error at build time instead of at the first request.
// Like net/http, requests to localhost and loopback addresses never use a
// proxy: a proxy cannot reach the user's loopback interface.
package proxyenv

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// Env holds the three variables as read.
type Env struct {
	HTTPSProxy string
	HTTPProxy  string
	NoProxy    string
}

// FromEnv reads the variables through getenv (os.Getenv in production).
func FromEnv(getenv func(string) string) Env {
	get := func(name string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return getenv(strings.ToLower(name))
	}
	return Env{HTTPSProxy: get("HTTPS_PROXY"), HTTPProxy: get("HTTP_PROXY"), NoProxy: get("NO_PROXY")}
}

// Resolver picks the proxy for a request URL: nil means connect directly.
// It is safe for concurrent use.
type Resolver struct {
	https, http *url.URL
	all         bool // NO_PROXY=*
	rules       []rule
}

type rule struct {
	prefix netip.Prefix // valid for IP and CIDR rules
	domain string       // lowercase, without a leading dot
	exact  bool         // a leading dot was absent: the name itself matches too
	port   string       // "" matches every port
}

// New parses env. An unparsable proxy URL is an error naming the variable.
func New(env Env) (*Resolver, error) {
	r := &Resolver{}
	var err error
	if r.https, err = parseProxy("HTTPS_PROXY", env.HTTPSProxy); err != nil {
		return nil, err
	}
	if r.http, err = parseProxy("HTTP_PROXY", env.HTTPProxy); err != nil {
		return nil, err
	}
	for _, f := range strings.Split(env.NoProxy, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		switch {
		case f == "":
			continue
		case f == "*":
			r.all = true
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			r.rules = append(r.rules, rule{prefix: p.Masked()})
			continue
		}
		host, port := f, ""
		if h, p, err := net.SplitHostPort(f); err == nil {
			host, port = h, p
		}
		if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
			r.rules = append(r.rules, rule{prefix: netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), port: port})
			continue
		}
		r.rules = append(r.rules, rule{domain: strings.TrimPrefix(host, "."), exact: !strings.HasPrefix(host, "."), port: port})
	}
	return r, nil
}

func parseProxy(name, v string) (*url.URL, error) {
	if v == "" {
		return nil, nil
	}
	raw := v
	if !strings.Contains(v, "://") {
		raw = "http://" + v
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("proxyenv: %s=%q is not a proxy URL; set it like http://proxy.example:3128 or unset it", name, redact(v))
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
	default:
		return nil, fmt.Errorf("proxyenv: %s=%q has scheme %q; use http, https, socks5 or socks5h", name, redact(v), u.Scheme)
	}
	return u, nil
}

// redact hides a password in a proxy setting before it reaches an error.
func redact(v string) string {
	if u, err := url.Parse(v); err == nil && u.User != nil {
		return u.Redacted()
	}
	if at := strings.LastIndex(v, "@"); at >= 0 {
		return "xxxxx" + v[at:]
	}
	return v
}

// Proxy returns the proxy for target, or nil to connect directly.
func (r *Resolver) Proxy(target *url.URL) (*url.URL, error) {
	var p *url.URL
	switch target.Scheme {
	case "https", "wss":
		p = r.https
	case "http", "ws":
		p = r.http
	}
	if p == nil || r.all {
		return nil, nil
	}
	host := strings.ToLower(target.Hostname())
	port := target.Port()
	if port == "" {
		port = map[string]string{"https": "443", "wss": "443", "http": "80", "ws": "80"}[target.Scheme]
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return nil, nil
	}
	addr, isIP := netip.ParseAddr(host)
	if isIP == nil && addr.Unmap().IsLoopback() {
		return nil, nil
	}
	for _, ru := range r.rules {
		if ru.port != "" && ru.port != port {
			continue
		}
		if ru.prefix.IsValid() {
			if isIP == nil && ru.prefix.Contains(addr.Unmap()) {
				return nil, nil
			}
			continue
		}
		if host == ru.domain && ru.exact || strings.HasSuffix(host, "."+ru.domain) {
			return nil, nil
		}
	}
	return p, nil
}
