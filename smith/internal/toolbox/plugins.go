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
// user cache directory, and starts compiling and instantiating it in the
// background. Only the tools plugin is loaded: an eval turn needs nothing
// else.
func Plugins(ctx context.Context) (Tools, error) {
	arts, err := sysplugins.Artifacts("tools")
	if err != nil {
		return nil, err
	}
	h, err := plugin.Open(ctx, plugin.Config{})
	if err != nil {
		return nil, err
	}
	gen, err := h.Load(ctx, arts)
	if err != nil {
		return nil, errors.Join(err, h.Close(ctx))
	}
	p := &pluginTools{host: h, gen: gen, prepared: make(chan struct{})}
	go func() {
		defer close(p.prepared)
		// A failure here shows again, with its context, at the first call.
		_ = gen.Prepare(ctx)
	}()
	return p, nil
}

type pluginTools struct {
	host     *plugin.Host
	gen      *plugin.Generation
	binding  *plugin.Binding
	prepared chan struct{}
}

func (p *pluginTools) Bind(j *effect.Journal, root string) ([]agent.Tool, error) {
	b, err := p.gen.Bind(plugin.Effects{Journal: j, Roots: []string{root}, Cwd: root})
	if err != nil {
		return nil, err
	}
	p.binding = b
	return b.Tools(), nil
}

func (p *pluginTools) Close(ctx context.Context) error {
	<-p.prepared
	var err error
	if p.binding != nil {
		err = p.binding.Close()
	}
	p.gen.Close()
	return errors.Join(err, p.host.Close(ctx))
}
