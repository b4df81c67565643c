package runtime

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/smith-agent/smith/core/plugin"
)

// eager are the system plugins every session calls before its first
// request (the tools, and the product plugin's prompt and instructions):
// they are compiled in the background as soon as the generation is loaded.
var eager = []string{"tools", "product"}

// plugins is the runtime's one plugin host and generation, loaded in the
// background by loadPlugins so that loading overlaps whatever the frontend
// opens next (configuration is already read; a session, a model).
type plugins struct {
	loaded   chan struct{} // closed when host, gen and err are set
	prepared chan struct{} // closed when the background work is over
	host     *plugin.Host
	gen      *plugin.Generation
	err      error
	cancel   context.CancelFunc
	// warming counts the background compiles prepare started; close
	// waits for them before it releases the generation.
	warming sync.WaitGroup
}

// loadPlugins starts loading arts into one generation on a host whose
// compiled code and registrations are cached under cacheDir ("" caches
// nothing on disk; a directory that cannot be used is a note to notify), then compiles the tools plugin ahead of its first
// call. It returns at once.
func loadPlugins(ctx context.Context, cacheDir string, arts []plugin.Artifact, notify func(string)) *plugins {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p := &plugins{loaded: make(chan struct{}), prepared: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.prepared)
		p.host, p.err = plugin.Open(ctx, plugin.Config{CacheDir: cacheDir})
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
		if p.err != nil {
			return
		}
		var names []string
		for _, n := range eager {
			if slices.ContainsFunc(arts, func(a plugin.Artifact) bool { return a.Name == n }) {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			// A failure shows again, with its context, at the first call.
			_ = p.gen.Prepare(ctx, names...)
		}
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
	return p.gen, p.err
}

// prepare compiles the named plugins of the generation in the background.
func (p *plugins) prepare(names ...string) {
	p.warming.Add(1)
	go func() {
		defer p.warming.Done()
		<-p.loaded
		if p.err == nil {
			_ = p.gen.Prepare(context.Background(), names...)
		}
	}()
}

// close waits for the background work and releases the generation and
// the host.
func (p *plugins) close(ctx context.Context) error {
	<-p.prepared
	p.warming.Wait()
	p.cancel()
	if p.gen != nil {
		p.gen.Close()
	}
	if p.host != nil {
		return p.host.Close(ctx)
	}
	return nil
}
