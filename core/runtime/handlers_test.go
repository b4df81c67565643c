package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// guardPlugin builds core/plugin's handler test guest (see its
// testdata/handlerguest) as the artifact "guard".
func guardPlugin(t *testing.T) plugin.Artifact {
	a := testGuest(t, "handlerguest", "guard")
	a.Grants = []string{"ui"}
	return a
}

// testGuest builds core/plugin's test guest testdata/dir as the artifact
// name, granted nothing.
func testGuest(t *testing.T, dir, name string) plugin.Artifact {
	t.Helper()
	out := filepath.Join(t.TempDir(), name+".wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = filepath.Join("..", "plugin", "testdata", dir)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the test guest %s: %v\n%s", dir, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return plugin.Artifact{Name: name, Wasm: b, SHA256: hex.EncodeToString(sum[:])}
}

// TestSessionRunsPluginHandlers: a session's runs deliver their events to
// a plugin's handlers: the input it queues at turn_end is recorded and
// sent as the next turn (its continuation coalesced with it), its
// continuation at settlement is diagnosed, and a model it selects that
// cannot be bound is refused with a notice naming the plugin and the
// model while the run goes on with the session's own.
func TestSessionRunsPluginHandlers(t *testing.T) {
	w := newWorld(t)
	w.write("h.mock.json", mockScript(mockText("please continue", 10, 1, 1), mockText("switch model", 10, 1, 1), mockText("done", 10, 1, 1)))
	guard := guardPlugin(t)
	rt := w.open(map[string]string{"model": "mock/h.mock.json"}, func(c *Config) { c.Plugins = append(c.Plugins, guard) })
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "h"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "hi")
	if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	reqs := mockOf(t, s).Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the prompt's and the queued input's", len(reqs))
	}
	if got := requestText(reqs[1]); !strings.HasSuffix(got, "user:go") {
		t.Fatalf("the second request carries %s", got)
	}
	h, _ := s.History()
	if len(h) != 4 {
		t.Fatalf("the session holds %d messages, want 4 (the queued input recorded)", len(h))
	}
	var notes []string
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok {
			notes = append(notes, n.Text)
		}
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "plugin guard selected model mock/other, which cannot be used") ||
		!strings.Contains(notes[1], "plugin guard asked to continue a run that has ended") {
		t.Fatalf("notices %q", notes)
	}
}

// TestHandlersSeeEventsBetweenRuns: a model change made between runs
// reaches a plugin's handler, and the follow-up it queues waits for the
// session's next run, announced to the frontends by a queue_update.
func TestHandlersSeeEventsBetweenRuns(t *testing.T) {
	w := newWorld(t)
	w.write("h.mock.json", mockScript(mockText("one", 10, 1, 1)))
	w.write("announce.mock.json", mockScript(mockText("two", 10, 1, 1), mockText("three", 10, 1, 1)))
	guard := guardPlugin(t)
	rt := w.open(map[string]string{"model": "mock/h.mock.json"}, func(c *Config) { c.Plugins = append(c.Plugins, guard) })
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "between"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "hi")
	sub := s.Subscribe()
	defer sub.Close()
	if err := s.SetModel(context.Background(), protocol.SetModelParams{Model: "mock/announce.mock.json"}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if q := s.Queue(); len(q.FollowUp) == 1 && strings.Contains(model.TextOf(q.FollowUp[0].Content), "handlerguest saw the model change") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the handler's follow-up never queued: %+v", s.Queue())
		}
	}
	// The frontends see the change, then the queue it caused.
	var got []string
	for ev := range sub.Events() {
		got = append(got, protocol.EventType(ev))
		if q, ok := ev.(protocol.QueueUpdate); ok && len(q.FollowUp) == 1 {
			break
		}
	}
	if strings.Join(got, " ") != "model_change queue_update" {
		t.Fatalf("events after the model change: %v", got)
	}
}

// TestHandlersSeeReload: a reload binds an idle session to the new
// generation, whose handler sees plugins_reloaded first; the frontends
// get the event with the generations and the plugins.
func TestHandlersSeeReload(t *testing.T) {
	w := newWorld(t)
	w.write("h.mock.json", mockScript(mockText("one", 10, 1, 1)))
	guard := guardPlugin(t)
	rt := w.open(map[string]string{"model": "mock/h.mock.json"}, func(c *Config) { c.Plugins = append(c.Plugins, guard) })
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "reload"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "hi")
	sub := s.Subscribe()
	defer sub.Close()
	res, err := rt.Reload(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for ev := range sub.Events() {
		if r, ok := ev.(protocol.PluginsReloaded); ok {
			if r.Generation != res.Generation || r.Previous != res.Previous || !slices.Contains(r.Plugins, "guard") {
				t.Fatalf("plugins_reloaded %+v; reload %+v", r, res)
			}
			break
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if q := s.Queue(); len(q.FollowUp) == 1 && strings.Contains(model.TextOf(q.FollowUp[0].Content), "handlerguest saw the reload") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new generation's handler never saw the reload: %+v", s.Queue())
		}
	}
}
