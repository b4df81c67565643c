package runtime

import (
	"context"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/session"
)

// pluginState keeps the durable state of the plugins bound to one session
// in its file, as plugin_state_commit entries on the selected branch
// ([plugin.State]); the store's lock makes each commit atomic with the
// read it is checked against, so it needs no session lock and works
// during runs.
type pluginState struct{ s *Session }

var _ plugin.State = pluginState{}

// Load implements plugin.State.
func (p pluginState) Load(ctx context.Context, name string) (map[string]session.StateValue, error) {
	return p.s.store.PluginState(name)
}

// Commit implements plugin.State.
func (p pluginState) Commit(ctx context.Context, name, call, key, value string, check func(map[string]session.StateValue) error) (uint64, error) {
	return p.s.store.CommitPluginState(name, call, key, value, check)
}
