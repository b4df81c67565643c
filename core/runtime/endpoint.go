package runtime

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/smith-agent/smith/core/config"
)

// endpointGuard keeps one provider's credential where the user sent it
// (see [config.Config.CredentialEndpoint]). The codec, not the host,
// joins the base URL and knows which *_BASE_URL variable it reads, so
// the guard checks twice: at bind time when configuration alone decides
// the base URL ([endpointGuard.bind]), and before every dispatch against
// the URL the codec built ([endpointGuard.check]), which also says, once,
// which setting chose the endpoint.
//
// A project's base-url the user has not trusted refuses the run rather
// than being ignored: ignoring it would quietly send the user's requests
// somewhere neither party chose (the vendor's default instead of the
// gateway the project meant) with only a notice that scrolls away; the
// refusal stops before anything is sent and names the line to add to the
// user's own file, or the flag that decides instead.
type endpointGuard struct {
	conf     *config.Config
	provider string
	// credential describes the credential the requests carry ("env
	// ANTHROPIC_API_KEY"); "" when none resolved.
	credential string
	// flag is --base-url, vars the *_BASE_URL variables, block the
	// provider block's base-url; url "" when not set.
	flag  endpointBase
	vars  []endpointBase
	block endpointBase
	// pc is the provider's block; apiFrom, when set, the api a project's
	// file changed it from (see [config.Config.CredentialAPI]): the
	// codec's default endpoint is then the project's choice too.
	pc      *config.Provider
	apiFrom string
	noted   atomic.Bool
}

// endpointBase is one base URL a setting chose.
type endpointBase struct {
	setting string // "--base-url", "ANTHROPIC_BASE_URL", "provider.NAME.base-url"
	url     string
	src     config.Source
}

// origin says which setting chose the base, for the status line:
// "base-url from FILE:LINE:COL", "from --base-url", "from env NAME".
func (b endpointBase) origin() string {
	if b.src.Layer == config.LayerFlag || b.src.Layer == config.LayerEnv {
		return "from " + strings.TrimPrefix(b.src.String(), "flag ")
	}
	return "base-url from " + b.src.String()
}

// newEndpointGuard returns the guard of provider's requests: the
// provider's block pc, the credential they carry (described; "" for
// none) and environ, the environment the codec reads its base URL
// variable from.
func newEndpointGuard(conf *config.Config, provider string, pc *config.Provider, credential string, environ []string) *endpointGuard {
	g := &endpointGuard{conf: conf, provider: provider, credential: credential, pc: pc}
	if from, changed := pc.ProjectAPI(); changed {
		g.apiFrom = from
	}
	if f := conf.BaseURLFlag; f.Value != "" {
		g.flag = endpointBase{setting: "--" + config.KeyBaseURL, url: f.Value, src: f.Source}
	}
	if pc.BaseURL.Value != "" {
		g.block = endpointBase{setting: "provider." + pc.Name + ".base-url", url: pc.BaseURL.Value, src: pc.BaseURL.Source}
	}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && v != "" && strings.HasSuffix(k, "_BASE_URL") {
			g.vars = append(g.vars, endpointBase{setting: k, url: v, src: config.Source{Layer: config.LayerEnv, Name: k}})
		}
	}
	slices.SortFunc(g.vars, func(a, b endpointBase) int { return strings.Compare(a.setting, b.setting) })
	return g
}

// bind checks the base URL when configuration alone decides it: --base-url
// beats everything, and with no *_BASE_URL variable set the block's
// base-url is what the codec uses. Otherwise the codec's choice is
// checked at dispatch.
func (g *endpointGuard) bind() error {
	if g.credential == "" {
		return nil
	}
	b := g.flag
	if b.url == "" && len(g.vars) == 0 {
		b = g.block
	}
	if b.url == "" {
		if g.apiFrom != "" && len(g.vars) == 0 && len(g.conf.TrustedBaseURLs) == 0 {
			// The codec's default endpoint, of an api the project chose,
			// and nothing the user's file trusts could be it.
			return g.conf.CredentialAPI(g.pc, g.apiFrom, "", g.credential)
		}
		return nil
	}
	return g.conf.CredentialEndpoint(b.setting, b.url, b.src, g.credential)
}

// check is the provider bridge's Endpoint: it refuses a request carrying
// a credential to a URL that plain http would expose or that a project
// chose without the user's trust, and returns the status line of the
// first request whose endpoint configuration chose.
func (g *endpointGuard) check(url string, credentialed bool) (string, error) {
	if err := g.refuse(url, credentialed); err != nil {
		return "", err
	}
	b, chosen := g.chooser(url)
	if !chosen || g.noted.Swap(true) {
		return "", nil
	}
	return g.provider + ": sending to " + config.RedactURL(strings.TrimRight(b.url, "/")) + " (" + b.origin() + ")", nil
}

// refuse is check's verdict alone, without the status line.
func (g *endpointGuard) refuse(url string, credentialed bool) error {
	if !credentialed {
		return nil
	}
	b, chosen := g.chooser(url)
	setting, base, src := b.setting, b.url, b.src
	if !chosen {
		setting, base, src = "the codec's default base URL", url, config.Source{}
	}
	if err := g.conf.CredentialEndpoint(setting, base, src, g.credential); err != nil {
		return fmt.Errorf("provider %q: %w", g.provider, err)
	}
	if !chosen && g.apiFrom != "" {
		if err := g.conf.CredentialAPI(g.pc, g.apiFrom, url, g.credential); err != nil {
			return fmt.Errorf("provider %q: %w", g.provider, err)
		}
	}
	return nil
}

// deferred reports whether bind left the verdict to the URL the codec
// builds: a credential goes out, and a *_BASE_URL variable the codec may
// read, or the default endpoint of an api a project chose, decides where.
// The runtime then asks the codec for that URL at bind time too (see
// [provider.Provider.EndpointURL]), so a refusal comes before a prompt is
// recorded, not as the answer to one.
func (g *endpointGuard) deferred() bool {
	return g.credential != "" && g.flag.url == "" && (len(g.vars) > 0 || g.apiFrom != "")
}

// chooser returns the base that url was built on, and false for the
// codec's default. The codec's precedence is flag > variable > block;
// which variable it reads is its own, so among the variables and the
// block the longest base url starts with wins, a variable on a tie (it
// is the user's decision either way).
func (g *endpointGuard) chooser(url string) (endpointBase, bool) {
	if g.flag.url != "" && under(url, g.flag.url) {
		return g.flag, true
	}
	var best endpointBase
	for _, b := range append(slices.Clone(g.vars), g.block) {
		if b.url != "" && under(url, b.url) && len(strings.TrimRight(b.url, "/")) > len(strings.TrimRight(best.url, "/")) {
			best = b
		}
	}
	return best, best.url != ""
}

// under reports whether url is base or a path below it.
func under(url, base string) bool {
	base = strings.TrimRight(base, "/")
	rest, ok := strings.CutPrefix(url, base)
	return ok && (rest == "" || rest[0] == '/' || rest[0] == '?')
}

// describeCredential says where a resolved credential came from, as in
// "env ANTHROPIC_API_KEY" or "auth-file /home/me/.local/share/smith/auth.json".
func describeCredential(source, origin string) string {
	if origin == "" {
		return source
	}
	return source + " " + origin
}
