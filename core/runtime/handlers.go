package runtime

import (
	"context"
	"fmt"

	"github.com/smith-agent/smith/core/agent"
)

// publisher applies the runtime's part of the plugins' handler actions
// for a session's runs (see [agent.Publisher]): a model selection binds
// the model as [Session.SetModel] would, but for the rest of the run
// only — nothing is recorded and the session's model stays — so that a
// plugin can route one run without changing what the user chose; a
// reload publishes a new plugin generation (see [Runtime.Reload]).
type publisher struct{ s *Session }

var _ agent.Publisher = publisher{}

// Publish validates every action, then returns where the rest of the run
// goes.
func (p publisher) Publish(ctx context.Context, actions []agent.Action) (*agent.Target, error) {
	p.s.mu.Lock()
	thinking, journal, id := p.s.thinking, p.s.journal, p.s.info.ID
	p.s.mu.Unlock()
	var to *agent.Target
	for _, a := range actions {
		switch a.Kind {
		case agent.ActionSelectModel:
			bm, err := p.s.rt.bindModel(ctx, a.Model, thinking, journal, id)
			if err != nil {
				return nil, fmt.Errorf("plugin %s selected model %s, which cannot be used: %v", a.Plugin, a.Model, err)
			}
			if len(bm.codecs) > 0 {
				p.s.rt.plugins.prepare(bm.codecs...)
			}
			to = &agent.Target{Provider: bm.provider, Model: bm.modelID}
		case agent.ActionReload:
			// Published now; this run finishes on the generation it
			// started on and the session's next run binds the new one.
			if _, err := p.s.rt.Reload(ctx); err != nil {
				return nil, fmt.Errorf("plugin %s asked to reload the plugins: %v", a.Plugin, err)
			}
		default:
			return nil, fmt.Errorf("plugin %s returned %s, which the runtime does not apply", a.Plugin, a.Kind)
		}
	}
	return to, nil
}
