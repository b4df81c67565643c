package config

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
)

// KeyTrustedBaseURL is the node of the user's smith.kdl that lets a
// trusted project's base-url receive the user's credentials.
const KeyTrustedBaseURL = "trusted-base-url"

// trustedBaseURL reads trusted-base-url "URL": a base URL a trusted
// project's provider block may send your credentials to. Like
// trusted-project it is your decision, so it is read only from your own
// file; plain http to another machine is refused here, as no credential
// is ever sent there.
func (r *reader) trustedBaseURL(n *kdl.Node) {
	const name = KeyTrustedBaseURL
	const ex = `trusted-base-url "https://gateway.example/v1"`
	if !r.shape(n, name, 1, 1, nil, false, ex) {
		return
	}
	if !r.userOnly(n, name, "a project could trust its own server with your credentials", ex) {
		return
	}
	s, ok := r.str(n.Arg(0), name, ex)
	if !ok {
		return
	}
	switch why := checkURL(s); {
	case why != "":
		r.fail(n.Arg(0).Location(), name, strconv.Quote(redactURL(s)), why, ex)
	case RemoteHTTP(s):
		r.fail(n.Arg(0).Location(), name, strconv.Quote(redactURL(s)), "is plain http to another machine, where no credential is ever sent; use https://", ex)
	default:
		r.out.cfg.TrustedBaseURLs = append(r.out.cfg.TrustedBaseURLs, Setting[string]{Value: s, Source: r.at(n.Arg(0).Location())})
	}
}

// RemoteHTTP reports whether raw is a plain http:// URL to a host other
// than this machine (localhost, 127.0.0.0/8 or ::1): traffic anyone on
// the way may read and change. The catalog refresh refuses such a URL,
// and no request carrying a credential is sent to one.
func RemoteHTTP(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && remoteHTTP(u)
}

func remoteHTTP(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, "http") && !loopback(u.Hostname())
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CredentialEndpoint returns nil when a request carrying a credential
// (described as in "env ANTHROPIC_API_KEY"; "" for any) may go to base,
// the base URL that setting ("provider.NAME.base-url", "--base-url" or a
// *_BASE_URL variable) took from src. Otherwise it returns an error naming
// the URL, its source and the fix. A credential never goes over plain
// http to another machine, whoever chose the URL; and it goes to a base
// URL a project's file chose only when the user's own file trusts that
// URL (trusted-base-url), since trusting a project's settings is not
// trusting it with the user's keys.
func (c *Config) CredentialEndpoint(setting, base string, src Source, credential string) error {
	cred := "your credential"
	if credential != "" {
		cred += " (" + credential + ")"
	}
	shown := strconv.Quote(redactURL(base))
	switch c.endpointRisk(base, src) {
	case riskPlainHTTP:
		return fmt.Errorf("%s %s (%s) is plain http to another machine, so %s would cross the network readable by anyone on the way; use https://, or plain http only to localhost, 127.0.0.1 or ::1 (an ssh -L tunnel reaches another machine that way)",
			setting, shown, src, cred)
	case riskProject:
		return fmt.Errorf("the project's %s %s (%s) would receive %s, and a project may not send your credentials to a server of its choosing; if you trust that server, add %s to %s; otherwise pass --base-url with the endpoint you choose",
			setting, shown, src, cred, trustLine(base), c.userFile())
	}
	return nil
}

// ProjectAPI reports whether a project's file changed p's api (its wire
// format, and so the codec and its default endpoint), and from which api:
// the user's file's, or else p's own name.
func (p *Provider) ProjectAPI() (from string, changed bool) {
	if !p.API.IsSet() || p.API.Source.Layer != LayerProject {
		return "", false
	}
	from = p.Name
	if p.APIBefore.IsSet() {
		from = p.APIBefore.Value
	}
	if from == p.API.Value {
		return "", false
	}
	return from, true
}

// CredentialAPI returns nil when a request carrying a credential
// (described as in CredentialEndpoint) may go to url, the endpoint the
// codec of p's api built from its own default base URL, after a
// project's file changed p's api from the api from ([Provider.ProjectAPI]):
// the codec of another api sends the user's key to that API's vendor, a
// server the project chose, so url must be under a base URL the user's
// file trusts (trusted-base-url). url "" is not known yet (before the
// codec built it); then the error says what to trust in general terms.
// Otherwise the error names the project's api line and the fixes.
func (c *Config) CredentialAPI(p *Provider, from, url, credential string) error {
	if url != "" && c.trustsURL(url) {
		return nil
	}
	cred := "your credential"
	if credential != "" {
		cred += " (" + credential + ")"
	}
	where, trust := "the default endpoint of "+strconv.Quote(p.API.Value), "add trusted-base-url with that endpoint's base URL to "+c.userFile()
	if url != "" {
		where = strconv.Quote(redactURL(url)) + ", " + where
		trust = "add " + trustLine(origin(url)) + " to " + c.userFile()
	}
	return fmt.Errorf("the project's provider.%s.api %q (%s) changes provider %s's api from %q to %q, so %s would go to %s, and a project may not send your credentials to a server of its choosing; if you trust that server, %s; otherwise set provider.%s.base-url in %s or pass --base-url with the endpoint you choose, or remove the api line from the project's file",
		p.Name, p.API.Value, p.API.Source, p.Name, from, p.API.Value, cred, where, trust, p.Name, c.userFile())
}

// trustsURL reports whether url is a base URL the user's file trusts or a
// path below one.
func (c *Config) trustsURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(c.TrustedBaseURLs, func(t Setting[string]) bool {
		b, err := url.Parse(t.Value)
		if err != nil || !strings.EqualFold(u.Scheme, b.Scheme) || !strings.EqualFold(u.Host, b.Host) || u.User.String() != b.User.String() {
			return false
		}
		base := strings.TrimRight(b.Path, "/")
		rest, ok := strings.CutPrefix(u.Path, base)
		return ok && (rest == "" || rest[0] == '/')
	})
}

// origin returns the scheme and host of raw, the base URL a fix trusts
// for an endpoint whose base path is not known.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return (&url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host}).String()
}

// risk is why a credential may not go to a base URL.
type risk int

const (
	riskNone      risk = iota
	riskPlainHTTP      // plain http to another machine
	riskProject        // a project chose it and the user's file does not trust it
)

// endpointRisk is the policy of [Config.CredentialEndpoint].
func (c *Config) endpointRisk(base string, src Source) risk {
	switch {
	case RemoteHTTP(base):
		return riskPlainHTTP
	case src.Layer == LayerProject && !c.TrustsBaseURL(base):
		return riskProject
	}
	return riskNone
}

// TrustsBaseURL reports whether the user's file trusts base
// (trusted-base-url), comparing scheme and host without regard to case
// and paths without a trailing slash.
func (c *Config) TrustsBaseURL(base string) bool {
	return slices.ContainsFunc(c.TrustedBaseURLs, func(t Setting[string]) bool { return sameBase(t.Value, base) })
}

// sameBase reports whether a and b are one base URL.
func sameBase(a, b string) bool {
	norm := func(s string) string {
		u, err := url.Parse(s)
		if err != nil {
			return s
		}
		u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
		u.Path, u.RawPath = strings.TrimRight(u.Path, "/"), ""
		return u.String()
	}
	return norm(a) == norm(b)
}

// trustLine is the trusted-base-url line that trusts base.
func trustLine(base string) string {
	return KeyTrustedBaseURL + " " + strconv.Quote(redactURL(strings.TrimRight(base, "/")))
}

// userFile names the user's smith.kdl for a fix, or "your smith.kdl".
func (c *Config) userFile() string {
	for _, f := range c.Files {
		if f.Layer == LayerUser {
			return f.Path
		}
	}
	return "your smith.kdl"
}

// EndpointEntry is one base URL configuration chose, in printable form
// (user information redacted), for `smith config show`: the Setting
// that chose it, its Source, and whether a request carrying a
// credential may go there ("allowed", or why not and the fix).
type EndpointEntry struct {
	Setting    string `json:"setting"`
	URL        string `json:"url"`
	Source     string `json:"source"`
	Credential string `json:"credential"`
}

// Endpoints lists every base URL configuration sets — each provider
// block's base-url, --base-url, and each *_BASE_URL variable of environ
// (each codec reads its own) — with where it came from and whether a
// credential may be sent there (see [Config.CredentialEndpoint]).
func (c *Config) Endpoints(environ []string) []EndpointEntry {
	var out []EndpointEntry
	add := func(setting, base string, src Source) {
		verdict := "allowed"
		switch c.endpointRisk(base, src) {
		case riskPlainHTTP:
			verdict = "refused: plain http to another machine; use https://"
		case riskProject:
			verdict = "refused: the project chose it; if you trust it, add " + trustLine(base) + " to " + c.userFile()
		}
		out = append(out, EndpointEntry{Setting: setting, URL: redactURL(base), Source: src.String(), Credential: verdict})
	}
	for _, name := range c.ProviderNames() {
		if b := c.Providers[name].BaseURL; b.IsSet() {
			add("provider."+name+".base-url", b.Value, b.Source)
		}
	}
	if c.BaseURLFlag.IsSet() {
		add("--"+KeyBaseURL, c.BaseURLFlag.Value, c.BaseURLFlag.Source)
	}
	var vars []EndpointEntry
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && v != "" && strings.HasSuffix(k, "_BASE_URL") {
			vars = append(vars, EndpointEntry{Setting: k, URL: v})
		}
	}
	slices.SortFunc(vars, func(a, b EndpointEntry) int { return strings.Compare(a.Setting, b.Setting) })
	for _, v := range vars {
		add(v.Setting, v.URL, Source{Layer: LayerEnv, Name: v.Setting})
	}
	return out
}
