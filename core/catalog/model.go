package catalog

import "fmt"

// Level is a thinking level. The levels are ordered from no thinking to the
// most: off, minimal, low, medium, high, xhigh.
type Level string

// The thinking levels, in increasing order.
const (
	LevelOff     Level = "off"
	LevelMinimal Level = "minimal"
	LevelLow     Level = "low"
	LevelMedium  Level = "medium"
	LevelHigh    Level = "high"
	LevelXHigh   Level = "xhigh"
)

// levels lists every Level in increasing order.
var levels = []Level{LevelOff, LevelMinimal, LevelLow, LevelMedium, LevelHigh, LevelXHigh}

// rank returns the position of l in the level order, or -1 when l is not a
// level.
func (l Level) rank() int {
	for i, v := range levels {
		if v == l {
			return i
		}
	}
	return -1
}

// ParseLevel returns the Level named s, or an error listing the valid names.
func ParseLevel(s string) (Level, error) {
	if Level(s).rank() < 0 {
		return "", fmt.Errorf("catalog: thinking level %q is not one of off, minimal, low, medium, high, xhigh", s)
	}
	return Level(s), nil
}

// Modality is a kind of input a model accepts.
type Modality string

// The input modalities.
const (
	Text  Modality = "text"
	Image Modality = "image"
)

// CacheMode says how a model's provider caches prompts.
type CacheMode string

// The cache modes.
const (
	// CacheNone: no prompt caching.
	CacheNone CacheMode = "none"
	// CacheAutomatic: the provider caches prompt prefixes by itself; writes
	// are not charged.
	CacheAutomatic CacheMode = "automatic"
	// CacheImplicit: like automatic, and explicit cached contents may also
	// be created (storage charged separately, not modelled).
	CacheImplicit CacheMode = "implicit"
	// CacheExplicit: the request marks cache breakpoints; writes are charged.
	CacheExplicit CacheMode = "explicit"
)

// Price is a model's price in US dollars per million tokens. A nil *Price
// on a Model means the price is unknown (which is not free).
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cache_read"`
	CacheWrite float64 `json:"cache_write"`
	// CacheWrite1h is the price of a one-hour cache write where the
	// provider has one; 0 means the provider has no such tier.
	CacheWrite1h float64 `json:"cache_write_1h,omitempty"`
}

// Provenance says where a catalog fact came from.
type Provenance struct {
	// Source names the document or rule the figures were taken from.
	Source string `json:"source"`
	// Date is when they were taken (YYYY-MM-DD).
	Date string `json:"date"`
	// Verified is true when two independent sources agreed; false marks
	// figures that are plausible but unconfirmed.
	Verified bool `json:"verified"`
}

// Evidence ranks where a Model's capabilities came from. A higher rank wins
// when two sources describe the same model.
type Evidence string

// The kinds of evidence, weakest first.
const (
	// EvidenceInferred: guessed from the model's family name.
	EvidenceInferred Evidence = "inferred"
	// EvidenceRefreshed: published by a runtime catalog refresh.
	EvidenceRefreshed Evidence = "refreshed"
	// EvidenceProvider: declared by the provider plugin serving the model.
	EvidenceProvider Evidence = "provider"
	// EvidenceBundled: the reviewed catalog shipped in the binary.
	EvidenceBundled Evidence = "bundled"
	// EvidenceConfig: the user's own configuration.
	EvidenceConfig Evidence = "config"
)

// Model is what Smith knows about one model at one provider. Models are
// values; a Snapshot hands out copies.
type Model struct {
	Provider string   `json:"provider"`
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases,omitempty"`
	// Context is the context window in tokens.
	Context int `json:"context"`
	// MaxOutput is the largest output in tokens.
	MaxOutput int `json:"max_output"`
	// Input lists the accepted input modalities; text is always present.
	Input []Modality `json:"input"`
	// Tools reports whether the model can call tools.
	Tools bool `json:"tools"`
	// StrictTools reports whether tool input can be grammar-constrained to
	// the tool's schema.
	StrictTools bool `json:"strict_tools"`
	// Thinking lists the supported thinking levels in increasing order;
	// "off" is present only when thinking can be disabled.
	Thinking []Level `json:"thinking"`
	// Cache is the prompt-caching behaviour.
	Cache CacheMode `json:"cache"`
	// Price is nil when unknown.
	Price      *Price     `json:"price"`
	Provenance Provenance `json:"provenance"`
	// Evidence is where this entry came from; set by the catalog, not read
	// from data files.
	Evidence Evidence `json:"evidence,omitempty"`
}

// Ref returns "provider/id".
func (m Model) Ref() string { return m.Provider + "/" + m.ID }

// Accepts reports whether the model takes input of modality k.
func (m Model) Accepts(k Modality) bool {
	for _, v := range m.Input {
		if v == k {
			return true
		}
	}
	return false
}

// Supports reports whether the model accepts thinking level l.
func (m Model) Supports(l Level) bool {
	for _, v := range m.Thinking {
		if v == l {
			return true
		}
	}
	return false
}
