package toolbox

import (
	"context"
	"errors"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
)

// Plugins loads the built-in tools plugin (WebAssembly, verified against
// its pinned hash) in a plugin host whose compiled code is cached under the
// user cache directory. It returns at once: verifying, loading, compiling
// and instantiating the plugin run in the background, so they overlap with
// whatever the caller opens next (model, session); Bind waits for the load
// (the tool definitions) and a call for the prepared instance. Only the
// tools plugin is loaded: an eval turn needs nothing else. A load failure
// is returned by Bind.
func Plugins(ctx context.Context) (Tools, error) {
	arts, err := sysplugins.Artifacts("tools")
	if err != nil {
		return nil, err
	}
	p := &pluginTools{loaded: make(chan struct{}), prepared: make(chan struct{})}
	go p.load(ctx, arts)
	return p, nil
}

type pluginTools struct {
	loaded   chan struct{} // closed when host, gen and err are set
	prepared chan struct{} // closed when the background work is over
	host     *plugin.Host
	gen      *plugin.Generation
	err      error
	binding  *plugin.Binding
}

// load opens the host and the generation, then prepares the plugin: it
// runs on its own goroutine, started by Plugins.
func (p *pluginTools) load(ctx context.Context, arts []plugin.Artifact) {
	defer close(p.prepared)
	p.host, p.err = plugin.Open(ctx, plugin.Config{})
	if p.err == nil {
		p.gen, p.err = p.host.Load(ctx, arts)
	}
	close(p.loaded)
	if p.err == nil {
		// A failure here shows again, with its context, at the first call.
		_ = p.gen.Prepare(ctx)
	}
}

func (p *pluginTools) Bind(j *effect.Journal, root string, ignore []string) ([]agent.Tool, error) {
	<-p.loaded
	if p.err != nil {
		return nil, p.err
	}
	b, err := p.gen.Bind(plugin.Effects{Journal: j, Roots: []string{root}, Cwd: root, Ignore: ignore})
	if err != nil {
		return nil, err
	}
	p.binding = b
	return b.Tools(), nil
}

func (p *pluginTools) Close(ctx context.Context) error {
	<-p.prepared
	var errs []error
	if p.binding != nil {
		errs = append(errs, p.binding.Close())
	}
	if p.gen != nil {
		p.gen.Close()
	}
	if p.host != nil {
		errs = append(errs, p.host.Close(ctx))
	}
	return errors.Join(errs...)
}
