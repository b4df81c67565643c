package wasmhost

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// DefaultMaxInstances bounds a plugin's pool when PluginConfig.MaxInstances
// is zero.
const DefaultMaxInstances = 4

// ErrClosed is returned by Acquire on a closed Generation.
var ErrClosed = errors.New("wasmhost: generation closed")

// Generation owns every instance of a published set of plugins: one pool of
// interchangeable instances per plugin, each serving one call at a time.
// Close releases everything; calls already running finish, and their
// instances are destroyed on Release. A Generation is safe for concurrent
// use.
type Generation struct {
	pools map[string]*pool
}

// pool holds one plugin's instances within a generation.
type pool struct {
	plugin *Plugin
	tokens chan struct{} // one per instance that may exist
	mu     sync.Mutex
	idle   []*Instance
	closed bool
}

// NewGeneration publishes plugins as one set. Plugin names must be unique.
// Instances are created lazily by Acquire.
func NewGeneration(plugins ...*Plugin) (*Generation, error) {
	g := &Generation{pools: make(map[string]*pool, len(plugins))}
	for _, p := range plugins {
		if _, dup := g.pools[p.name]; dup {
			return nil, fmt.Errorf("wasmhost: plugin name %q published twice in one generation; names must be unique", p.name)
		}
		n := p.cfg.MaxInstances
		if n <= 0 {
			n = DefaultMaxInstances
		}
		g.pools[p.name] = &pool{plugin: p, tokens: make(chan struct{}, n)}
	}
	return g, nil
}

// Acquire returns an idle instance of the named plugin, instantiating one
// (and running its _initialize) if none is idle. When the plugin's
// MaxInstances are all busy it waits for a Release or for ctx. The caller
// must Release the instance.
func (g *Generation) Acquire(ctx context.Context, plugin string) (*Instance, error) {
	pl, ok := g.pools[plugin]
	if !ok {
		names := make([]string, 0, len(g.pools))
		for n := range g.pools {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("wasmhost: no plugin %q in this generation (published: %s)", plugin, strings.Join(names, ", "))
	}
	select {
	case pl.tokens <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wasmhost: plugin %q: wait for a free instance: %w", plugin, ctx.Err())
	}
	pl.mu.Lock()
	if pl.closed {
		pl.mu.Unlock()
		<-pl.tokens
		return nil, ErrClosed
	}
	var stale []*Instance
	for n := len(pl.idle); n > 0; n = len(pl.idle) {
		in := pl.idle[n-1]
		pl.idle = pl.idle[:n-1]
		// An interpreted instance pooled before the compiled code
		// arrived gives way to a compiled one, as at Release.
		if in.stale() {
			stale = append(stale, in)
			continue
		}
		pl.mu.Unlock()
		return in, nil
	}
	pl.mu.Unlock()
	for _, in := range stale {
		in.destroy()
	}
	in, err := pl.plugin.instantiate(ctx)
	if err != nil {
		<-pl.tokens
		return nil, err
	}
	in.pool = pl
	return in, nil
}

func (pl *pool) put(in *Instance) {
	recycle := pl.plugin.cfg.RecycleBytes
	if recycle <= 0 {
		recycle = DefaultRecycleBytes
	}
	if !in.broken && int64(in.call.mem.Size()) > recycle {
		in.broken = true
	}
	stale := in.stale()
	pl.mu.Lock()
	if in.broken || stale || pl.closed {
		pl.mu.Unlock()
		in.destroy()
	} else {
		pl.idle = append(pl.idle, in)
		pl.mu.Unlock()
	}
	<-pl.tokens
}

// Idle reports how many instances of plugin are idle in the pool.
func (g *Generation) Idle(plugin string) int {
	pl, ok := g.pools[plugin]
	if !ok {
		return 0
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return len(pl.idle)
}

// Close destroys every idle instance and marks the generation closed: later
// Acquires fail with ErrClosed, and instances in use are destroyed when
// released. The plugins themselves stay compiled (another generation may
// share them). Close is idempotent.
func (g *Generation) Close() {
	for _, pl := range g.pools {
		pl.mu.Lock()
		pl.closed = true
		idle := pl.idle
		pl.idle = nil
		pl.mu.Unlock()
		for _, in := range idle {
			in.destroy()
		}
	}
}
