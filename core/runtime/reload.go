package runtime

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/protocol"
)

// ReloadResult is what [Runtime.Reload] published.
type ReloadResult struct {
	// Generation and Previous are the published and the replaced
	// generations' identifiers.
	Generation, Previous uint64
	// Plugins are the published generation's plugins, in load order.
	Plugins []string
	// Notes are the plugins discovery skipped, one sentence each.
	Notes []string
	// Deferred counts the sessions whose run in progress finishes on the
	// previous generation; each binds the new one when its run settles.
	Deferred int
}

// Reload discovers the plugins again (Config.Discover) and publishes them
// as one new generation, validated as a whole, or keeps the current one
// and returns why (an error wrapping [ErrUsage] when the set does not
// validate: two plugins declaring one tool, say). Sessions bind the new generation at their next run: an
// idle session at once (its queued input, history, model and secrets are
// kept; guest-local plugin state starts afresh), a session with a run in
// progress when that run settles, so calls already running and a provider
// round with its tool batch finish on the generation they started on.
// The previous generation is closed when its last session lets it go.
// It is safe for concurrent use; reloads are serialized.
func (rt *Runtime) Reload(ctx context.Context) (ReloadResult, error) {
	rt.reloading.Lock()
	defer rt.reloading.Unlock()
	prev, err := rt.Generation(ctx)
	if err != nil {
		return ReloadResult{}, err
	}
	arts, notes := rt.cfg.Plugins, []string(nil)
	if rt.cfg.Discover != nil {
		if arts, notes, err = rt.cfg.Discover(ctx); err != nil {
			return ReloadResult{}, fmt.Errorf("runtime: reload the plugins: %w; the plugins loaded before stay in use", err)
		}
	}
	arts, more := configured(arts, rt.conf, rt.paths.ConfigFile)
	notes = append(notes, more...)
	gen, err := rt.plugins.host.Load(ctx, arts)
	if err != nil {
		return ReloadResult{}, usagef("runtime: reload the plugins: %s; the plugins loaded before stay in use", strings.TrimPrefix(err.Error(), "plugin: "))
	}
	res := ReloadResult{Generation: gen.ID(), Previous: prev.ID(), Notes: notes}
	for _, a := range arts {
		res.Plugins = append(res.Plugins, a.Name)
	}
	rt.plugins.publish(gen, res.Plugins)
	rt.secrets.rescan()
	rt.mu.Lock()
	sessions := make([]*Session, 0, len(rt.sessions))
	for s := range rt.sessions {
		sessions = append(sessions, s)
	}
	rt.mu.Unlock()
	for _, s := range sessions {
		s.mu.Lock()
		if s.running() {
			s.stale = true
			res.Deferred++
		} else if !s.closed {
			_ = s.unbind()
		}
		s.mu.Unlock()
	}
	for _, s := range sessions {
		s.publishIdle(protocol.PluginsReloaded{Seq: protocol.Seq{N: s.hub.next()}, Generation: res.Generation, Previous: res.Previous,
			Plugins: slices.Clone(res.Plugins), Deferred: res.Deferred})
	}
	rt.plugins.prepare(toolsPlugin, productPlugin)
	return res, nil
}
