package runtime

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// without returns arts less the plugin named name.
func without(arts []plugin.Artifact, name string) []plugin.Artifact {
	return slices.DeleteFunc(slices.Clone(arts), func(a plugin.Artifact) bool { return a.Name == name })
}

func commandNames(t *testing.T, rt *Runtime) []string {
	t.Helper()
	cmds, err := rt.Commands(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cmds {
		out = append(out, c.Name)
	}
	return out
}

// retired reports how many replaced generations are still open.
func retired(rt *Runtime) int {
	rt.plugins.mu.Lock()
	defer rt.plugins.mu.Unlock()
	return len(rt.plugins.retired)
}

// waitRetired waits until no replaced generation is open: a background
// compile still holds one for as long as it runs (a cold cache compiles
// for seconds).
func waitRetired(t *testing.T, rt *Runtime) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for retired(rt) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d replaced generations still open after a minute", retired(rt))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestReloadIdle: a reload publishes what discovery finds now as one
// generation; an idle session binds it at its next run, keeping its
// history, and the replaced generation is closed.
func TestReloadIdle(t *testing.T) {
	w := newWorld(t)
	w.write("r.mock.json", mockScript(`{"text":"one"}`, `{"text":"two"}`))
	arts := systemPlugins(t)
	found := arts
	rt := w.open(map[string]string{"model": "mock/r.mock.json"}, func(c *Config) {
		c.Discover = func(context.Context) ([]plugin.Artifact, []string, error) {
			return found, []string{"skipped the plugin x: it is disabled"}, nil
		}
	})
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "r"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "first")
	if got := commandNames(t, rt); !slices.Contains(got, "init") || got[0] != "reload" {
		t.Fatalf("commands before: %v", got)
	}
	before, _ := rt.Generation(context.Background())
	found = without(arts, "product")
	res, err := rt.Reload(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	after, _ := rt.Generation(context.Background())
	if res.Previous != before.ID() || res.Generation != after.ID() || after == before || res.Deferred != 0 ||
		slices.Contains(res.Plugins, "product") || len(res.Notes) != 1 {
		t.Fatalf("result %+v (generations %d → %d)", res, before.ID(), after.ID())
	}
	if got := commandNames(t, rt); slices.Contains(got, "init") {
		t.Fatalf("commands after: %v", got)
	}
	waitRetired(t, rt)
	evs := runPrompt(t, s, "second")
	if end := evs[len(evs)-2]; protocol.EventType(end) != "agent_end" {
		t.Fatalf("second run: %v", types(evs))
	}
	s.mu.Lock()
	gen := s.bindingGen
	s.mu.Unlock()
	if gen != after {
		t.Fatal("the session's next run did not bind the new generation")
	}
	if info := s.Info(); info.Entries < 4 {
		t.Fatalf("the session lost history: %+v", info)
	}
}

// TestReloadDuringRun: a run in progress finishes on the generation it
// started on, which stays open until it settles; the reload through a
// handler's action and through /reload both publish.
func TestReloadDuringRun(t *testing.T) {
	w := newWorld(t)
	w.write("h.mock.json", mockScript(`{"text":"slow and steady","hang_after":2}`, `{"text":"after"}`))
	rt := w.open(map[string]string{"model": "mock/h.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "h"})
	if err != nil {
		t.Fatal(err)
	}
	sub := s.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Submit(ctx, promptText("go")); err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := sub.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if protocol.EventType(ev) == "message_update" {
			break
		}
	}
	old, _ := rt.Generation(ctx)
	// A handler's reload-plugins action, applied by the runtime.
	if _, err := (publisher{s}).Publish(ctx, []agent.Action{{Kind: agent.ActionReload, Plugin: "p"}}); err != nil {
		t.Fatal(err)
	}
	cur, _ := rt.Generation(ctx)
	if cur == old || retired(rt) != 1 {
		t.Fatalf("during the run: generation changed %v, %d retired", cur != old, retired(rt))
	}
	s.mu.Lock()
	pinned, stale := s.bindingGen, s.stale
	s.mu.Unlock()
	if pinned != old || !stale {
		t.Fatal("the running session is not pinned to its generation")
	}
	s.Abort()
	untilSettled(t, ctx, sub)
	if _, err := s.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	waitRetired(t, rt)
	res, err := s.RunCommand(ctx, protocol.RunCommandParams{Name: "reload"})
	if err != nil {
		t.Fatal(err)
	}
	if text := model.TextOf(res.Content); !strings.Contains(text, "reloaded the plugins as generation") {
		t.Fatalf("/reload said %q", text)
	}
	// The session binds the published generation at its next use (the
	// mock model, bound again, would replay its script from the start).
	if _, err := s.RunCommand(ctx, protocol.RunCommandParams{Name: "init"}); err != nil {
		t.Fatal(err)
	}
	cur, _ = rt.Generation(ctx)
	s.mu.Lock()
	gen := s.bindingGen
	s.mu.Unlock()
	if gen != cur || cur == old {
		t.Fatal("after /reload the session is not bound to the current generation")
	}
	waitRetired(t, rt)
}

// TestReloadRefused: a set that does not validate is not published; the
// previous generation stays in use and the error says so.
func TestReloadRefused(t *testing.T) {
	w := newWorld(t)
	arts := systemPlugins(t)
	rt := w.open(map[string]string{"model": "mock"}, func(c *Config) {
		c.Discover = func(context.Context) ([]plugin.Artifact, []string, error) {
			return append(slices.Clone(arts), arts[0]), nil, nil
		}
	})
	before, _ := rt.Generation(context.Background())
	_, err := rt.Reload(context.Background())
	if err == nil || !strings.Contains(err.Error(), "appears twice") || !strings.Contains(err.Error(), "the plugins loaded before stay in use") {
		t.Fatalf("err %v", err)
	}
	if after, _ := rt.Generation(context.Background()); after != before {
		t.Fatal("a refused set replaced the generation")
	}
}
