package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/smith-agent/smith/core/internal/jsonschema"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/wasmhost"
)

// Generation is a published, validated set of plugins and their
// contributions. Calls pin the generation they started on. It is safe for
// concurrent use; Close releases its instances and compiled plugins.
type Generation struct {
	id        uint64
	host      *Host
	plugins   []*loaded
	tools     []*toolDef
	providers []ProviderDefinition
	models    []ModelDefinition
	// disabled are the plugins whose event handler failed (handlers.go).
	disabled disabledHandlers
}

// loaded is one plugin of a generation, compiled on first use.
type loaded struct {
	host    *Host
	art     Artifact
	contrib pluginabi.Contributions
	mu      sync.Mutex
	plugin  *wasmhost.Plugin
	pool    *wasmhost.Generation
	closed  bool
	// verified is set once the bytes matched the pin (see verify).
	verified bool
	// used is set at the first call that is not a registration, which
	// starts the optimizing compile a passive compile left unstarted.
	used bool
	// warming is closed when the Prepare in flight (if any) has compiled
	// the plugin and parked an idle instance; calls wait for it rather
	// than instantiate a second instance alongside (each Go instance
	// costs milliseconds and megabytes).
	warming chan struct{}
}

// toolDef is a contributed tool with its compiled schema.
type toolDef struct {
	plugin *loaded
	def    model.ToolDefinition
	schema *jsonschema.Schema
}

// Load verifies, registers and validates arts and publishes them as a new
// generation. Registration uses the artifact's own (Artifact.Registration)
// or the cached result for the same artifact bytes, grants and world
// version; otherwise the plugin is compiled and its
// declare-contributions export called, the plugins missing from the cache
// side by side, one per core. On any error nothing is published (the
// first artifact's error in load order is returned).
func (h *Host) Load(ctx context.Context, arts []Artifact) (*Generation, error) {
	g := &Generation{id: h.nextGen.Add(1), host: h}
	seen := make(map[string]bool, len(arts))
	for _, a := range arts {
		if err := checkArtifact(a, seen); err != nil {
			g.Close()
			return nil, err
		}
		g.plugins = append(g.plugins, &loaded{host: h, art: a})
	}
	errs := make([]error, len(g.plugins))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, l := range g.plugins {
		key := registrationKey(l.art)
		if c, ok := registrationAhead(l.art, key); ok {
			l.contrib = c
			continue
		}
		if c, ok := h.cachedRegistration(key); ok {
			l.contrib = c
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			l.contrib, errs[i] = l.register(ctx, key)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			g.Close()
			return nil, err
		}
	}
	if err := g.validate(); err != nil {
		g.Close()
		return nil, err
	}
	if err := g.validateProviders(); err != nil {
		g.Close()
		return nil, err
	}
	return g, nil
}

// checkArtifact checks an artifact's name and that it has a pin; its bytes
// are verified against the pin before anything in them runs (verify).
func checkArtifact(a Artifact, seen map[string]bool) error {
	switch {
	case a.Name == "":
		return errors.New("plugin: an artifact has no Name; name every plugin")
	case seen[a.Name]:
		return fmt.Errorf("plugin: plugin name %q appears twice in one load; names must be unique", a.Name)
	case a.SHA256 == "":
		return fmt.Errorf("plugin: artifact %q has no pinned SHA256; pin the hex SHA-256 of its bytes", a.Name)
	}
	seen[a.Name] = true
	return nil
}

// verify checks the artifact's bytes against its pin, once: before its
// registration is computed and before it is compiled, so an artifact that
// does not match never executes. A cached registration is keyed by the pin
// and holds only declared data, so a warm start verifies each plugin when
// it is first compiled, not at load. Called with l.mu held or before l is
// shared.
func (l *loaded) verify() error {
	if l.verified {
		return nil
	}
	a := l.art
	sum := sha256.Sum256(a.Wasm)
	if got := hex.EncodeToString(sum[:]); got != a.SHA256 {
		return fmt.Errorf("plugin: artifact %q has SHA-256 %s, not the pinned %s; the artifact was modified or the pin is stale (rebuild with go run ./tools/pluginbuild)", a.Name, got, a.SHA256)
	}
	l.verified = true
	return nil
}

// register returns the plugin's contributions by calling
// declare-contributions, and caches them under key, its registrationKey
// (Load looked in the cache). Safe to call for different plugins
// concurrently.
func (l *loaded) register(ctx context.Context, key string) (pluginabi.Contributions, error) {
	// Passive: a plugin this process never calls (a codec of another
	// wire format) costs no optimizing compile; the first call starts it.
	pool, err := l.compiled(ctx, true)
	if err != nil {
		return pluginabi.Contributions{}, err
	}
	in, err := pool.Acquire(ctx, l.art.Name)
	if err != nil {
		return pluginabi.Contributions{}, fmt.Errorf("plugin: instantiate %q for registration: %w", l.art.Name, err)
	}
	c, err := pluginabi.Bind(in).DeclareContributions(ctx, pluginabi.DeclareOptions{WorldVersion: WorldVersion, Configuration: l.configuration()})
	in.Release()
	if err != nil {
		return pluginabi.Contributions{}, fmt.Errorf("plugin: %q refused registration: %w", l.art.Name, err)
	}
	l.host.cacheRegistration(key, c)
	return c, nil
}

// instances compiles the plugin on first use and returns its pool; on a
// compile-cache miss the optimizing compile runs in the background.
func (l *loaded) instances(ctx context.Context) (*wasmhost.Generation, error) {
	return l.compiled(ctx, false)
}

// compiled is instances; passive (registration) leaves a cache miss's
// optimizing compile to the first call that is not.
func (l *loaded) compiled(ctx context.Context, passive bool) (*wasmhost.Generation, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("plugin: %q belongs to a closed generation; load a new one", l.art.Name)
	}
	if l.pool != nil {
		if !passive && !l.used {
			l.used = true
			l.plugin.Optimize()
		}
		return l.pool, nil
	}
	if err := l.verify(); err != nil {
		return nil, err
	}
	hosts, err := l.host.hostsFor(l.art)
	if err != nil {
		return nil, err
	}
	// verify checked the pin above, so wasmhost need not hash the bytes
	// again (sysplugins checks only the size).
	p, err := l.host.engine.Compile(ctx, wasmhost.Artifact{Name: l.art.Name, Bytes: l.art.Wasm,
		Size: int64(len(l.art.Wasm)), SHA256: l.art.SHA256, Verified: true, Instrumented: l.art.Instrumented},
		wasmhost.PluginConfig{World: pluginabi.WorldSpec(), Hosts: hosts, Log: l.host.log,
			Budgets: wasmhost.Budgets{Timeout: l.art.Timeout, Fuel: l.art.Fuel, MemoryPages: l.art.MemoryPages}, Passive: passive})
	if err != nil {
		return nil, fmt.Errorf("plugin: load %q: %w", l.art.Name, budgetFix(l.art.Name, err))
	}
	pool, err := wasmhost.NewGeneration(p)
	if err != nil {
		_ = p.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("plugin: load %q: %w", l.art.Name, err)
	}
	l.plugin, l.pool, l.used = p, pool, !passive
	return pool, nil
}

// hostsFor serves the capabilities granted to a.
func (h *Host) hostsFor(a Artifact) ([]wasmhost.HostModule, error) {
	var hs pluginabi.Hosts
	for _, g := range a.Grants {
		switch g {
		case "fs":
			hs.Fs = &h.dispatch
		case "process":
			hs.Process = &h.dispatch
		case "log":
			hs.Log = newLogHost(h, a)
		case "ui":
			hs.UI = &uiHost{name: a.Name, h: h, log: newLogHost(h, a)}
		case "vcs":
			hs.VCS = &vcsHost{name: a.Name}
		case "state":
			hs.State = &stateHost{name: a.Name}
		case "compose":
			hs.Compose = &composeHost{name: a.Name, grants: slices.Clone(a.Grants)}
		case "secrets":
			hs.Secrets = &secretsHost{plugin: a.Name, store: h.secrets, names: slices.Clone(a.Stores)}
		case "http":
			n, err := newNetHost(h, a)
			if err != nil {
				return nil, err
			}
			hs.HTTP = n
		default:
			return nil, fmt.Errorf("plugin: capability %q granted to %q is not served by this host (served: %s); remove the grant", g, a.Name, strings.Join(pluginabi.Capabilities, ", "))
		}
	}
	mods, err := pluginabi.HostModules(hs, a.Grants...)
	if err != nil {
		return nil, fmt.Errorf("plugin: host modules for %q: %w", a.Name, err)
	}
	return mods, nil
}

// Tools returns the definitions of the generation's tools, in load and
// declaration order.
func (g *Generation) Tools() []model.ToolDefinition {
	out := make([]model.ToolDefinition, len(g.tools))
	for i, t := range g.tools {
		out[i] = t.def
	}
	return out
}

// ID is the generation's number, unique within its Host and recorded with
// every effect its plugins make.
func (g *Generation) ID() uint64 { return g.id }

// Close releases the generation's instances and compiled plugins; call it
// once the calls on the generation have returned (a call still running
// fails). Close is idempotent.
func (g *Generation) Close() {
	for _, l := range g.plugins {
		l.close()
	}
}

// close releases the plugin's instances and compiled code; later calls
// fail.
func (l *loaded) close() {
	l.mu.Lock()
	l.closed = true
	pool, p := l.pool, l.plugin
	l.pool, l.plugin = nil, nil
	l.mu.Unlock()
	if pool != nil {
		pool.Close()
		_ = p.Close(context.Background())
	}
}

// Prepare compiles the named plugins of the generation (every plugin when
// no name is given) now and leaves one idle instance of each in its pool,
// so the first call does not pay for either; a frontend can run it in the
// background while its first model request is in flight. A call that
// starts while Prepare is warming its plugin waits for the prepared
// instance instead of creating another. A name the generation lacks is an
// error. It is safe to call concurrently with calls and repeatedly.
func (g *Generation) Prepare(ctx context.Context, names ...string) error {
	for _, n := range names {
		if g.plugin(n) == nil {
			return fmt.Errorf("plugin: Prepare: no plugin %q in generation %d", n, g.id)
		}
	}
	// The plugins are prepared side by side: each compile (or cache
	// load and validation) is independent, and the first call usually
	// needs more than one of them.
	var wg sync.WaitGroup
	errs := make([]error, len(g.plugins))
	for i, l := range g.plugins {
		if len(names) > 0 && !slices.Contains(names, l.art.Name) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = l.prepare(ctx)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// prepare warms l, or waits for the Prepare already warming it.
func (l *loaded) prepare(ctx context.Context) error {
	l.mu.Lock()
	if w := l.warming; w != nil {
		l.mu.Unlock()
		return wait(ctx, w, l.art.Name)
	}
	w := make(chan struct{})
	l.warming = w
	l.mu.Unlock()
	err := l.warm(ctx)
	l.mu.Lock()
	l.warming = nil
	l.mu.Unlock()
	close(w)
	return err
}

// warm compiles l and parks one idle instance in its pool.
func (l *loaded) warm(ctx context.Context) error {
	pool, err := l.instances(ctx)
	if err != nil {
		return err
	}
	if pool.Idle(l.art.Name) > 0 {
		return nil
	}
	in, err := pool.Acquire(ctx, l.art.Name)
	if err != nil {
		return fmt.Errorf("plugin: prepare %q: %w", l.art.Name, err)
	}
	in.Release()
	return nil
}

// awaitWarm waits for a Prepare warming l, if one is in flight.
func (l *loaded) awaitWarm(ctx context.Context) error {
	l.mu.Lock()
	w := l.warming
	l.mu.Unlock()
	if w == nil {
		return nil
	}
	return wait(ctx, w, l.art.Name)
}

func wait(ctx context.Context, w <-chan struct{}, name string) error {
	select {
	case <-w:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("plugin: wait for %q to be prepared: %w", name, ctx.Err())
	}
}
