package toolbox

import (
	"context"
	"errors"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
)

// Plugins opens the built-in tools plugin (WebAssembly, verified against its
// pinned hash) in a plugin host whose compiled code is cached under the
// user cache directory, and binds its tools to j and root. Only the tools
// plugin is loaded: an eval turn needs nothing else.
func Plugins(ctx context.Context, j *effect.Journal, root string) (Set, error) {
	arts, err := sysplugins.Artifacts("tools")
	if err != nil {
		return Set{}, err
	}
	h, err := plugin.Open(ctx, plugin.Config{})
	if err != nil {
		return Set{}, err
	}
	gen, err := h.Load(ctx, arts)
	if err != nil {
		return Set{}, errors.Join(err, h.Close(ctx))
	}
	b, err := gen.Bind(plugin.Effects{Journal: j, Roots: []string{root}, Cwd: root})
	if err != nil {
		gen.Close()
		return Set{}, errors.Join(err, h.Close(ctx))
	}
	return Set{Tools: b.Tools(), Close: func(ctx context.Context) error {
		err := b.Close()
		gen.Close()
		return errors.Join(err, h.Close(ctx))
	}}, nil
}
