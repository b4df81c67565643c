package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestEndpointRefusedBeforePrompt: where only the codec knows the URL (a
// *_BASE_URL variable is set that it may read), the runtime asks it for
// the URL when the model is bound, so a credential the policy refuses
// stops the session before a prompt is recorded, with the message naming
// the project's line and the fix: no half turn (a prompt whose answer is
// the refusal) is left in the session, on a new session or on resuming one
// whose earlier turns were answered, and the server sees nothing.
func TestEndpointRefusedBeforePrompt(t *testing.T) {
	tests := []struct {
		name    string
		project string // the project's provider block, %s the server's URL
		env     string // a *_BASE_URL variable, NAME=VALUE
		want    string // the refusal
	}{
		{name: "project base-url, another codec's variable", project: "provider \"anthropic\" {\n    base-url \"%s\"\n}\n",
			env: "OPENAI_BASE_URL=https://elsewhere.example", want: `the project's provider.anthropic.base-url "%s" (PROJECT:2:14) would receive your credential (config USER:3:5 (env ANTHROPIC_API_KEY))`},
		{name: "project api, another codec's variable", project: "provider \"anthropic\" {\n    api \"openai\"\n}\n",
			env: "ANTHROPIC_BASE_URL=https://elsewhere.example", want: `the project's provider.anthropic.api "openai" (PROJECT:2:9) changes provider anthropic's api from "anthropic" to "openai", so your credential (config USER:3:5 (env ANTHROPIC_API_KEY)) would go to "https://api.openai.com/v1/responses"`},
		{name: "plain http variable", project: "", env: "ANTHROPIC_BASE_URL=http://example.invalid",
			want: `ANTHROPIC_BASE_URL "http://example.invalid" (env ANTHROPIC_BASE_URL) is plain http to another machine`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newMessagesServer(t, 0)
			w := newWorld(t)
			w.env["ANTHROPIC_API_KEY"] = "sk-test-key-REFUSAL"
			project := w.write(".smith/smith.kdl", strings.ReplaceAll(tt.project, "%s", srv.URL))
			want := strings.NewReplacer("%s", srv.URL, "PROJECT", project, "USER", filepath.Join(w.home, "smith.kdl")).Replace(tt.want)
			user := "trusted-project \"" + w.project + "\"\n"
			// The user's own credential, which the codec of any api sends.
			cred := "    credential env=\"ANTHROPIC_API_KEY\"\n"
			flags := map[string]string{"model": "anthropic/claude-sonnet-4-5"}

			// An answered turn first: the user's own base-url decides.
			w.config(user + "provider \"anthropic\" {\n" + cred + "    base-url \"" + srv.URL + "\"\n}\n")
			if tt.project != "" {
				w.write(".smith/smith.kdl", "")
			}
			rt := w.open(flags, nil)
			s, err := rt.NewSession(t.Context(), NewSessionOptions{Name: "refused"})
			if err != nil {
				t.Fatal(err)
			}
			runPrompt(t, s, "first")
			if err := s.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := rt.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			served := len(srv.requests())

			w.config(user + "provider \"anthropic\" {\n" + cred + "}\n")
			w.write(".smith/smith.kdl", strings.ReplaceAll(tt.project, "%s", srv.URL))
			k, v, _ := strings.Cut(tt.env, "=")
			t.Setenv(k, v)
			rt = w.open(flags, nil)
			fresh, err := rt.NewSession(t.Context(), NewSessionOptions{Name: "new"})
			if err != nil {
				t.Fatal(err)
			}
			if err := fresh.Submit(t.Context(), promptText("hi")); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("a new session's prompt: %v\nwant the refusal %q", err, want)
			}
			if h, err := fresh.History(); err != nil || len(h) != 0 {
				t.Errorf("the new session holds %d message(s) after the refusal (%v); want none", len(h), err)
			}
			if err := fresh.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			s, err = rt.OpenSession(t.Context(), "refused")
			if err == nil {
				err = s.Submit(t.Context(), promptText("second"))
				if err == nil {
					runPrompt(t, s, "third")
				}
				h, herr := s.History()
				if herr != nil {
					t.Fatal(herr)
				}
				if len(h) != 2 || model.TextOf(h[0].(model.UserMessage).Content) != "first" {
					t.Errorf("the session holds %d messages after the refusal, want the first turn's 2: %+v", len(h), h)
				}
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("resume: %v\nwant the refusal %q", err, want)
			}
			if n := len(srv.requests()); n != served {
				t.Errorf("the server saw %d more request(s)", n-served)
			}
			files, _ := filepath.Glob(filepath.Join(w.home, "sessions", "*new*"))
			for _, f := range files {
				if st, err := os.Stat(f); err == nil && st.Size() > 0 {
					t.Errorf("the refused new session left %s", f)
				}
			}
		})
	}
}
