package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoteHTTP: plain http is remote unless its host is this machine;
// https never is.
func TestRemoteHTTP(t *testing.T) {
	tests := []struct {
		name string
		url  string
		want bool
	}{
		{name: "https", url: "https://gateway.example/v1", want: false},
		{name: "http remote", url: "http://gateway.example/v1", want: true},
		{name: "http upper-case scheme", url: "HTTP://gateway.example", want: true},
		{name: "http localhost", url: "http://localhost:8000/v1", want: false},
		{name: "http LOCALHOST", url: "http://LOCALHOST:8000", want: false},
		{name: "http 127.0.0.1", url: "http://127.0.0.1:8000", want: false},
		{name: "http 127.9.9.9", url: "http://127.9.9.9", want: false},
		{name: "http ::1", url: "http://[::1]:8000", want: false},
		{name: "http private address", url: "http://192.168.1.5:8000", want: true},
		{name: "http localhost suffix", url: "http://localhost.example.com", want: true},
		{name: "http invalid host", url: "http://example.invalid/v1", want: true},
		{name: "not a URL", url: "::", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RemoteHTTP(tt.url); got != tt.want {
				t.Errorf("RemoteHTTP(%q) = %v, want %v", tt.url, got, tt.want)
			}
		})
	}
}

// TestCredentialEndpoint: a credential goes over https or to this
// machine; to a project's base-url only where the user's file trusts it;
// the user's own settings decide for themselves.
func TestCredentialEndpoint(t *testing.T) {
	user := Source{Layer: LayerUser, File: "/u/smith.kdl", Line: 2, Col: 14}
	proj := Source{Layer: LayerProject, File: "/p/.smith/smith.kdl", Line: 3, Col: 14}
	cfg := &Config{Files: []File{{Layer: LayerUser, Path: "/u/smith.kdl"}},
		TrustedBaseURLs: []Setting[string]{{Value: "https://Gateway.example/v1/", Source: user}}}
	tests := []struct {
		name    string
		base    string
		src     Source
		wantErr string // "" allowed
	}{
		{name: "user https", base: "https://mine.example", src: user},
		{name: "user loopback http", base: "http://127.0.0.1:8000/v1", src: user},
		{name: "user remote http", base: "http://mine.example/v1", src: user,
			wantErr: `provider.anthropic.base-url "http://mine.example/v1" (/u/smith.kdl:2:14) is plain http to another machine, so your credential (env ANTHROPIC_API_KEY) would cross the network readable by anyone on the way; use https://`},
		{name: "flag remote http", base: "http://example.invalid", src: Source{Layer: LayerFlag, Name: KeyBaseURL},
			wantErr: `(flag --base-url) is plain http to another machine`},
		{name: "env remote http", base: "http://example.invalid", src: Source{Layer: LayerEnv, Name: "ANTHROPIC_BASE_URL"},
			wantErr: `(env ANTHROPIC_BASE_URL) is plain http to another machine`},
		{name: "env https", base: "https://env.example", src: Source{Layer: LayerEnv, Name: "ANTHROPIC_BASE_URL"}},
		{name: "project untrusted", base: "https://evil.example/v1", src: proj,
			wantErr: `the project's provider.anthropic.base-url "https://evil.example/v1" (/p/.smith/smith.kdl:3:14) would receive your credential (env ANTHROPIC_API_KEY), and a project may not send your credentials to a server of its choosing; if you trust that server, add trusted-base-url "https://evil.example/v1" to /u/smith.kdl; otherwise pass --base-url with the endpoint you choose`},
		{name: "project trusted", base: "https://gateway.example/v1", src: proj},
		{name: "project trusted, case and slash differ", base: "https://GATEWAY.example/v1///", src: proj},
		{name: "project under a trusted path is not trusted", base: "https://gateway.example/v1/other", src: proj, wantErr: "would receive your credential"},
		{name: "project loopback http untrusted", base: "http://127.0.0.1:9/v1", src: proj, wantErr: `add trusted-base-url "http://127.0.0.1:9/v1"`},
		{name: "project remote http is refused even if trusted", base: "http://gateway.example/v1", src: proj, wantErr: "is plain http to another machine"},
		{name: "password redacted", base: "https://me:hunter2@evil.example", src: proj, wantErr: `"https://[redacted]@evil.example"`},
		{name: "plugin layer", base: "https://plugin.example", src: Source{Layer: LayerPlugin, Name: "p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := cfg.CredentialEndpoint("provider.anthropic.base-url", tt.base, tt.src, "env ANTHROPIC_API_KEY")
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("allowed; want an error containing %q", tt.wantErr)
			case err != nil && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("error\n%v\nwant it to contain\n%s", err, tt.wantErr)
			case err != nil && strings.Contains(err.Error(), "hunter2"):
				t.Fatalf("the error reveals the URL's password: %v", err)
			}
		})
	}
}

// TestTrustedBaseURL: trusted-base-url is read from the user's file only,
// is a base URL, and never plain http to another machine.
func TestTrustedBaseURL(t *testing.T) {
	tests := []struct {
		name    string
		user    string
		project string
		want    string // the trusted URLs with sources, or the error
	}{
		{name: "user", user: `trusted-base-url "https://gateway.example/v1"` + "\ntrusted-base-url \"http://localhost:8000\"\n",
			want: "https://gateway.example/v1 @ USER:1:18; http://localhost:8000 @ USER:2:18"},
		{name: "project may not", project: `trusted-base-url "https://evil.example"`,
			want: `PROJECT:1:1: trusted-base-url: is read only from your own smith.kdl, never from a project's or a plugin's`},
		{name: "remote http", user: `trusted-base-url "http://gateway.example"`,
			want: `USER:1:18: trusted-base-url: "http://gateway.example" is plain http to another machine, where no credential is ever sent; use https://`},
		{name: "not a URL", user: `trusted-base-url "gateway.example"`,
			want: `USER:1:18: trusted-base-url: "gateway.example" is not an http:// or https:// URL`},
		{name: "two arguments", user: `trusted-base-url "https://a.example" "https://b.example"`, want: "trusted-base-url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, sub := project(t, tt.project)
			user := writeUser(t, tt.user+"\ntrusted-project \""+root+"\"\n")
			cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv})
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				var parts []string
				for _, s := range cfg.TrustedBaseURLs {
					parts = append(parts, s.Value+" @ "+s.Source.String())
				}
				got = strings.Join(parts, "; ")
			}
			got = strings.NewReplacer(user, "USER", filepath.Join(root, ProjectFile), "PROJECT").Replace(got)
			if !strings.Contains(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestProjectAPI: a project's file that changes a provider's api (and so
// its codec and the codec's default endpoint) is found, with the api it
// replaced, the user's file's or the provider's own name; CredentialAPI
// refuses the user's credential there, naming the project's api line and
// the fixes, unless the endpoint is under a URL the user's file trusts.
func TestProjectAPI(t *testing.T) {
	const endpoint = "https://api.anthropic.com/v1/messages"
	tests := []struct {
		name      string
		user      string
		project   string
		provider  string
		wantFrom  string // "" when no project changed the api
		wantError string // CredentialAPI's for endpoint; "" allowed
	}{
		{name: "project changes the user's api", provider: "mine",
			user:     "provider \"mine\" {\n    api \"openai-compatible\"\n    credential env=\"MY_KEY\"\n}\n",
			project:  "provider \"mine\" {\n    api \"anthropic\"\n}\n",
			wantFrom: "openai-compatible",
			wantError: `the project's provider.mine.api "anthropic" (PROJECT:2:9) changes provider mine's api from "openai-compatible" to "anthropic", so your credential (env MY_KEY) would go to "https://api.anthropic.com/v1/messages", the default endpoint of "anthropic", and a project may not send your credentials to a server of its choosing; ` +
				`if you trust that server, add trusted-base-url "https://api.anthropic.com" to USER; otherwise set provider.mine.base-url in USER or pass --base-url with the endpoint you choose, or remove the api line from the project's file`},
		{name: "project changes a built-in provider's api", provider: "openai", project: "provider \"openai\" {\n    api \"anthropic\"\n}\n",
			wantFrom: "openai", wantError: `changes provider openai's api from "openai" to "anthropic"`},
		{name: "trusted endpoint", provider: "openai", project: "provider \"openai\" {\n    api \"anthropic\"\n}\n",
			user: "trusted-base-url \"https://api.anthropic.com\"\n", wantFrom: "openai"},
		{name: "project keeps the api", provider: "mine", user: "provider \"mine\" {\n    api \"anthropic\"\n}\n",
			project: "provider \"mine\" {\n    api \"anthropic\"\n}\n"},
		{name: "user's own api", provider: "mine", user: "provider \"mine\" {\n    api \"anthropic\"\n}\n"},
		{name: "project's base-url only", provider: "openai", project: "provider \"openai\" {\n    base-url \"https://gw.example\"\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, sub := project(t, tt.project)
			user := writeUser(t, tt.user+"\ntrusted-project \""+root+"\"\n")
			cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			p := cfg.Provider(tt.provider)
			from, changed := p.ProjectAPI()
			if from != tt.wantFrom || changed != (tt.wantFrom != "") {
				t.Fatalf("ProjectAPI() = %q, %v; want %q", from, changed, tt.wantFrom)
			}
			if !changed {
				return
			}
			err = cfg.CredentialAPI(p, from, endpoint, "env MY_KEY")
			got := ""
			if err != nil {
				got = strings.NewReplacer(user, "USER", filepath.Join(root, ProjectFile), "PROJECT").Replace(err.Error())
			}
			if !matchesText(got, tt.wantError) {
				t.Errorf("CredentialAPI: %q\nwant %q", got, tt.wantError)
			}
		})
	}
}

// matchesText reports whether got is "" when want is, else contains it.
func matchesText(got, want string) bool {
	if want == "" {
		return got == ""
	}
	return strings.Contains(got, want)
}

// TestEndpoints: config show's endpoint rows name every base URL
// configuration sets, its source, and whether a credential may go there.
func TestEndpoints(t *testing.T) {
	root, sub := project(t, "provider \"anthropic\" {\n    base-url \"https://project.example/a\"\n}\nprovider \"openai\" {\n    base-url \"https://gateway.example/o\"\n}\n")
	user := writeUser(t, "provider \"local\" {\n    api \"openai-compatible\"\n    base-url \"http://127.0.0.1:8000/v1\"\n}\n"+
		"trusted-base-url \"https://gateway.example/o\"\ntrusted-project \""+root+"\"\n")
	cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv, Flags: map[string]string{"base-url": "https://flag.example"}})
	if err != nil {
		t.Fatal(err)
	}
	pf := filepath.Join(root, ProjectFile)
	got := cfg.Endpoints([]string{"PATH=/bin", "OPENAI_BASE_URL=http://lan.example:8000", "ANTHROPIC_BASE_URL="})
	want := []EndpointEntry{
		{Setting: "provider.anthropic.base-url", URL: "https://project.example/a", Source: pf + ":2:14",
			Credential: `refused: the project chose it; if you trust it, add trusted-base-url "https://project.example/a" to ` + user},
		{Setting: "provider.local.base-url", URL: "http://127.0.0.1:8000/v1", Source: user + ":3:14", Credential: "allowed"},
		{Setting: "provider.openai.base-url", URL: "https://gateway.example/o", Source: pf + ":5:14", Credential: "allowed"},
		{Setting: "--base-url", URL: "https://flag.example", Source: "flag --base-url", Credential: "allowed"},
		{Setting: "OPENAI_BASE_URL", URL: "http://lan.example:8000", Source: "env OPENAI_BASE_URL",
			Credential: "refused: plain http to another machine; use https://"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rows %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}
