package session

import (
	"fmt"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// EntryEffect decodes the effect record an effect_intent or
// effect_completion entry holds (an [effect.Intent] or an
// [effect.Completion], its ID the entry's Pair), as [Store.Records] reads
// them; for an entry of another kind it is an error naming the kind.
func EntryEffect(e sessionfmt.Entry) (effect.Record, error) {
	switch e.Kind {
	case sessionfmt.KindEffectIntent:
		var c intentContent
		if err := sessionfmt.DecodeContent(e.Content, &c); err != nil {
			return nil, fmt.Errorf("session: effect intent %s: %w", e.Pair, err)
		}
		return effect.Intent{ID: e.Pair.String(), Parent: c.Parent, Generation: c.Generation, Kind: c.Kind, Input: []byte(c.Input)}, nil
	case sessionfmt.KindEffectCompletion:
		var c completionContent
		if err := sessionfmt.DecodeContent(e.Content, &c); err != nil {
			return nil, fmt.Errorf("session: effect completion %s: %w", e.Pair, err)
		}
		return effect.Completion{ID: e.Pair.String(), Mutation: model.Mutation(c.Mutation), Output: c.Output,
			OutputTruncated: c.OutputTruncated, Error: c.Error, Recovered: c.Recovered}, nil
	}
	return nil, fmt.Errorf("session: entry %s is a %s entry, not an effect record", e.ID, e.Kind)
}
