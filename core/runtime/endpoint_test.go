package runtime

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/config"
)

// TestEndpointGuard: the guard finds which setting chose the URL the codec
// built (the flag, else the longest of the variables and the block's
// base-url), refuses a credential where the policy does, and says once
// where the requests go when configuration chose it.
func TestEndpointGuard(t *testing.T) {
	user := config.Source{Layer: config.LayerUser, File: "/u/smith.kdl", Line: 2, Col: 14}
	proj := config.Source{Layer: config.LayerProject, File: "/p/.smith/smith.kdl", Line: 3, Col: 14}
	flag := config.Setting[string]{Value: "https://flag.example/", Source: config.Source{Layer: config.LayerFlag, Name: config.KeyBaseURL}}
	tests := []struct {
		name       string
		block      config.Setting[string]
		api        config.Setting[string] // the provider's api; from the project's file in the api cases
		apiBefore  config.Setting[string] // the api the user's file gave
		flag       config.Setting[string]
		environ    []string
		trusted    string
		credential string
		url        string
		bindErr    string // "" for none
		note       string
		err        string
	}{
		{name: "codec default", credential: "env K", url: "https://api.anthropic.com/v1/messages"},
		{name: "user block", block: config.Setting[string]{Value: "https://mine.example/v1", Source: user}, credential: "env K",
			url: "https://mine.example/v1/messages", note: "anthropic: sending to https://mine.example/v1 (base-url from /u/smith.kdl:2:14)"},
		{name: "project block, credential", block: config.Setting[string]{Value: "https://evil.example", Source: proj}, credential: "env K",
			url: "https://evil.example/v1/messages", bindErr: "the project's provider.anthropic.base-url \"https://evil.example\" (/p/.smith/smith.kdl:3:14) would receive your credential (env K)",
			err: `provider "anthropic": the project's provider.anthropic.base-url`},
		{name: "project block, no credential", block: config.Setting[string]{Value: "http://127.0.0.1:8000", Source: proj},
			url: "http://127.0.0.1:8000/v1/messages", note: "anthropic: sending to http://127.0.0.1:8000 (base-url from /p/.smith/smith.kdl:3:14)"},
		{name: "project block trusted", block: config.Setting[string]{Value: "https://gw.example/", Source: proj}, trusted: "https://gw.example",
			credential: "env K", url: "https://gw.example/v1/messages", note: "anthropic: sending to https://gw.example (base-url from /p/.smith/smith.kdl:3:14)"},
		{name: "flag beats project block", block: config.Setting[string]{Value: "https://evil.example", Source: proj}, flag: flag, credential: "env K",
			url: "https://flag.example/v1/messages", note: "anthropic: sending to https://flag.example (from --base-url)"},
		{name: "variable beats project block", block: config.Setting[string]{Value: "https://evil.example", Source: proj},
			environ: []string{"ANTHROPIC_BASE_URL=https://env.example/a"}, credential: "env K",
			url: "https://env.example/a/v1/messages", note: "anthropic: sending to https://env.example/a (from env ANTHROPIC_BASE_URL)"},
		{name: "another codec's variable leaves the project block in force", block: config.Setting[string]{Value: "https://evil.example", Source: proj},
			environ: []string{"OPENAI_BASE_URL=https://env.example"}, credential: "env K",
			url: "https://evil.example/v1/messages", err: "would receive your credential (env K)"},
		{name: "the longer base wins", block: config.Setting[string]{Value: "https://gw.example/anthropic", Source: proj},
			environ: []string{"OPENAI_BASE_URL=https://gw.example"}, credential: "env K",
			url: "https://gw.example/anthropic/v1/messages", err: "the project's provider.anthropic.base-url"},
		{name: "flag remote http", flag: config.Setting[string]{Value: "http://example.invalid", Source: flag.Source}, credential: "env K",
			url: "http://example.invalid/v1/messages", bindErr: `--base-url "http://example.invalid" (flag --base-url) is plain http to another machine`,
			err: "is plain http to another machine"},
		{name: "variable remote http", environ: []string{"ANTHROPIC_BASE_URL=http://example.invalid"}, credential: "env K",
			url: "http://example.invalid/v1/messages", err: `ANTHROPIC_BASE_URL "http://example.invalid" (env ANTHROPIC_BASE_URL) is plain http to another machine`},
		{name: "remote http without a credential", block: config.Setting[string]{Value: "http://lan.example:8000", Source: user},
			url: "http://lan.example:8000/v1/messages", note: "anthropic: sending to http://lan.example:8000 (base-url from /u/smith.kdl:2:14)"},
		{name: "password redacted", block: config.Setting[string]{Value: "https://me:hunter2@mine.example", Source: user}, credential: "env K",
			url: "https://me:hunter2@mine.example/v1/messages", note: "anthropic: sending to https://[redacted]@mine.example (base-url from /u/smith.kdl:2:14)"},
		{name: "project api change, codec default", api: config.Setting[string]{Value: "openai", Source: proj}, credential: "env K",
			url:     "https://api.openai.com/v1/chat/completions",
			bindErr: `the project's provider.anthropic.api "openai" (/p/.smith/smith.kdl:3:14) changes provider anthropic's api from "anthropic" to "openai", so your credential (env K) would go to the default endpoint of "openai"`,
			err:     `provider "anthropic": the project's provider.anthropic.api "openai" (/p/.smith/smith.kdl:3:14) changes provider anthropic's api from "anthropic" to "openai", so your credential (env K) would go to "https://api.openai.com/v1/chat/completions", the default endpoint of "openai", and a project may not send your credentials to a server of its choosing; if you trust that server, add trusted-base-url "https://api.openai.com" to /u/smith.kdl; otherwise set provider.anthropic.base-url in /u/smith.kdl or pass --base-url`},
		{name: "project api change from the user's api", api: config.Setting[string]{Value: "anthropic", Source: proj}, apiBefore: config.Setting[string]{Value: "openai-compatible", Source: user},
			credential: "env K", url: "https://api.anthropic.com/v1/messages", bindErr: `changes provider anthropic's api from "openai-compatible" to "anthropic"`, err: `changes provider anthropic's api from "openai-compatible" to "anthropic"`},
		{name: "project api change, another codec's variable: checked at dispatch", api: config.Setting[string]{Value: "openai", Source: proj},
			environ: []string{"ANTHROPIC_BASE_URL=https://env.example"}, credential: "env K",
			url: "https://api.openai.com/v1/chat/completions", err: `add trusted-base-url "https://api.openai.com" to /u/smith.kdl`},
		{name: "project api change, default endpoint trusted", api: config.Setting[string]{Value: "openai", Source: proj}, trusted: "https://API.openai.com/",
			credential: "env K", url: "https://api.openai.com/v1/chat/completions"},
		{name: "project api change, another trusted URL", api: config.Setting[string]{Value: "openai", Source: proj}, trusted: "https://gw.example",
			credential: "env K", url: "https://api.openai.com/v1/chat/completions", err: `changes provider anthropic's api from "anthropic" to "openai"`},
		{name: "project api change, the user's own base-url", api: config.Setting[string]{Value: "openai", Source: proj},
			block: config.Setting[string]{Value: "https://mine.example/v1", Source: user}, credential: "env K",
			url: "https://mine.example/v1/chat/completions", note: "anthropic: sending to https://mine.example/v1 (base-url from /u/smith.kdl:2:14)"},
		{name: "project api change, --base-url", api: config.Setting[string]{Value: "openai", Source: proj}, flag: flag, credential: "env K",
			url: "https://flag.example/v1/chat/completions", note: "anthropic: sending to https://flag.example (from --base-url)"},
		{name: "project api change, the user's variable", api: config.Setting[string]{Value: "openai", Source: proj},
			environ: []string{"OPENAI_BASE_URL=https://env.example/o"}, credential: "env K",
			url: "https://env.example/o/chat/completions", note: "anthropic: sending to https://env.example/o (from env OPENAI_BASE_URL)"},
		{name: "project api change, no credential", api: config.Setting[string]{Value: "openai", Source: proj},
			url: "https://api.openai.com/v1/chat/completions"},
		{name: "project api the same as before", api: config.Setting[string]{Value: "anthropic", Source: proj}, credential: "env K",
			url: "https://api.anthropic.com/v1/messages"},
		{name: "the user's own api change", api: config.Setting[string]{Value: "openai", Source: user}, credential: "env K",
			url: "https://api.openai.com/v1/chat/completions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conf := &config.Config{BaseURLFlag: tt.flag, Files: []config.File{{Layer: config.LayerUser, Path: "/u/smith.kdl"}}}
			if tt.trusted != "" {
				conf.TrustedBaseURLs = []config.Setting[string]{{Value: tt.trusted, Source: user}}
			}
			g := newEndpointGuard(conf, "anthropic", &config.Provider{Name: "anthropic", BaseURL: tt.block, API: tt.api, APIBefore: tt.apiBefore}, tt.credential, append([]string{"PATH=/bin"}, tt.environ...))
			if err := g.bind(); !matches(err, tt.bindErr) {
				t.Errorf("bind: %v; want %q", err, tt.bindErr)
			}
			note, err := g.check(tt.url, tt.credential != "")
			if !matches(err, tt.err) {
				t.Fatalf("check: %v; want %q", err, tt.err)
			}
			if note != tt.note {
				t.Errorf("note %q, want %q", note, tt.note)
			}
			if again, _ := g.check(tt.url, tt.credential != ""); again != "" {
				t.Errorf("second request noted again: %q", again)
			}
		})
	}
}

// matches reports whether err is nil when want is "", else contains it.
func matches(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}
