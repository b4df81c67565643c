package catalog

import (
	"reflect"
	"slices"
	"testing"
)

// TestDeclaredLayer: a provider's declaration beats the family rule for
// what it states (image input) and borrows the rest (thinking) from it; the
// reviewed bundle still beats the declaration, and the disagreement is kept.
func TestDeclaredLayer(t *testing.T) {
	base := testSnapshot(t)
	origin := FileOrigin{Source: "plugin acme 1.0", Date: "2026-02-01"}
	layer := base.DeclaredLayer(origin, []Declared{
		{Provider: "acme", ID: "vis-plain", Context: 16000, MaxOutput: 2000, Tools: true, Images: false},
		{Provider: "acme", ID: "vis-text", Name: "Vis Text", Context: 9000, MaxOutput: 4096, Tools: true},
		{Provider: "other", ID: "x", Context: 4096, MaxOutput: 512, Images: true},
	})
	d := mustParse(t, testDoc("2026-01-01"), EvidenceBundled)
	s := Build(d.Generated, LayerOf(d, EvidenceBundled), layer)

	plain, err := s.Lookup("acme", "vis-plain")
	if err != nil {
		t.Fatal(err)
	}
	if plain.Evidence != EvidenceProvider || plain.Accepts(Image) || plain.Context != 16000 || plain.Price != nil {
		t.Errorf("declared model: %+v", plain)
	}
	if !slices.Equal(plain.Thinking, []Level{LevelOff, LevelLow, LevelHigh}) || plain.Cache != CacheAutomatic {
		t.Errorf("unstated fields not from the family rule: %+v", plain)
	}
	x, _ := s.Lookup("other", "x")
	if x.Evidence != EvidenceProvider || !x.Accepts(Image) || x.Tools || !slices.Equal(x.Thinking, []Level{LevelOff}) || x.Cache != CacheNone {
		t.Errorf("declaration without a family rule: %+v", x)
	}
	kept, _ := s.Lookup("acme", "vis-text")
	if kept.Evidence != EvidenceBundled || kept.Context != 8192 {
		t.Errorf("bundled entry overridden by a declaration: %+v", kept)
	}
	found := false
	for _, c := range s.Conflicts() {
		if c.Ref == "acme/vis-text" && c.Field == "context" && c.KeptFrom == EvidenceBundled && c.IgnoredFrom == EvidenceProvider {
			found = true
		}
	}
	if !found {
		t.Errorf("conflict not recorded: %+v", s.Conflicts())
	}
}

// TestSnapshotWith: adding a layer to a built snapshot gives the models
// and conflicts building with it would have.
func TestSnapshotWith(t *testing.T) {
	base := testSnapshot(t)
	layer := base.DeclaredLayer(FileOrigin{Source: "plugin acme 1.0"}, []Declared{
		{Provider: "acme", ID: "vis-plain", Context: 16000, MaxOutput: 2000, Tools: true},
		{Provider: "acme", ID: "vis-text", Context: 9000, MaxOutput: 4096, Tools: true},
	})
	d := mustParse(t, testDoc("2026-01-01"), EvidenceBundled)
	want := Build(d.Generated, LayerOf(d, EvidenceBundled), layer)
	built := Build(d.Generated, LayerOf(d, EvidenceBundled))
	got := built.With(layer)
	if !reflect.DeepEqual(got.Models(), want.Models()) {
		t.Errorf("models:\n got %+v\nwant %+v", got.Models(), want.Models())
	}
	if !reflect.DeepEqual(got.Conflicts(), want.Conflicts()) || len(got.Conflicts()) == 0 {
		t.Errorf("conflicts:\n got %+v\nwant %+v", got.Conflicts(), want.Conflicts())
	}
	if len(built.Models()) != len(want.Models())-1 {
		t.Error("With changed the snapshot it was called on")
	}
	if m, err := got.Lookup("acme", "vis-plain"); err != nil || m.Evidence != EvidenceProvider {
		t.Errorf("declared model: %+v %v", m, err)
	}
}
