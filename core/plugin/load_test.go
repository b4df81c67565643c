package plugin

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
)

// TestLoadRefuses: nothing is published when an artifact or the
// contribution set is wrong, and the error says which and why.
func TestLoadRefuses(t *testing.T) {
	h, err := Open(context.Background(), Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	unpinned := artifact(t, "tools")
	unpinned.SHA256 = ""
	tests := []struct {
		name string
		arts []Artifact
		want []string
	}{
		{name: "duplicate-tool-across-plugins", arts: []Artifact{artifact(t, "tools"), artifact(t, "more-tools")},
			want: []string{`tool "read" is declared by both "tools" and "more-tools"`}},
		{name: "duplicate-plugin-name", arts: []Artifact{artifact(t, "tools"), artifact(t, "tools")},
			want: []string{`plugin name "tools" appears twice`}},
		{name: "unpinned", arts: []Artifact{unpinned}, want: []string{`artifact "tools" has no pinned SHA256`}},
		{name: "ungranted-capability", arts: []Artifact{artifact(t, "tools", "fs")},
			want: []string{`import "smith:plugin/process@0.0.0" "run-process"`, "not granted"}},
		{name: "unserved-capability", arts: []Artifact{artifact(t, "tools", "fs", "process", "clipboard")},
			want: []string{`capability "clipboard" granted to "tools" is not served by this host (served: compose, fs, http, log, process, secrets, state, ui, vcs)`}},
		{name: "unnamed", arts: []Artifact{{Wasm: []byte{0}}}, want: []string{"an artifact has no Name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := h.Load(context.Background(), tt.arts)
			if err == nil {
				g.Close()
				t.Fatal("Load succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestTamperedNeverRuns: bytes that do not match their pin are refused
// before any of them runs: at Load when the registration must be computed,
// and at the first compile when a registration cached under the pin lets
// Load publish the declared data alone.
func TestTamperedNeverRuns(t *testing.T) {
	ctx := context.Background()
	tampered := artifact(t, "tools")
	tampered.Wasm = append([]byte(nil), tampered.Wasm...)
	tampered.Wasm[len(tampered.Wasm)/2] ^= 0x20
	want := []string{`artifact "tools" has SHA-256`, "not the pinned " + tampered.SHA256}
	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s succeeded with a tampered artifact", what)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", what, err, w)
			}
		}
	}
	cold, err := Open(ctx, Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer cold.Close(ctx)
	_, err = cold.Load(ctx, []Artifact{tampered})
	check("a load with no cached registration", err)

	dir := t.TempDir()
	warm, err := Open(ctx, Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	g, err := warm.Load(ctx, []Artifact{artifact(t, "tools")}) // caches the registration
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	_ = warm.Close(ctx)
	warm, err = Open(ctx, Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer warm.Close(ctx)
	g, err = warm.Load(ctx, []Artifact{tampered})
	if err != nil {
		t.Fatalf("a warm load publishes the cached declarations: %v", err)
	}
	defer g.Close()
	check("Prepare", g.Prepare(ctx))
	b := newBench(t, g, Effects{})
	_, err = b.tools["ls"].Execute(ctx, &agent.Call{ID: "c", Name: "ls", Arguments: []byte(`{}`), Cwd: b.root})
	check("a tool call", err)
}

// TestRegistrationCache: a second process (Host) with the same cache
// directory publishes the tools without compiling anything; Prepare
// compiles and instantiates ahead of the first call.
func TestRegistrationCache(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	var defs [2]string
	for i := range 2 {
		h, err := Open(ctx, Config{CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		g, err := h.Load(ctx, []Artifact{artifact(t, "tools")})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(g.Tools())
		defs[i] = string(b)
		compiled := g.plugins[0].pool != nil
		if compiled != (i == 0) {
			t.Errorf("load %d: compiled = %v; want a compile only on the first (cold) load", i+1, compiled)
		}
		if i == 1 {
			if err := g.Prepare(ctx); err != nil {
				t.Fatal(err)
			}
			if g.plugins[0].pool == nil || g.plugins[0].pool.Idle("tools") != 1 {
				t.Error("Prepare left no compiled plugin with an idle instance")
			}
			w := newBench(t, g, Effects{})
			w.write(t, "f.txt", "cached\n")
			if res, out, err := w.call(ctx, t, "read", `{"path":"f.txt"}`); err != nil || res.IsError || out != "cached\n" {
				t.Errorf("read after a cached registration = %q, %v", out, err)
			}
		}
		g.Close()
		h.Close(ctx)
	}
	if defs[0] != defs[1] {
		t.Errorf("cached tools differ:\n%s\n%s", defs[0], defs[1])
	}
	var names []struct{ Name string }
	if err := json.Unmarshal([]byte(defs[0]), &names); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range names {
		got = append(got, n.Name)
	}
	if !slices.Equal(got, []string{"read", "write", "edit", "bash", "find", "grep", "ls"}) {
		t.Errorf("tools = %v", got)
	}
}

// TestCallDuringPrepare: a call that starts while Prepare is warming the
// plugin takes the prepared instance instead of instantiating a second
// one, and a cancelled call stops waiting.
func TestCallDuringPrepare(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var g *Generation
	for range 2 { // the second load uses the cached registration: nothing compiled yet
		h, err := Open(ctx, Config{CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close(ctx)
		if g, err = h.Load(ctx, []Artifact{artifact(t, "tools")}); err != nil {
			t.Fatal(err)
		}
		defer g.Close()
	}
	l := g.plugins[0]
	// Hold the plugin "warming" until the calls below are waiting.
	w := make(chan struct{})
	l.mu.Lock()
	l.warming = w
	l.mu.Unlock()

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	b := newBench(t, g, Effects{})
	b.write(t, "f.txt", "prepared\n")
	if _, _, err := b.call(cctx, t, "read", `{"path":"f.txt"}`); err == nil || !strings.Contains(err.Error(), `wait for "tools" to be prepared`) {
		t.Errorf("cancelled call while warming = %v; want it to stop waiting", err)
	}
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		_, out, err := b.call(ctx, t, "read", `{"path":"f.txt"}`)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("the call ran while the plugin was warming: %q, %v", r.out, r.err)
	case <-time.After(50 * time.Millisecond):
	}
	l.mu.Lock()
	compiled := l.pool != nil
	l.mu.Unlock()
	if compiled {
		t.Fatal("a call compiled and instantiated the plugin while Prepare was warming it")
	}
	// Warm as Prepare does, then let the waiting call go.
	if err := l.warm(ctx); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.warming = nil
	l.mu.Unlock()
	close(w)
	if r := <-done; r.err != nil || r.out != "prepared\n" {
		t.Fatalf("read after warming = %q, %v", r.out, r.err)
	}
	if n := l.pool.Idle("tools"); n != 1 {
		t.Errorf("idle instances after a call during Prepare = %d; want 1 (no second instance)", n)
	}
	// Prepare again finds the idle instance and makes no other.
	if err := g.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if n := l.pool.Idle("tools"); n != 1 {
		t.Errorf("idle instances after a second Prepare = %d; want 1", n)
	}
}

// TestEffectsAttributed: every effect of a call is journaled with the call
// as its causal parent and the generation that made it.
func TestEffectsAttributed(t *testing.T) {
	g := shared(t)
	w := newBench(t, g, Effects{})
	w.write(t, "a.txt", "x\n")
	if _, out, err := w.call(context.Background(), t, "edit", `{"path":"a.txt","old_text":"x","new_text":"y"}`); err != nil {
		t.Fatal(err, out)
	}
	recs, _ := w.store.Records(context.Background())
	in, ok := recs[0].(effect.Intent)
	if len(recs) != 2 || !ok {
		t.Fatalf("records = %+v", recs)
	}
	if !strings.HasPrefix(in.Parent, "call_") || in.Generation != g.ID() || in.Kind != "fs.edit" {
		t.Errorf("intent = %+v; want kind fs.edit, parent the call id, generation %d", in, g.ID())
	}
	if c := recs[1].(effect.Completion); c.ID != in.ID || c.Mutation != "applied" {
		t.Errorf("completion = %+v", c)
	}
}
