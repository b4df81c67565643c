package catalog

import (
	"strings"
	"testing"
)

// TestBundledCatalogIsComplete checks the reviewed data: it parses under
// the strict rules (every model priced, limits sane, provenance present),
// covers the four vendors, and its prices obey each cache mode.
func TestBundledCatalogIsComplete(t *testing.T) {
	s, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	perProvider := map[string]int{}
	for _, m := range s.Models() {
		perProvider[m.Provider]++
		if m.Evidence != EvidenceBundled {
			t.Errorf("%s: evidence %q, want bundled", m.Ref(), m.Evidence)
		}
		p := m.Price
		if p == nil {
			t.Fatalf("%s: no price", m.Ref())
		}
		if p.Input <= 0 || p.Output <= 0 || p.Output < p.Input {
			t.Errorf("%s: implausible prices input %v output %v", m.Ref(), p.Input, p.Output)
		}
		switch m.Cache {
		case CacheExplicit:
			if p.CacheWrite < p.Input || p.CacheRead <= 0 {
				t.Errorf("%s: explicit caching but write %v < input %v or read %v", m.Ref(), p.CacheWrite, p.Input, p.CacheRead)
			}
		case CacheAutomatic, CacheImplicit:
			if p.CacheWrite != 0 || p.CacheRead <= 0 {
				t.Errorf("%s: %s caching charges no writes and discounts reads; got write %v read %v", m.Ref(), m.Cache, p.CacheWrite, p.CacheRead)
			}
		}
		if m.MaxOutput < 4096 || m.Context < 32000 {
			t.Errorf("%s: limits context %d / output %d look wrong", m.Ref(), m.Context, m.MaxOutput)
		}
		if !m.Provenance.Verified && !strings.Contains(m.Provenance.Source, "unverified") {
			t.Errorf("%s: unverified entry must say so in its source: %q", m.Ref(), m.Provenance.Source)
		}
	}
	for _, v := range []string{"anthropic", "openai", "google"} {
		if perProvider[v] < 3 {
			t.Errorf("provider %s has %d models, want at least 3", v, perProvider[v])
		}
	}
	if o := s.Origins(); len(o) != 1 || o[0].Source == "" || o[0].Date == "" {
		t.Errorf("origins %+v: want the bundled file's provenance", o)
	}
	if len(s.Conflicts()) != 0 {
		t.Errorf("bundled catalog conflicts with itself: %+v", s.Conflicts())
	}
}

// TestBundledAliases resolves an alias of a bundled model to its entry.
func TestBundledAliases(t *testing.T) {
	s, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Lookup("anthropic", "claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "claude-sonnet-4-5-20250929" || m.Evidence != EvidenceBundled {
		t.Errorf("alias resolved to %s (%s)", m.Ref(), m.Evidence)
	}
}

func BenchmarkBundledParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bundled", bundledJSON, true, EvidenceBundled); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdmit is the per-request cost of looking a model up and
// admitting a request.
func BenchmarkAdmit(b *testing.B) {
	s, err := Bundled()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		m, err := s.Lookup("anthropic", "claude-sonnet-4-5")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Admit(m, Needs{Tools: true, Thinking: LevelHigh, MaxOutput: 8000}, Policy{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBundledWithConfig: a configured model is added, and one the bundle
// also describes is replaced by the configuration, with the differing
// fields recorded as conflicts.
func TestBundledWithConfig(t *testing.T) {
	own := Model{Provider: "local", ID: "qwen3", Name: "Qwen3", Context: 32768, MaxOutput: 8192, Input: []Modality{Text},
		Thinking: []Level{LevelOff}, Cache: CacheNone, Provenance: Provenance{Source: "smith.kdl:3:1", Date: "2026-11-30"}}
	base, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	over, err := base.Lookup("anthropic", "claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	over.MaxOutput = 1000
	over.Aliases = nil
	s, err := BundledWith(Layer{Evidence: EvidenceConfig, Origin: FileOrigin{Source: "smith.kdl"}, Models: []Model{own, over}})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := s.Lookup("local", "qwen3"); err != nil || m.MaxOutput != 8192 || m.Evidence != EvidenceConfig {
		t.Errorf("configured model: %+v %v", m, err)
	}
	if m, err := s.Lookup("anthropic", over.ID); err != nil || m.MaxOutput != 1000 || m.Evidence != EvidenceConfig {
		t.Errorf("overridden model: %+v %v", m, err)
	}
	found := false
	for _, c := range s.Conflicts() {
		if c.Ref == over.Ref() && c.Field == "max_output" && c.KeptFrom == EvidenceConfig && c.IgnoredFrom == EvidenceBundled {
			found = true
		}
	}
	if !found {
		t.Errorf("conflicts %+v lack the max_output override", s.Conflicts())
	}
	if err := own.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	bad := own
	bad.MaxOutput = 40000
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "max_output 40000 is outside [1, context 32768]") {
		t.Errorf("Check of a bad model: %v", err)
	}
}
