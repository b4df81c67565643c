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
