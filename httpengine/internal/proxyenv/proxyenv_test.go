package proxyenv

import (
	"net/url"
	"strings"
	"testing"
)

func TestProxy(t *testing.T) {
	env := Env{HTTPSProxy: "http://sp.invalid:3128", HTTPProxy: "hp.invalid:8080",
		NoProxy: "direct.invalid, .suffix.invalid,10.0.0.0/8, 192.0.2.7, ported.invalid:8443"}
	tests := []struct {
		name   string
		env    Env
		target string
		want   string
	}{
		{"https uses HTTPS_PROXY", env, "https://api.invalid/v1", "http://sp.invalid:3128"},
		{"http uses HTTP_PROXY with default scheme", env, "http://api.invalid/v1", "http://hp.invalid:8080"},
		{"exact no_proxy name", env, "https://direct.invalid/", ""},
		{"no_proxy name covers subdomains", env, "https://a.direct.invalid/", ""},
		{"leading dot matches subdomains", env, "https://x.suffix.invalid/", ""},
		{"leading dot excludes the bare name", env, "https://suffix.invalid/", "http://sp.invalid:3128"},
		{"similar suffix is not a subdomain", env, "https://notdirect.invalid/", "http://sp.invalid:3128"},
		{"cidr", env, "https://10.1.2.3/", ""},
		{"single ip", env, "https://192.0.2.7/", ""},
		{"other ip", env, "https://192.0.2.8/", "http://sp.invalid:3128"},
		{"port-qualified rule matches its port", env, "https://ported.invalid:8443/", ""},
		{"port-qualified rule ignores other ports", env, "https://ported.invalid/", "http://sp.invalid:3128"},
		{"star disables proxies", Env{HTTPSProxy: "sp.invalid:1", NoProxy: "*"}, "https://api.invalid/", ""},
		{"loopback ip is direct", env, "https://127.0.0.1:8443/", ""},
		{"loopback v6 is direct", env, "https://[::1]:8443/", ""},
		{"localhost is direct", env, "http://localhost:8080/", ""},
		{"no variables", Env{}, "https://api.invalid/", ""},
		{"https only configured", Env{HTTPSProxy: "sp.invalid:1"}, "http://api.invalid/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(tt.env)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse(tt.target)
			got, err := r.Proxy(u)
			if err != nil {
				t.Fatal(err)
			}
			if s := fmtURL(got); s != tt.want {
				t.Fatalf("Proxy(%s) = %q, want %q", tt.target, s, tt.want)
			}
		})
	}
}

func fmtURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.String()
}

func TestFromEnvPrefersUppercase(t *testing.T) {
	vars := map[string]string{"HTTPS_PROXY": "up.invalid:1", "https_proxy": "low.invalid:1", "http_proxy": "low.invalid:2", "no_proxy": "x.invalid"}
	got := FromEnv(func(k string) string { return vars[k] })
	want := Env{HTTPSProxy: "up.invalid:1", HTTPProxy: "low.invalid:2", NoProxy: "x.invalid"}
	if got != want {
		t.Fatalf("FromEnv = %+v, want %+v", got, want)
	}
}

func TestNewRejectsBadProxyWithoutLeakingPassword(t *testing.T) {
	tests := []struct {
		name, value, want string
	}{
		{"bad scheme", "ftp://user:hunter2@proxy.invalid:21", `scheme "ftp"`},
		{"no host", "http://", "not a proxy URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Env{HTTPSProxy: tt.value})
			if err == nil {
				t.Fatal("accepted", tt.value)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "HTTPS_PROXY") {
				t.Fatalf("error %q lacks %q or the variable name", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("error leaks the proxy password: %q", err)
			}
		})
	}
}
