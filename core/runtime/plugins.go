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
type plugins struct {
	loaded   chan struct{} // closed when host, gen and err are set
	prepared chan struct{} // closed when the background work is over
	host     *plugin.Host
	gen      *plugin.Generation
	err      error
	cancel   context.CancelFunc
	// names are the artifacts' names.
	names []string
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
func loadPlugins(ctx context.Context, cacheDir string, log *pluginLog, arts []plugin.Artifact, notify func(string)) *plugins {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p := &plugins{loaded: make(chan struct{}), prepared: make(chan struct{}), cancel: cancel, log: log}
	for _, a := range arts {
		p.names = append(p.names, a.Name)
	}
	go func() {
		defer close(p.prepared)
		c := plugin.Config{CacheDir: cacheDir}
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
	return p.gen, p.err
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
	names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !p.has(n) })
	if len(names) > 0 {
		_ = p.gen.Prepare(context.Background(), names...)
	}
}

// has reports whether the generation holds the named plugin.
func (p *plugins) has(name string) bool { return slices.Contains(p.names, name) }

// close waits for the background work and releases the generation and
// the host.
func (p *plugins) close(ctx context.Context) error {
	<-p.prepared
	p.warming.Wait()
	p.cancel()
	if p.gen != nil {
		p.gen.Close()
	}
	var err error
	if p.host != nil {
		err = p.host.Close(ctx)
	}
	if p.log != nil {
		p.log.close()
	}
	return err
}
