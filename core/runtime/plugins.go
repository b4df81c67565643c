package runtime

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/smith-agent/smith/core/plugin"
)

// The system plugins every session calls before its first request:
// toolsPlugin (its definitions come from the registration, but the model
// may call a tool at once) and productPlugin (the prompt and the project's
// instructions). They are compiled in the background as soon as the
// generation is loaded; see Runtime.warm for the order.
const (
	toolsPlugin   = "tools"
	productPlugin = "product"
)

// plugins is the runtime's one plugin host and generation, loaded in the
// background by loadPlugins so that loading overlaps whatever the frontend
// opens next (configuration is already read; a session, a model).
//
// After the load, mu guards gen and names, which [Runtime.Reload]
// replaces, and refs: the sessions' tool bindings per generation. A
// replaced generation is closed when its last binding is released, so a
// run in progress finishes on the generation it started on.
type plugins struct {
	loaded   chan struct{} // closed when host, gen and err are set
	prepared chan struct{} // closed when the background work is over
	host     *plugin.Host
	err      error
	cancel   context.CancelFunc

	mu  sync.Mutex
	gen *plugin.Generation
	// names are the artifacts' names.
	names []string
	// refs counts the bindings of each generation and the compiles in
	// progress on it; retired are the replaced generations not yet closed.
	refs    map[*plugin.Generation]int
	retired []*plugin.Generation
	// warming counts the background compiles prepare started; close
	// waits for them before it releases the generation.
	warming sync.WaitGroup
	// log is the plugin log the host writes to.
	log *pluginLog
}

// loadPlugins starts loading arts into one generation on a host whose
// compiled code and registrations are cached under cacheDir ("" caches
// nothing on disk; a directory that cannot be used is a note to notify)
// and whose plugins write to log (nil: nowhere). It returns at once.
func loadPlugins(ctx context.Context, cacheDir string, log *pluginLog, secrets plugin.SecretStore, arts []plugin.Artifact, notify func(string)) *plugins {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p := &plugins{loaded: make(chan struct{}), prepared: make(chan struct{}), cancel: cancel, log: log, refs: map[*plugin.Generation]int{}}
	for _, a := range arts {
		p.names = append(p.names, a.Name)
	}
	go func() {
		defer close(p.prepared)
		c := plugin.Config{CacheDir: cacheDir, Secrets: secrets}
		if log != nil {
			c.Log = log
		}
		p.host, p.err = plugin.Open(ctx, c)
		if p.err == nil {
			if note := p.host.CacheNote(); note != "" {
				notify(note)
			}
			p.gen, p.err = p.host.Load(ctx, arts)
			if p.err != nil {
				p.err = fmt.Errorf("runtime: load the system plugins: %w", p.err)
			}
		}
		close(p.loaded)
	}()
	return p
}

// generation waits for the load and returns the generation.
func (p *plugins) generation(ctx context.Context) (*plugin.Generation, error) {
	select {
	case <-p.loaded:
	case <-ctx.Done():
		return nil, fmt.Errorf("runtime: wait for the plugins to load: %w", ctx.Err())
	}
	if p.err != nil {
		return nil, p.err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen, nil
}

// prepare compiles the named plugins of the generation in the background.
func (p *plugins) prepare(names ...string) {
	p.warming.Add(1)
	go func() {
		defer p.warming.Done()
		p.prepareNow(names...)
	}()
}

// prepareNow compiles the named plugins of the generation (those of arts,
// others are skipped) side by side and returns when they are ready. A
// failure shows again, with its context, at the first call.
func (p *plugins) prepareNow(names ...string) {
	<-p.loaded
	if p.err != nil {
		return
	}
	p.mu.Lock()
	gen, have := p.gen, p.names
	p.refs[gen]++ // a reload does not close it under the compile
	p.mu.Unlock()
	defer p.released(gen)
	names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(have, n) })
	if len(names) > 0 {
		_ = gen.Prepare(context.Background(), names...)
	}
}

// subscribers returns the names of the loaded generation's plugins that
// handle events (none if it failed to load).
func (p *plugins) subscribers() []string {
	<-p.loaded
	if p.err != nil {
		return nil
	}
	p.mu.Lock()
	gen := p.gen
	p.mu.Unlock()
	return gen.Subscribers()
}

// publish makes gen, holding the plugins named names, the generation new
// bindings get, and retires the previous one: closed now when no binding
// holds it, otherwise when its last binding is released.
func (p *plugins) publish(gen *plugin.Generation, names []string) (previous *plugin.Generation) {
	p.mu.Lock()
	defer p.mu.Unlock()
	previous = p.gen
	p.gen, p.names = gen, names
	if previous != nil {
		p.retired = append(p.retired, previous)
		p.collect()
	}
	return previous
}

// bound counts a binding of gen.
func (p *plugins) bound(gen *plugin.Generation) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refs[gen]++
}

// released uncounts a binding of gen and closes gen when it was the last
// binding of a retired generation.
func (p *plugins) released(gen *plugin.Generation) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.refs[gen]--; p.refs[gen] <= 0 {
		delete(p.refs, gen)
	}
	p.collect()
}

// collect closes the retired generations no binding or compile holds.
// Called with mu held.
func (p *plugins) collect() {
	p.retired = slices.DeleteFunc(p.retired, func(g *plugin.Generation) bool {
		if p.refs[g] > 0 {
			return false
		}
		g.Close()
		return true
	})
}

// close waits for the background work and releases the generation and
// the host.
func (p *plugins) close(ctx context.Context) error {
	<-p.prepared
	p.warming.Wait()
	p.cancel()
	p.mu.Lock()
	if p.gen != nil {
		p.gen.Close()
	}
	for _, g := range p.retired {
		g.Close()
	}
	p.retired = nil
	p.mu.Unlock()
	var err error
	if p.host != nil {
		err = p.host.Close(ctx)
	}
	if p.log != nil {
		p.log.close()
	}
	return err
}
