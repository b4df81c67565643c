package catalog

import (
	"strings"
	"testing"
)

func TestParseRejects(t *testing.T) {
	mod := func(f func(m *Model)) Document {
		d := testDoc("2026-01-01")
		f(&d.Models[1])
		return d
	}
	tests := []struct {
		name   string
		doc    []byte
		priced bool
		want   string
	}{
		{name: "syntax", doc: []byte(`{"format": 1, "generated": sk-secret-value}`), want: "syntax error at byte"},
		{name: "unknown field", doc: []byte(`{"format":1,"colour":"red"}`), want: `unknown field "colour"`},
		{name: "format", doc: []byte(`{"format":2}`), want: "format 2 is not supported"},
		{name: "trailing data", doc: append(encode(t, testDoc("2026-01-01")), []byte(` {}`)...), want: "data after the document"},
		{name: "missing price", priced: true, doc: encode(t, mod(func(m *Model) { m.Price = nil })), want: "price is missing"},
		{name: "negative price", doc: encode(t, mod(func(m *Model) { m.Price.Output = -1 })), want: "price.output -1 is outside"},
		{name: "swapped cache price", doc: encode(t, mod(func(m *Model) { m.Price.CacheRead = 30 })), want: "exceeds price.input"},
		{name: "output above context", doc: encode(t, mod(func(m *Model) { m.MaxOutput = 200000 })), want: "max_output 200000 is outside [1, context 100000]"},
		{name: "tiny context", doc: encode(t, mod(func(m *Model) { m.Context = 10 })), want: "context 10 is outside"},
		{name: "no text", doc: encode(t, mod(func(m *Model) { m.Input = []Modality{Image} })), want: `input must include "text"`},
		{name: "bad modality", doc: encode(t, mod(func(m *Model) { m.Input = []Modality{Text, "audio"} })), want: `"audio" is not text or image`},
		{name: "level order", doc: encode(t, mod(func(m *Model) { m.Thinking = []Level{LevelHigh, LevelLow} })), want: "increasing order"},
		{name: "unknown level", doc: encode(t, mod(func(m *Model) { m.Thinking = []Level{"max"} })), want: `"max" is not one of`},
		{name: "no thinking list", doc: encode(t, mod(func(m *Model) { m.Thinking = nil })), want: "thinking is empty"},
		{name: "cache mode", doc: encode(t, mod(func(m *Model) { m.Cache = "sometimes" })), want: `cache "sometimes"`},
		{name: "no provenance", doc: encode(t, mod(func(m *Model) { m.Provenance.Source = "" })), want: "provenance.source is empty"},
		{name: "bad date", doc: encode(t, mod(func(m *Model) { m.Provenance.Date = "30/11/2026" })), want: `"30/11/2026" is not a date`},
		{name: "duplicate alias", doc: encode(t, mod(func(m *Model) { m.Aliases = []string{"vis-text"} })), want: `name "acme/vis-text" is already used by acme/vis-text`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("test.json", tt.doc, tt.priced, EvidenceBundled)
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || !strings.HasPrefix(msg, "catalog: test.json") {
				t.Errorf("error %q, want it to start with the file and contain %q", msg, tt.want)
			}
			if strings.Contains(msg, "sk-secret") {
				t.Errorf("error echoes document content: %q", msg)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add(bundledJSON)
	f.Add(encode(f, testDoc("2026-01-01")))
	f.Add([]byte(`{"format":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Parse("fuzz", b, false, EvidenceRefreshed)
		if err != nil {
			return
		}
		// Whatever parses must satisfy the invariants Admit and Cost rely on.
		s := Build(d.Generated, LayerOf(d, EvidenceRefreshed))
		for _, m := range s.Models() {
			if len(m.Thinking) == 0 || !m.Accepts(Text) || m.MaxOutput > m.Context {
				t.Fatalf("invalid model published: %+v", m)
			}
			if _, err := Admit(m, Needs{Thinking: LevelXHigh, MaxOutput: 1 << 30}, Policy{}); err != nil {
				t.Fatalf("adjusting admit failed: %v", err)
			}
		}
	})
}
