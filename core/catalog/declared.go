package catalog

import "slices"

// Declared is what a provider plugin states about one of its models (its
// contributed model definition).
type Declared struct {
	Provider  string
	ID        string
	Name      string
	Context   int
	MaxOutput int
	Tools     bool
	Images    bool
}

// DeclaredLayer turns provider declarations into a Layer of evidence
// "provider". What a declaration states (limits, tool use, image input)
// is taken as stated, overriding any family rule; what it does not state
// (thinking levels, cache behaviour) comes from the longest matching family
// rule of s, or else the conservative defaults (no thinking, no cache). A
// declaration carries no price, so its price is unknown.
func (s *Snapshot) DeclaredLayer(origin FileOrigin, decl []Declared) Layer {
	l := Layer{Evidence: EvidenceProvider, Origin: origin}
	for _, d := range decl {
		m := Model{Provider: d.Provider, ID: d.ID, Name: d.Name, Context: d.Context, MaxOutput: d.MaxOutput,
			Input: []Modality{Text}, Tools: d.Tools, Thinking: []Level{LevelOff}, Cache: CacheNone,
			Provenance: Provenance{Source: origin.Source, Date: origin.Date}}
		if m.Name == "" {
			m.Name = d.ID
		}
		if d.Images {
			m.Input = append(m.Input, Image)
		}
		if f := s.family(d.Provider, d.ID); f != nil {
			m.Thinking = slices.Clone(f.Thinking)
			m.Cache = f.Cache
			m.StrictTools = f.StrictTools && d.Tools
			m.Provenance.Source += "; thinking and cache from " + f.Provenance.Source
		}
		l.Models = append(l.Models, m)
	}
	return l
}

// family returns the longest family rule matching id at provider, or nil.
func (s *Snapshot) family(provider, id string) *Family {
	var best *Family
	for i := range s.families {
		f := &s.families[i]
		if f.Provider == provider && len(id) >= len(f.Prefix) && id[:len(f.Prefix)] == f.Prefix && (best == nil || len(f.Prefix) > len(best.Prefix)) {
			best = f
		}
	}
	return best
}

// With returns the snapshot s would have been had l been one of the
// layers it was built from: l's models join where the snapshot lacks
// them or holds them on weaker evidence, and every disagreement is a
// [Conflict] as in [Build]. s itself is unchanged.
func (s *Snapshot) With(l Layer) *Snapshot {
	byEvidence := map[Evidence]int{}
	var layers []Layer
	for _, ref := range s.refs {
		m := s.models[ref]
		i, ok := byEvidence[m.Evidence]
		if !ok {
			i = len(layers)
			byEvidence[m.Evidence] = i
			layers = append(layers, Layer{Evidence: m.Evidence})
		}
		layers[i].Models = append(layers[i].Models, m)
	}
	if len(layers) == 0 {
		layers = append(layers, Layer{})
	}
	layers[0].Families = s.families
	out := Build(s.generated, append(layers, l)...)
	out.origins = append(slices.Clone(s.origins), l.Origin)
	out.conflicts = append(slices.Clone(s.conflicts), out.conflicts...)
	return out
}
