package proxyenv

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzResolver: parsing any NO_PROXY and proxy value never panics, a bad
// proxy is an error rather than a half-built resolver, and "*" always means
// direct.
func FuzzResolver(f *testing.F) {
	f.Add("proxy.invalid:3128", "a.invalid,.b.invalid,10.0.0.0/8,[::1]:443,*", "https://x.b.invalid:8443/p")
	f.Add("http://u:p@proxy.invalid", "192.0.2.1, ported.invalid:80", "http://192.0.2.1/")
	f.Add("socks5://proxy.invalid:1080", "", "https://[2001:db8::1]/")
	f.Fuzz(func(t *testing.T, proxy, noProxy, target string) {
		r, err := New(Env{HTTPSProxy: proxy, HTTPProxy: proxy, NoProxy: noProxy})
		if err != nil {
			if r != nil {
				t.Fatal("error with a resolver")
			}
			return
		}
		u, err := url.Parse(target)
		if err != nil {
			return
		}
		p, err := r.Proxy(u)
		if err != nil {
			t.Fatal(err)
		}
		if p != nil && strings.TrimSpace(noProxy) == "*" {
			t.Fatalf("NO_PROXY=* but %s is proxied via %s", target, p)
		}
	})
}
