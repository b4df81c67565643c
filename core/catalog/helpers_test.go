package catalog

import (
	"encoding/json"
	"testing"
)

// testDoc is a small valid document for tests: provider "acme" with a
// family rule for "vis-" models (text and image) and two explicit models.
func testDoc(generated string, models ...Model) Document {
	prov := Provenance{Source: "test", Date: "2026-01-01", Verified: true}
	if models == nil {
		models = []Model{
			{Provider: "acme", ID: "vis-text", Name: "Vis Text", Context: 8192, MaxOutput: 4096, Input: []Modality{Text},
				Tools: true, Thinking: []Level{LevelOff}, Cache: CacheNone, Price: &Price{Input: 1, Output: 2}, Provenance: prov},
			{Provider: "acme", ID: "think", Name: "Think", Aliases: []string{"think-latest"}, Context: 100000, MaxOutput: 32000,
				Input: []Modality{Text, Image}, Tools: true, StrictTools: true, Thinking: []Level{LevelLow, LevelHigh},
				Cache: CacheExplicit, Price: &Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}, Provenance: prov},
		}
	}
	return Document{Format: 1, Generated: generated, Provenance: FileOrigin{Source: "test " + generated, Date: generated},
		Families: []Family{{Provider: "acme", Prefix: "vis-", Input: []Modality{Text, Image}, Tools: true,
			Thinking: []Level{LevelOff, LevelLow, LevelHigh}, Cache: CacheAutomatic, Provenance: Provenance{Source: "family rule", Date: "2026-01-01"}}},
		Models: models}
}

func encode(t testing.TB, d Document) []byte {
	t.Helper()
	for i := range d.Models {
		d.Models[i].Evidence = ""
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustParse(t testing.TB, d Document, ev Evidence) *Document {
	t.Helper()
	p, err := Parse("test.json", encode(t, d), false, ev)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
