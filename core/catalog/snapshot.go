package catalog

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Layer is one source of catalog facts: a parsed document, the models a
// provider plugin declared, or the user's configured models.
type Layer struct {
	// Evidence ranks the layer; see [Evidence].
	Evidence Evidence
	// Origin is the provenance of the layer as a whole.
	Origin   FileOrigin
	Models   []Model
	Families []Family
}

// LayerOf returns the Layer of a parsed document.
func LayerOf(d *Document, ev Evidence) Layer {
	return Layer{Evidence: ev, Origin: d.Provenance, Models: d.Models, Families: d.Families}
}

// rankOf orders evidence: config beats the reviewed bundle, which beats a
// provider plugin's declaration, which beats a refresh, which beats
// inference from a family name.
func rankOf(e Evidence) int {
	switch e {
	case EvidenceConfig:
		return 4
	case EvidenceBundled:
		return 3
	case EvidenceProvider:
		return 2
	case EvidenceRefreshed:
		return 1
	}
	return 0
}

// Conflict records two sources that disagree about one field of one model,
// and which one was kept.
type Conflict struct {
	Ref         string   `json:"model"`
	Field       string   `json:"field"`
	Kept        string   `json:"kept"`
	KeptFrom    Evidence `json:"kept_from"`
	Ignored     string   `json:"ignored"`
	IgnoredFrom Evidence `json:"ignored_from"`
}

// Snapshot is an immutable, coherent view of the catalog. It is safe for
// concurrent use.
type Snapshot struct {
	models    map[string]Model
	names     map[string]string   // provider/name → ref
	bareNames map[string][]string // name → refs
	families  []Family
	refs      []string
	origins   []FileOrigin
	conflicts []Conflict
	generated string
}

// Build merges layers into a Snapshot. Where two layers describe the same
// model the one with the stronger evidence wins as a whole and every field
// on which they differ is recorded as a [Conflict]. generated dates the
// snapshot (the newest document it contains).
func Build(generated string, layers ...Layer) *Snapshot {
	ordered := slices.Clone(layers)
	slices.SortStableFunc(ordered, func(a, b Layer) int { return rankOf(b.Evidence) - rankOf(a.Evidence) })
	s := &Snapshot{models: map[string]Model{}, names: map[string]string{}, bareNames: map[string][]string{}, generated: generated}
	for _, l := range ordered {
		s.origins = append(s.origins, l.Origin)
		for _, m := range l.Models {
			m.Evidence = l.Evidence
			ref := m.Ref()
			if kept, ok := s.models[ref]; ok {
				s.conflicts = append(s.conflicts, diff(kept, m)...)
				continue
			}
			s.models[ref] = m
			s.refs = append(s.refs, ref)
		}
		s.families = append(s.families, l.Families...)
	}
	slices.Sort(s.refs)
	for _, ref := range s.refs {
		m := s.models[ref]
		for _, n := range append([]string{m.ID}, m.Aliases...) {
			key := m.Provider + "/" + n
			if _, taken := s.names[key]; !taken {
				s.names[key] = ref
			}
			if !slices.Contains(s.bareNames[n], ref) {
				s.bareNames[n] = append(s.bareNames[n], ref)
			}
		}
	}
	return s
}

func diff(kept, other Model) []Conflict {
	fields := []struct {
		name string
		a, b any
	}{
		{"context", kept.Context, other.Context},
		{"max_output", kept.MaxOutput, other.MaxOutput},
		{"input", kept.Input, other.Input},
		{"tools", kept.Tools, other.Tools},
		{"strict_tools", kept.StrictTools, other.StrictTools},
		{"thinking", kept.Thinking, other.Thinking},
		{"cache", kept.Cache, other.Cache},
		{"price", deref(kept.Price), deref(other.Price)},
	}
	var out []Conflict
	for _, f := range fields {
		if !reflect.DeepEqual(f.a, f.b) {
			out = append(out, Conflict{Ref: kept.Ref(), Field: f.name, Kept: fmt.Sprint(f.a), KeptFrom: kept.Evidence,
				Ignored: fmt.Sprint(f.b), IgnoredFrom: other.Evidence})
		}
	}
	return out
}

func deref(p *Price) any {
	if p == nil {
		return "unknown"
	}
	return *p
}

// Models returns a copy of every model, sorted by provider then id.
func (s *Snapshot) Models() []Model {
	out := make([]Model, 0, len(s.refs))
	for _, r := range s.refs {
		out = append(out, cloneModel(s.models[r]))
	}
	return out
}

// Origins returns the provenance of every layer, strongest first.
func (s *Snapshot) Origins() []FileOrigin { return slices.Clone(s.origins) }

// Conflicts returns the disagreements found while merging layers.
func (s *Snapshot) Conflicts() []Conflict { return slices.Clone(s.conflicts) }

// Generated returns the snapshot's date.
func (s *Snapshot) Generated() string { return s.generated }

// Refs returns "provider/id" of every model serving name (an id or an
// alias), sorted; it is how a bare model name is resolved.
func (s *Snapshot) Refs(name string) []string { return slices.Clone(s.bareNames[name]) }

// Lookup returns the model named id (an id or an alias) at provider. A
// model no layer describes is inferred from the longest matching family
// prefix of that provider (Evidence "inferred", limits and price unknown);
// explicit evidence of any layer always beats inference.
func (s *Snapshot) Lookup(provider, id string) (Model, error) {
	if ref, ok := s.names[provider+"/"+id]; ok {
		return cloneModel(s.models[ref]), nil
	}
	if best := s.family(provider, id); best != nil {
		return Model{Provider: provider, ID: id, Name: id, Input: slices.Clone(best.Input), Tools: best.Tools,
			StrictTools: best.StrictTools, Thinking: slices.Clone(best.Thinking), Cache: best.Cache,
			Provenance: best.Provenance, Evidence: EvidenceInferred}, nil
	}
	hint := "run `smith models` for the known models, or declare this one in smith.kdl"
	if refs := s.bareNames[id]; len(refs) > 0 {
		hint = "it is served by " + strings.Join(refs, ", ")
	}
	return Model{}, fmt.Errorf("catalog: no model %q at provider %q and no family rule matches it; %s", id, provider, hint)
}

func cloneModel(m Model) Model {
	m.Aliases = slices.Clone(m.Aliases)
	m.Input = slices.Clone(m.Input)
	m.Thinking = slices.Clone(m.Thinking)
	if m.Price != nil {
		p := *m.Price
		m.Price = &p
	}
	return m
}
