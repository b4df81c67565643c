package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/wasmhost"
)

// sysDir holds the committed system plugin artifacts (built by
// tools/pluginbuild, embedded by the smith binary).
const sysDir = "../../smith/internal/sysplugins"

// systemPlugins returns the committed system plugins as artifacts, with
// the grants the binary gives them.
func systemPlugins(tb testing.TB) []plugin.Artifact {
	tb.Helper()
	grants := map[string][]string{"tools": {"fs", "process"}, "product": {"fs"}, "permissions": {"ui"}}
	var arts []plugin.Artifact
	files, err := filepath.Glob(filepath.Join(sysDir, "*.wasm"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no committed system plugins in %s (%v); run go run ./tools/pluginbuild", sysDir, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".wasm")
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatalf("read the committed %s plugin: %v", name, err)
		}
		sum := sha256.Sum256(b)
		arts = append(arts, plugin.Artifact{Name: name, Wasm: b, SHA256: hex.EncodeToString(sum[:]), Grants: grants[name],
			Timeout: time.Hour, Instrumented: wasmhost.InstrumentationVersion()})
	}
	return arts
}

// cache is one compile cache for the package's tests, so each plugin is
// compiled once.
var cache = filepath.Join(os.TempDir(), "smith-runtime-test-cache")

// world is a temporary setup: a project directory, a Smith home and an
// environment with nothing of the real user's in it.
type world struct {
	t       *testing.T
	project string
	home    string
	env     map[string]string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	w := &world{t: t, project: filepath.Join(root, "project"), home: filepath.Join(root, "home"),
		env: map[string]string{"HOME": filepath.Join(root, "user"), "XDG_CACHE_HOME": cache}}
	for _, d := range []string{w.project, w.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *world) write(rel, text string) string {
	w.t.Helper()
	p := filepath.Join(w.project, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return p
}

func (w *world) config(text string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.home, "smith.kdl"), []byte(text), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// open opens a runtime over the world with the given flags.
func (w *world) open(flags map[string]string, mod func(*Config)) *Runtime {
	w.t.Helper()
	cfg := Config{Cwd: w.project, Home: w.home, Flags: flags, Plugins: systemPlugins(w.t), Version: "test",
		LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok },
		Now:       func() time.Time { return time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC) }}
	if mod != nil {
		mod(&cfg)
	}
	rt, err := Open(context.Background(), cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { _ = rt.Close(context.Background()) })
	return rt
}

// runPrompt submits text to s and returns the events up to the run's
// settled event.
func runPrompt(t *testing.T, s *Session, text string) []protocol.Event {
	t.Helper()
	sub := s.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Submit(ctx, protocol.PromptParams{Text: text}); err != nil {
		t.Fatal(err)
	}
	return untilSettled(t, ctx, sub)
}

func untilSettled(t *testing.T, ctx context.Context, sub *Subscription) []protocol.Event {
	t.Helper()
	var evs []protocol.Event
	for {
		ev, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("after %d events: %v", len(evs), err)
		}
		evs = append(evs, ev)
		if _, ok := ev.(protocol.Settled); ok {
			return evs
		}
	}
}

func types(evs []protocol.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = protocol.EventType(ev)
	}
	return out
}

func promptText(s string) protocol.PromptParams { return protocol.PromptParams{Text: s} }
