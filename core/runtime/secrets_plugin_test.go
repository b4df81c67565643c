package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// TestPluginStoresSecret: a plugin granted secrets stores a token in
// Smith's auth file; from then on it is registered (listed with the
// plugin as its source) and redacted from what the model reads, such as
// a later command's output; check-secret finds it.
func TestPluginStoresSecret(t *testing.T) {
	w := newWorld(t)
	const token = "tok-5f3a9c1e7b2d"
	w.write("v.mock.json", mockScript(
		`{"tool_calls":[{"id":"c1","name":"vault","arguments":{"name":"toy-token","value":"`+token+`","check":"toy-token"}}]}`,
		`{"tool_calls":[{"id":"c2","name":"bash","arguments":{"command":"echo `+token+`"}}]}`,
		mockText("done", 10, 1, 1)))
	vault := testGuest(t, "vaultguest", "vault")
	vault.Grants, vault.Stores = []string{"secrets"}, []string{"toy-token"}
	rt := w.open(map[string]string{"model": "mock/v.mock.json"}, func(c *Config) { c.Plugins = append(c.Plugins, vault) })
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "v"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "log in")
	if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	var results []string
	for _, ev := range evs {
		if e, ok := ev.(protocol.ToolExecutionEnd); ok {
			results = append(results, model.TextOf(e.Result.Content))
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], `"stored":true`) || !strings.Contains(results[0], `"has":true`) {
		t.Fatalf("results %q", results)
	}
	if strings.Contains(results[1], token) || !strings.Contains(results[1], "${secret:toy-token}") {
		t.Fatalf("the command's output is not redacted: %q", results[1])
	}
	all, err := rt.AuthFile().Secrets()
	if err != nil || all["toy-token"].Reveal() != token {
		t.Fatalf("the auth file holds %v, %v", all, err)
	}
	regs, err := rt.Secrets(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range regs {
		found = found || r.Name == "toy-token" && r.Source == "plugin vault"
	}
	if !found {
		t.Fatalf("registered: %+v", regs)
	}
	// The store and the check are effects of the call, naming the secret,
	// never holding its value.
	done, err := s.journal.Completed(context.Background(), "secret.store", "secret.check")
	if err != nil || len(done) != 2 {
		t.Fatalf("secret effects = %+v, %v", done, err)
	}
	for _, d := range done {
		if d.Intent.Parent != "c1" || !strings.Contains(string(d.Intent.Input), `"name":"toy-token"`) ||
			strings.Contains(string(d.Intent.Input)+string(d.Completion.Output), token) {
			t.Errorf("effect %s: parent %s, input %s, output %s", d.Intent.Kind, d.Intent.Parent, d.Intent.Input, d.Completion.Output)
		}
	}
}
