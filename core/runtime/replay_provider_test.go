package runtime

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestReplayProviderSession: a session recorded through the real
// Anthropic codec (served on loopback) replays with no key and no
// request: its recorded response body decodes again into the recorded
// message, and the replayed deltas are the ones the live run streamed. A
// tampered body (as a codec that decodes differently would give) is a
// decode divergence naming the exchange.
func TestReplayProviderSession(t *testing.T) {
	srv := newMessagesServer(t, 0)
	w := newWorld(t)
	w.env["ANTHROPIC_API_KEY"] = "sk-test-key"
	w.config("provider \"anthropic\" {\n    base-url \"" + srv.URL + "\"\n}\n")
	rt := w.open(map[string]string{"model": "anthropic/claude-sonnet-4-5"}, nil)
	info, live := record(t, rt, "real", "hi")
	sent := len(srv.requests())
	// The live run says where its first request went; a replay sends
	// nothing, so it has no such line.
	live = slices.DeleteFunc(live, func(ev protocol.Event) bool {
		n, ok := ev.(protocol.Notice)
		return ok && strings.HasPrefix(n.Text, "anthropic: sending to "+srv.URL)
	})

	// A runtime with no credential at all.
	delete(w.env, "ANTHROPIC_API_KEY")
	bare := w.open(nil, nil)
	evs, rep := replayAll(t, bare, "real", ReplayOptions{})
	if !rep.Matched() {
		t.Fatalf("divergences %+v", rep.Divergences)
	}
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok {
			t.Errorf("notice %q", n.Text)
		}
	}
	if got, want := strings.Join(lines(t, evs, false), "\n"), strings.Join(lines(t, live, false), "\n"); got != want {
		t.Errorf("replayed\n%s\nlive\n%s", got, want)
	}
	if n := len(srv.requests()); n != sent {
		t.Errorf("the replay sent %d request(s)", n-sent)
	}

	tampered := filepath.Join(w.home, "tampered.session")
	exchange := tamper(t, info.Path, tampered, "Hello from the loopback.", "Hello from elsewhere.")
	_, rep = replayAll(t, bare, tampered, ReplayOptions{})
	if len(rep.Divergences) != 1 {
		t.Fatalf("divergences %+v; want one", rep.Divergences)
	}
	d := rep.Divergences[0]
	if d.Kind != protocol.DivergeDecode || d.EffectID != exchange || d.Tool != provider.ExchangeKind || d.Turn != 1 ||
		!strings.Contains(d.Recorded, "Hello from the loopback.") || !strings.Contains(d.Observed, "Hello from elsewhere.") {
		t.Errorf("divergence %+v", d)
	}
	if n := len(srv.requests()); n != sent {
		t.Errorf("the replays sent %d request(s)", n-sent)
	}
}

// tamper copies the session file src to dst with old replaced by new in
// the recorded body of its provider exchange, and returns the exchange's
// effect id.
func tamper(t *testing.T, src, dst, old, new string) string {
	t.Helper()
	sess, _, err := sessionfmt.Load(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	exchanges := map[sessionfmt.ID]bool{}
	out := sessionfmt.New()
	id := ""
	for i := range sess.Len() {
		e := sess.Entry(i)
		e.Content = append([]byte(nil), e.Content...)
		switch e.Kind {
		case sessionfmt.KindEffectIntent:
			var in replayIntent
			if sessionfmt.DecodeContent(e.Content, &in) == nil && in.Kind == provider.ExchangeKind {
				exchanges[e.Pair] = true
			}
		case sessionfmt.KindEffectCompletion:
			if exchanges[e.Pair] {
				var c replayCompletion
				must(t, sessionfmt.DecodeContent(e.Content, &c))
				if !strings.Contains(string(c.Output), old) {
					t.Fatalf("the recorded body has no %q", old)
				}
				c.Output = []byte(strings.ReplaceAll(string(c.Output), old, new))
				e.Content, err = sessionfmt.EncodeContent(c)
				must(t, err)
				id = e.Pair.String()
			}
		}
		must(t, out.Add(e))
	}
	must(t, out.Publish(dst, nil))
	if id == "" {
		t.Fatal("the session recorded no provider exchange")
	}
	return id
}
